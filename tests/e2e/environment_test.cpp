// The recorded environment end to end: the real binary reading this process's environment (no sysroot) with the
// fake drivers honouring the same variables, and the recorded machines that set them (container-limited:
// CUDA_VISIBLE_DEVICES=0 of two GPUs; cloud-vm-aws: CUDA_VISIBLE_DEVICES set to an empty value).
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::merge;
using json = nlohmann::json;

namespace {

/// doctor over this process's own environment (no sysroot: the variables are read as a user's would be).
json doctor_live(const std::map<std::string, std::string>& vars) {
  const auto run = e2e::run_gpuscout(
      {"doctor", "--json", "--no-python", "--timeout", "5"},
      merge({e2e::fake_driver_env("two-mixed"), {{"CUDA_VISIBLE_DEVICES", "<unset>"}, {"CUDA_DEVICE_ORDER", "<unset>"},
                                                 {"CUDA_LAUNCH_BLOCKING", "<unset>"}},
             vars}));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

json doctor_from(const std::string& machine) {
  const auto run = e2e::run_gpuscout({"doctor", "--json", "--from",
                                      std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + machine + "/expected-info.json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

using e2e::finding_codes;

std::string message_of(const json& doc, const std::string& code) {
  const json* f = e2e::finding(doc, code);
  return f ? (*f)["message"].get<std::string>() : std::string();
}

}  // namespace

TEST(Environment, EmptyCudaVisibleDevicesIsRecordedAndNamedAsTheCause) {
  const json doc = doctor_live({{"CUDA_VISIBLE_DEVICES", ""}});
  ASSERT_TRUE(doc["environment"].is_object()) << doc["environment"].dump();
  EXPECT_EQ(doc["environment"]["CUDA_VISIBLE_DEVICES"], "");
  EXPECT_TRUE(finding_codes(doc).count("cuda-visible-devices-empty")) << doc["verdict"].dump(2);
  EXPECT_FALSE(finding_codes(doc).count("cuda-no-device")) << "the cause is named once: " << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  EXPECT_EQ(doc["verdict"]["device"], "cpu");
}

TEST(Environment, AListOfOneNamesTheHiddenGpu) {
  // CUDA numbers the 3090 first: "1" is the 3060, so the 3090 is hidden.
  const json doc = doctor_live({{"CUDA_VISIBLE_DEVICES", "1"}});
  const std::string message = message_of(doc, "cuda-visible-devices-hides");
  EXPECT_NE(message.find("1 of the 2"), std::string::npos) << doc["verdict"].dump(2);
  EXPECT_NE(message.find("hidden: 0 (NVIDIA GeForce RTX 3090"), std::string::npos) << message;
  EXPECT_EQ(doc["verdict"]["device"], "cuda:0");
}

TEST(Environment, DeviceOrderOnlyWhileUnset) {
  const json unset = doctor_live({});
  EXPECT_FALSE(unset["environment"].contains("CUDA_DEVICE_ORDER"));
  const std::string message = message_of(unset, "cuda-device-order");
  EXPECT_NE(message.find("cuda:0 is nvidia-smi's GPU 1 (NVIDIA GeForce RTX 3090)"), std::string::npos)
      << unset["verdict"].dump(2);
  const json pci = doctor_live({{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
  EXPECT_EQ(pci["environment"]["CUDA_DEVICE_ORDER"], "PCI_BUS_ID");
  EXPECT_FALSE(finding_codes(pci).count("cuda-device-order")) << pci["verdict"].dump(2);
}

TEST(Environment, LaunchBlockingIsInformation) {
  const json doc = doctor_live({{"CUDA_LAUNCH_BLOCKING", "1"}, {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
  const json* f = e2e::finding(doc, "cuda-launch-blocking");
  ASSERT_NE(f, nullptr) << doc["verdict"].dump(2);
  EXPECT_EQ((*f)["severity"], "info");
  EXPECT_EQ(doc["verdict"]["status"], "ready");
}

TEST(Environment, RecordedClusterNodeFromItsSavedInventory) {
  // container-limited's pod: CUDA_VISIBLE_DEVICES=0 of two GPUs, OMP_NUM_THREADS and NCCL settings recorded.
  const json doc = doctor_from("container-limited");
  EXPECT_EQ(doc["environment"]["CUDA_VISIBLE_DEVICES"], "0");
  EXPECT_EQ(doc["environment"]["OMP_NUM_THREADS"], "2");
  EXPECT_EQ(doc["environment"]["NCCL_DEBUG"], "WARN");
  const std::string message = message_of(doc, "cuda-visible-devices-hides");
  EXPECT_NE(message.find("CUDA_VISIBLE_DEVICES=\"0\""), std::string::npos) << doc["verdict"].dump(2);
  EXPECT_NE(message.find("NVIDIA GeForce RTX 3060"), std::string::npos) << message;
  EXPECT_FALSE(finding_codes(doc).count("cuda-device-order")) << "the list decides the order here";
}

TEST(Environment, EmptyValueSurvivesTheSavedInventory) {
  const auto run = e2e::run_gpuscout({"info", "--json", "--from",
                                      std::string(GPUSCOUT_SYSROOTS_DIR) + "/cloud-vm-aws/expected-info.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = run.json();
  ASSERT_TRUE(doc["environment"].contains("CUDA_VISIBLE_DEVICES"));
  EXPECT_EQ(doc["environment"]["CUDA_VISIBLE_DEVICES"], "");
  EXPECT_FALSE(doc["environment"].contains("CUDA_DEVICE_ORDER"));
  // info's text lists what is set, an empty value as "".
  const auto text = e2e::run_gpuscout({"info", "--from",
                                       std::string(GPUSCOUT_SYSROOTS_DIR) + "/cloud-vm-aws/expected-info.json"});
  EXPECT_NE(text.out.find("Environment\n  CUDA_VISIBLE_DEVICES=\"\""), std::string::npos) << text.out;
}
