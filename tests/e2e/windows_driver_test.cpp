// The Windows driver's answers through the real loading path: the fake NVML and CUDA libraries playing the
// recorded Windows laptop's driver (tests/fakes/scenarios/win-*.json), read by the Linux binary. The same
// scenarios answer as nvml.dll and nvcuda.dll under Wine.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

using nlohmann::json;

namespace {

json info(const std::string& scenario) {
  const auto env = e2e::merge({e2e::fake_driver_env(scenario), e2e::sysroot_env("no-gpu-vm"),
                               {{"GPUSCOUT_PYTHON", "/nonexistent/python3"}}});
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python", "--timeout", "5"}, env);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

// Errors of the Windows calls (a laptop's missing power limit is another matter).
int driver_model_errors(const json& gpu) {
  int n = 0;
  for (const auto& e : gpu["errors"])
    if (e["what"].get<std::string>().find("DriverModel") != std::string::npos) ++n;
  return n;
}

const json* nvidia_gpu(const json& doc) {
  for (const auto& g : doc["gpus"])
    if (g["vendor"] == "nvidia") return &g;
  return nullptr;
}

}  // namespace

TEST(WindowsDriver, TheLaptopsDriverModelAndLuidReachTheInventory) {
  const json doc = info("win-laptop-4060");
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["nvidia"]["driver_version"], "581.57");  // NVIDIA's form, as nvidia-smi prints it on Windows
  const json* gpu = nvidia_gpu(doc);
  ASSERT_NE(gpu, nullptr) << doc["gpus"].dump(2);
  EXPECT_EQ((*gpu)["driver_model"], "WDDM");
  EXPECT_EQ((*gpu)["luid"], "0x00000000:0x0001a2b3");  // from the CUDA device: no DXGI adapter on Linux
  ASSERT_EQ(doc["cuda"]["devices"].size(), 1u);
  EXPECT_EQ(doc["cuda"]["devices"][0]["luid"], "0x00000000:0x0001a2b3");
  EXPECT_EQ(driver_model_errors(*gpu), 0) << (*gpu)["errors"].dump(2);
}

TEST(WindowsDriver, ALinuxDriverHasNeitherAndSaysNothingAboutIt) {
  const json doc = info("rtx4090");
  const json* gpu = nvidia_gpu(doc);
  ASSERT_NE(gpu, nullptr);
  EXPECT_TRUE((*gpu)["driver_model"].is_null());
  EXPECT_TRUE((*gpu)["luid"].is_null());
  EXPECT_TRUE(doc["cuda"]["devices"][0]["luid"].is_null());
  EXPECT_EQ(driver_model_errors(*gpu), 0) << (*gpu)["errors"].dump(2);
  EXPECT_TRUE((*gpu)["errors"].empty()) << (*gpu)["errors"].dump(2);  // an idle desktop card answers every call
}

TEST(WindowsDriver, AMismatchAfterAnUpdateKeepsBothCodes) {
  const json doc = info("win-driver-mismatch");
  EXPECT_EQ(doc["nvidia"]["error"]["code"], 18);  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
  EXPECT_EQ(doc["nvidia"]["error"]["what"], "nvmlInit_v2");
  EXPECT_EQ(doc["cuda"]["error"]["code"], 803);   // CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
  EXPECT_EQ(doc["cuda"]["available"], false);
}
