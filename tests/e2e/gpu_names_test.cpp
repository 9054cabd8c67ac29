// GPU names end to end: `fit --gpu`, `platforms --gpu` and `advise --prices` accept the same names (the ones
// nvidia-smi, torch and the catalogue print) and refuse the same ones, through the one matcher in catalog.
#include <fstream>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

constexpr uint64_t GiB = 1ull << 30;

struct Form {
  const char* name;
  uint64_t fit_capacity_bytes;  ///< 0: both commands must refuse the name (exit 2, with its name in the message)
};

// Accepted forms with the row's memory, then names that are other products or not GPUs at all.
const std::vector<Form> kForms = {
    {"NVIDIA GeForce RTX 4090", 24 * GiB},
    {"GeForce RTX 4090", 24 * GiB},
    {"RTX 4090", 24 * GiB},
    {"rtx-4090", 24 * GiB},
    {"Tesla T4", 16 * GiB},
    {"T4", 16 * GiB},
    {"NVIDIA A100-SXM4-80GB", 80 * GiB},
    {"NVIDIA A100 80GB PCIe", 80 * GiB},
    {"NVIDIA A100-PCIE-40GB", 40 * GiB},
    {"NVIDIA H100 80GB HBM3", 80 * GiB},
    {"NVIDIA H200", 141 * GiB},
    {"NVIDIA GeForce RTX 4060 Laptop GPU", 8 * GiB},
    {"AMD Radeon RX 7900 XTX", 24 * GiB},
    {"Intel(R) Arc(TM) A770 Graphics", 16 * GiB},
    {"NVIDIA H200 MIG 1g.18gb", 18'000'000'000ull},  // a slice: its own memory, from the profile
    {"NVIDIA H200 NVL", 141 * GiB},   // its own row, not the H200 SXM's
    {"NVIDIA GH200 480GB", 96 * GiB},  // the GPU's 96 GB of HBM3, not the superchip's 480 GB of LPDDR5X
    {"NVIDIA H100 CNX", 0},
    {"NVIDIA GH200 144G HBM3e", 0},
    {"RTX 4909", 0},
    {"Definitely Not A GPU", 0},
};

using e2e::write_temp_file;

}  // namespace

TEST(GpuNames, FitAndPlatformsAcceptTheSameNames) {
  for (const auto& f : kForms) {
    const auto fit = e2e::run_gpuscout({"fit", "--gpu", f.name, "--model", "mistral-7b", "--json"});
    const auto platforms = e2e::run_gpuscout({"platforms", "--gpu", f.name, "--no-probe", "--json"});
    EXPECT_EQ(fit.exit_code == 0, platforms.exit_code == 0)
        << f.name << "\nfit: " << fit.exit_code << " " << fit.err << "\nplatforms: " << platforms.exit_code << " "
        << platforms.err;
    if (f.fit_capacity_bytes) {
      ASSERT_EQ(fit.exit_code, 0) << f.name << ": " << fit.err;
      EXPECT_EQ(fit.json()["fits"][0]["capacity_bytes"], f.fit_capacity_bytes) << f.name;
      EXPECT_EQ(platforms.exit_code, 0) << f.name << ": " << platforms.err;
    } else {
      for (const auto* r : {&fit, &platforms}) {
        EXPECT_EQ(r->exit_code, 2) << f.name << ": " << r->err;
        EXPECT_NE(r->err.find(std::string("'") + f.name + "'"), std::string::npos) << r->err;
        EXPECT_EQ(r->err.find("internal error"), std::string::npos) << r->err;
      }
    }
  }
}

TEST(GpuNames, UnknownNamesSuggestCloseOnes) {
  const auto fit = e2e::run_gpuscout({"fit", "--gpu", "NVIDIA H100 CNX", "--model", "mistral-7b"});
  EXPECT_EQ(fit.exit_code, 2);
  EXPECT_NE(fit.err.find("did you mean: H100 PCIe"), std::string::npos) << fit.err;
  EXPECT_NE(fit.err.find("--vram"), std::string::npos) << fit.err;
  const auto platforms = e2e::run_gpuscout({"platforms", "--gpu", "RTX 4909", "--no-probe"});
  EXPECT_EQ(platforms.exit_code, 2);
  EXPECT_NE(platforms.err.find("did you mean: GeForce RTX 4090"), std::string::npos) << platforms.err;
}

// platforms --gpu with the name nvidia-smi prints lists the same offers as with the catalogue's name.
TEST(GpuNames, PlatformsFiltersByTheRowNotTheSpelling) {
  const auto smi = e2e::run_gpuscout({"platforms", "--gpu", "Tesla T4", "--no-probe", "--json"});
  const auto alias = e2e::run_gpuscout({"platforms", "--gpu", "T4", "--no-probe", "--json"});
  ASSERT_EQ(smi.exit_code, 0) << smi.err;
  ASSERT_EQ(alias.exit_code, 0) << alias.err;
  EXPECT_FALSE(smi.json()["options"].empty());
  EXPECT_EQ(smi.json()["options"], alias.json()["options"]);
}

TEST(GpuNames, AdvisePricesTakeDriverNames) {
  const auto prices = write_temp_file("smi-names.csv", "name,price\nNVIDIA GeForce RTX 4090,1500\nTesla T4,400\n");
  const auto r = e2e::run_gpuscout({"advise", "--prices", prices, "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto other = write_temp_file("cnx.csv", "name,price\nNVIDIA H100 CNX,30000\n");
  const auto bad = e2e::run_gpuscout({"advise", "--prices", other, "--no-probe"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown GPU 'NVIDIA H100 CNX'"), std::string::npos) << bad.err;
}
