#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "catalog/catalog.hpp"
#include "catalog/gpu_match.hpp"
#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/version.hpp"

using namespace gpuscout;

TEST(ArchList, CubinsRunOnSameMajorHigherMinorAndPtxForward) {
  const std::vector<std::string> cu121 = {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"};
  EXPECT_TRUE(catalog::arch_list_runs(cu121, std::nullopt, "8.9"));   // Ada runs the sm_86 cubin
  EXPECT_TRUE(catalog::arch_list_runs(cu121, std::nullopt, "6.1"));   // consumer Pascal runs sm_60
  EXPECT_FALSE(catalog::arch_list_runs(cu121, std::nullopt, "12.0")); // Blackwell needs sm_120 or PTX
  EXPECT_FALSE(catalog::arch_list_runs(cu121, std::nullopt, "3.7"));
  EXPECT_TRUE(catalog::arch_list_runs({"sm_80", "compute_90"}, std::nullopt, "12.0"));  // PTX JIT forward
  EXPECT_TRUE(catalog::arch_list_runs({"7.5", "8.0"}, std::string("8.0"), "12.0"));
  EXPECT_FALSE(catalog::arch_list_runs({"sm_90a"}, std::nullopt, "9.1"));
}

TEST(ArchList, Conversion) {
  EXPECT_EQ(catalog::arch_to_cc("sm_86"), "8.6");
  EXPECT_EQ(catalog::arch_to_cc("compute_120"), "12.0");
  EXPECT_EQ(catalog::arch_to_cc("sm_90a"), "9.0");
  EXPECT_FALSE(catalog::arch_to_cc("junk").has_value());
}

TEST(Tables, LoadWithoutErrorsAndAnswerKnownFacts) {
  EXPECT_TRUE(catalog::load_errors().empty());
  EXPECT_GE(catalog::gpus().size(), 60u);
  EXPECT_EQ(catalog::min_driver_for_cuda("12.8")->str(), "570.26");
  EXPECT_EQ(catalog::newest_cuda_for_driver(*Version::parse("535.104.05")), "12.2");
  EXPECT_EQ(catalog::find_compute_capability("8.9")->architecture, "Ada Lovelace");
}

TEST(Version, ComparesNumerically) {
  EXPECT_LT(*Version::parse("570.26"), *Version::parse("570.124.06"));
  EXPECT_EQ(Version::from_cuda_int(12040).major_minor(), "12.4");
  EXPECT_EQ(Version::parse("2.5.1+cu121")->suffix(), "+cu121");
  EXPECT_FALSE(Version::parse("abc").has_value());
}

TEST(Csv, QuotedCellsAndErrorsWithLineNumbers) {
  auto t = csv::parse("a,b\n1,\"x, \"\"y\"\"\"\n\n2,z\n", "test.csv");
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->rows().size(), 2u);
  EXPECT_EQ(t->cell(t->rows()[0], "b"), "x, \"y\"");
  auto bad = csv::parse("a,b\n1,2,3\n", "prices.csv");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("prices.csv:2"), std::string::npos);
  auto unclosed = csv::parse("a\n\"open\n", "x.csv");
  EXPECT_FALSE(unclosed.has_value());
  EXPECT_FALSE(csv::parse("", "empty.csv").has_value());
}

namespace {

constexpr uint64_t GiB = 1ull << 30;

// The row name match_gpu picks, or "(none)".
std::string row_for(const catalog::GpuQuery& q) {
  const auto m = catalog::match_gpu(q);
  return m ? m->spec->name : "(none)";
}

}  // namespace

// Every name form a driver, torch or a user writes, and the row it must reach.
TEST(GpuMatch, NameFormsReachTheirRow) {
  const std::vector<std::pair<const char*, const char*>> forms = {
      {"NVIDIA GeForce RTX 4090", "GeForce RTX 4090"},  // nvidia-smi and torch.cuda.get_device_name
      {"GeForce RTX 4090", "GeForce RTX 4090"},
      {"RTX 4090", "GeForce RTX 4090"},
      {"rtx-4090", "GeForce RTX 4090"},
      {"  nvidia   geforce rtx 4090 ", "GeForce RTX 4090"},
      {"4090", "GeForce RTX 4090"},
      {"Tesla T4", "Tesla T4"},
      {"NVIDIA Tesla T4", "Tesla T4"},
      {"NVIDIA T4", "Tesla T4"},
      {"T4", "Tesla T4"},
      {"NVIDIA A100-SXM4-80GB", "A100 SXM4 80GB"},
      {"NVIDIA A100-SXM4-40GB", "A100 SXM4 40GB"},
      {"NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"},
      {"NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"},
      {"A100 80 GB", "A100 SXM4 80GB"},
      {"NVIDIA H100 80GB HBM3", "H100 SXM5 80GB"},
      {"NVIDIA H100 PCIe", "H100 PCIe"},
      {"NVIDIA H200", "H200 SXM 141GB"},
      {"NVIDIA B200", "B200"},
      {"NVIDIA L4", "L4"},
      {"NVIDIA A10G", "A10G"},
      {"NVIDIA RTX A6000", "RTX A6000"},
      {"NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada Generation"},
      {"Tesla V100-SXM2-16GB", "Tesla V100 SXM2 16GB"},
      {"Tesla P100-PCIE-16GB", "Tesla P100 PCIe 16GB"},
      {"Tesla K80", "Tesla K80"},
      {"NVIDIA GeForce GTX 1080 Ti", "GeForce GTX 1080 Ti"},
      {"GeForce GTX 1060 6GB", "GeForce GTX 1060 6GB"},
      {"NVIDIA GeForce RTX 3060 Ti", "GeForce RTX 3060 Ti"},
      {"NVIDIA GeForce RTX 4060 Laptop GPU", "GeForce RTX 4060 Laptop GPU"},
      {"GeForce RTX 4060 Mobile", "GeForce RTX 4060 Laptop GPU"},
      {"NVIDIA GeForce RTX 4090 Laptop GPU", "GeForce RTX 4090 Laptop GPU"},
      {"NVIDIA GeForce RTX 5090", "GeForce RTX 5090"},
      {"AMD Radeon RX 7900 XTX", "Radeon RX 7900 XTX"},
      {"Radeon RX 7900 XTX", "Radeon RX 7900 XTX"},
      {"RX 7900 XTX", "Radeon RX 7900 XTX"},
      {"AMD Instinct MI300X", "Instinct MI300X"},
      {"Intel(R) Arc(TM) A770 Graphics", "Arc A770 16GB"},
      {"Intel\u00ae Arc\u2122 A770 Graphics", "Arc A770 16GB"},
      {"Intel Arc B580", "Arc B580"},
      {"NVIDIA GeForce RTX 4090 D", "GeForce RTX 4090 D"},  // China's cut-down card: its own row, not the 4090's
      {"NVIDIA GeForce RTX 4090", "GeForce RTX 4090"},
      {"NVIDIA H20", "H20"},
      {"NVIDIA L20", "L20"},
  };
  for (const auto& [form, row] : forms) EXPECT_EQ(row_for({.name = form}), row) << form;
}

// Not a loose substring: a different product that contains a catalogue name matches nothing.
TEST(GpuMatch, OtherProductsContainingANameMatchNothing) {
  for (const char* name : {"NVIDIA H200 NVL 2", "NVIDIA GH200 144G HBM3e", "GH200 NVL2", "NVIDIA GeForce RTX 4090 Ti",
                           "NVIDIA H100 CNX", "NVIDIA GeForce RTX 3050 Ti Laptop GPU", "NVIDIA GeForce GTX 1060 3GB",
                           "RTX 40", "A100", "NVIDIA", "GeForce", "", "   ", "MIG 1g.18gb"})
    EXPECT_EQ(row_for({.name = name}), "(none)") << "'" << name << "'";
}

TEST(GpuMatch, MemoryTellsVariantsApartAndRulesOutAWrongRow) {
  // Reported sizes as drivers give them, a little under the datasheet.
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 4060 Ti", .memory_bytes = 16376 * (1ull << 20)}),
            "GeForce RTX 4060 Ti 16GB");
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 4060 Ti", .memory_bytes = 8188 * (1ull << 20)}),
            "GeForce RTX 4060 Ti 8GB");
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 4060 Ti"}), "GeForce RTX 4060 Ti 8GB");  // the catalogue's alias
  EXPECT_EQ(row_for({.name = "NVIDIA A100 PCIe", .memory_bytes = 40 * GiB}), "A100 PCIe 40GB");
  EXPECT_EQ(row_for({.name = "NVIDIA A100 PCIe", .memory_bytes = 80 * GiB}), "A100 PCIe 80GB");
  EXPECT_EQ(row_for({.name = "NVIDIA A100 PCIe"}), "(none)");  // 40 or 80 GB: cannot tell
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 3060", .memory_bytes = 12 * GiB}), "GeForce RTX 3060 12GB");
  // The 8 GB RTX 3060 has its own bus and bandwidth; the catalogue has no row for it.
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 3060", .memory_bytes = 8 * GiB}), "(none)");
  EXPECT_EQ(row_for({.name = "NVIDIA A100-SXM4-40GB", .memory_bytes = 80 * GiB}), "(none)");
  EXPECT_EQ(row_for({.name = "Tesla T4", .memory_bytes = 15360 * (1ull << 20)}), "Tesla T4");  // ECC reserve
  EXPECT_EQ(row_for({.name = "NVIDIA H200", .memory_bytes = 150754820096ull}), "H200 SXM 141GB");
  EXPECT_EQ(row_for({.name = "Tesla T4", .memory_bytes = 0}), "Tesla T4");  // 0: unknown
}

TEST(GpuMatch, PciIdsWinAndSharedIdsNeedTheName) {
  auto m = catalog::match_gpu({.pci_vendor_id = 0x10de, .pci_device_id = 0x1eb8});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "Tesla T4");
  EXPECT_EQ(m->by, catalog::GpuMatch::By::pci_id);
  EXPECT_EQ(row_for({"<script>x</script> iGame RTX 4090 D", 0x10de, 0x2684, 24 * GiB}), "GeForce RTX 4090");
  // MI250X and MI250 share 1002:740c and their memory: the name decides, and without it there is no answer.
  EXPECT_EQ(row_for({.name = "", .pci_vendor_id = 0x1002, .pci_device_id = 0x740c}), "(none)");
  EXPECT_EQ(row_for({"AMD Instinct MI250", 0x1002, 0x740c, 64 * GiB}), "Instinct MI250");
  EXPECT_EQ(row_for({"NVIDIA GeForce RTX 4090", 0x10de, 0xffff, std::nullopt}), "GeForce RTX 4090");  // unknown id
  m = catalog::match_gpu({.name = "NVIDIA GeForce RTX 4090"});  // the row's name, as nvidia-smi prints it
  ASSERT_TRUE(m);
  EXPECT_EQ(m->by, catalog::GpuMatch::By::name);
  m = catalog::match_gpu({.name = "RTX 4090"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->by, catalog::GpuMatch::By::alias);
}

TEST(GpuMatch, MigSlicesAreFlagged) {
  auto m = catalog::match_gpu({.name = "NVIDIA H200 MIG 1g.18gb", .memory_bytes = 16 * GiB});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "H200 SXM 141GB");  // the slice's memory does not rule the card out
  EXPECT_EQ(m->mig_profile, "1g.18gb");
  EXPECT_EQ(m->mig_memory_bytes, 18'000'000'000ull);
  m = catalog::match_gpu({.name = "NVIDIA A100-SXM4-40GB MIG 1g.5gb"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "A100 SXM4 40GB");
  EXPECT_EQ(m->mig_memory_bytes, 5'000'000'000ull);
  m = catalog::match_gpu({.name = "NVIDIA H100 80GB HBM3 MIG 1c.2g.20gb+me"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "H100 SXM5 80GB");
  EXPECT_EQ(m->mig_profile, "1c.2g.20gb+me");
  // nvidia-smi -L names a slice without its card: only the PCI id finds the card.
  m = catalog::match_gpu({"MIG 1g.18gb", 0x10de, 0x2335, 17 * GiB});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "H200 SXM 141GB");
  EXPECT_TRUE(m->mig_profile);
  m = catalog::match_gpu({.name = "NVIDIA H200 MIG"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->mig_profile, "");
  EXPECT_FALSE(m->mig_memory_bytes);
  m = catalog::match_gpu({.name = "NVIDIA H200 NVL MIG 1g.16gb"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "H200 NVL");
  EXPECT_FALSE(catalog::match_gpu({.name = "NVIDIA GeForce RTX 4090"})->mig_profile);
}

// A slice's share of its card, from the profile: compute slices of 7, memory in eighths of the card.
TEST(GpuMatch, MigSlicesGetTheirShare) {
  struct Case {
    const char* name;
    int compute_sevenths, memory_eighths;
  };
  for (const Case& c : {Case{"NVIDIA H200 MIG 1g.18gb", 1, 1}, Case{"NVIDIA H200 MIG 2g.35gb", 2, 2},
                        Case{"NVIDIA H200 MIG 3g.71gb", 3, 4}, Case{"NVIDIA H200 MIG 7g.141gb", 7, 8},
                        Case{"NVIDIA A100-SXM4-80GB MIG 1g.20gb", 1, 2}, Case{"NVIDIA A100-SXM4-40GB MIG 3g.20gb", 3, 4},
                        Case{"NVIDIA H100 80GB HBM3 MIG 1c.2g.20gb", 1, 2}}) {
    const auto m = catalog::match_gpu({.name = c.name});
    ASSERT_TRUE(m) << c.name;
    ASSERT_TRUE(m->mig_compute_share && m->mig_memory_share) << c.name;
    EXPECT_NEAR(*m->mig_compute_share, c.compute_sevenths / 7.0, 1e-12) << c.name;
    EXPECT_NEAR(*m->mig_memory_share, c.memory_eighths / 8.0, 1e-12) << c.name;
  }
  const auto unnamed = catalog::match_gpu({.name = "NVIDIA H200 MIG"});
  ASSERT_TRUE(unnamed);
  EXPECT_FALSE(unnamed->mig_compute_share);
  EXPECT_FALSE(catalog::match_gpu({.name = "NVIDIA H200"})->mig_memory_share);
  EXPECT_TRUE(catalog::names_mig_slice("NVIDIA H200 MIG 1g.18gb"));
  EXPECT_FALSE(catalog::names_mig_slice("NVIDIA H200 NVL"));
}

// Products whose names contain another's are their own rows: the H200 NVL is not the H200 SXM, the GH200 not
// the H200 (nvidia-smi names, and the PCI id where the catalogue records one).
TEST(GpuMatch, H200NvlAndGh200AreTheirOwnRows) {
  EXPECT_EQ(row_for({.name = "NVIDIA H200 NVL"}), "H200 NVL");
  EXPECT_EQ(row_for({.name = "NVIDIA H200", .pci_vendor_id = 0x10de, .pci_device_id = 0x233b}), "H200 NVL");
  EXPECT_EQ(row_for({.name = "NVIDIA H200"}), "H200 SXM 141GB");
  EXPECT_EQ(row_for({.name = "NVIDIA GH200 480GB"}), "GH200 480GB");
  EXPECT_EQ(row_for({.name = "GH200"}), "GH200 480GB");
  const auto nvl = catalog::match_gpu({.name = "NVIDIA H200 NVL"});
  const auto sxm = catalog::match_gpu({.name = "NVIDIA H200"});
  const auto gh = catalog::match_gpu({.name = "NVIDIA GH200 480GB"});
  ASSERT_TRUE(nvl && sxm && gh);
  EXPECT_LT(*nvl->spec->bf16_tensor_tflops, *sxm->spec->bf16_tensor_tflops);
  EXPECT_LT(*gh->spec->memory_bandwidth_gbs, *sxm->spec->memory_bandwidth_gbs);
}

// Issue 16's rows: the NVML names of the new cards reach them, variants sharing a name or PCI id split by memory,
// and the optional price columns read as numbers.
TEST(GpuMatch, Issue16RowsAndPrices) {
  EXPECT_EQ(row_for({.name = "NVIDIA H100 NVL"}), "H100 NVL");
  EXPECT_EQ(row_for({.name = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"}),
            "RTX PRO 6000 Blackwell Workstation Edition");
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 5060 Ti", .memory_bytes = 8 * GiB}), "GeForce RTX 5060 Ti 8GB");
  EXPECT_EQ(row_for({.name = "NVIDIA GeForce RTX 5060 Ti", .memory_bytes = 16 * GiB}), "GeForce RTX 5060 Ti 16GB");
  EXPECT_EQ(row_for({.name = "AMD Radeon RX 9060 XT", .memory_bytes = 8 * GiB}), "Radeon RX 9060 XT 8GB");
  EXPECT_EQ(row_for({.name = "NVIDIA GB10"}), "GB10");
  const auto b200 = catalog::match_gpu({.name = "NVIDIA B200"});
  ASSERT_TRUE(b200 && b200->spec->fp32_tflops);
  EXPECT_DOUBLE_EQ(*b200->spec->fp32_tflops, 75);  // NVIDIA's HGX B200 table, per GPU
  const auto used = catalog::match_gpu({.name = "NVIDIA GeForce RTX 3090"});
  ASSERT_TRUE(used && used->spec->used_price_usd && used->spec->street_price_usd);
  EXPECT_DOUBLE_EQ(*used->spec->used_price_usd, 800);
  EXPECT_EQ(used->spec->street_price_date, "2026-03-06");
}

// Each name and alias in gpus.csv reaches its own row, with and without its memory: no two rows collide
// under the matcher's rules.
TEST(GpuMatch, EveryCatalogueLabelReachesItsRow) {
  for (const auto& g : catalog::gpus()) {
    std::vector<std::string> labels = g.aliases;
    labels.push_back(g.name);
    for (const auto& l : labels) {
      EXPECT_EQ(row_for({.name = l}), g.name) << l;
      EXPECT_EQ(row_for({.name = l, .memory_bytes = g.memory_bytes}), g.name) << l;
    }
  }
}

TEST(GpuMatch, NormalisedWords) {
  EXPECT_EQ(catalog::normalise_name("Intel(R) Arc(TM) A770 Graphics"), "arc a770");
  EXPECT_EQ(catalog::normalise_name(" NVIDIA  GeForce RTX 4060 Laptop GPU"), "geforce rtx 4060 laptop");
  EXPECT_EQ(catalog::normalise_name("NVIDIA A100-SXM4-80GB"), "a100 sxm4 80gb");
  EXPECT_EQ(catalog::normalise_name("A100 80 GB"), "a100 80gb");
  EXPECT_EQ(catalog::normalise_name("AMD Radeon RX 7900 XTX"), "radeon rx 7900 xtx");
}

TEST(GpuMatch, DidYouMean) {
  const auto close = catalog::closest_gpu_names("RTX 409");
  ASSERT_FALSE(close.empty());
  EXPECT_EQ(close.front(), "GeForce RTX 4090");
  const auto nvl = catalog::closest_gpu_names("NVIDIA H100 CNX");
  EXPECT_NE(std::find(nvl.begin(), nvl.end(), "H100 PCIe"), nvl.end());
  EXPECT_TRUE(catalog::closest_gpu_names("Definitely Not A GPU 9000").empty());
  EXPECT_TRUE(catalog::closest_gpu_names("").empty());
  EXPECT_NE(catalog::did_you_mean("RTX 4909").find("did you mean: GeForce RTX 4090"), std::string::npos);
  EXPECT_EQ(catalog::did_you_mean("Definitely Not A GPU 9000"), "");
}

// A --data override with one bad cell: the whole table is refused with file:line:column, never half-read. Each
// case runs in a child (a death test) because the tables are loaded once per process.
namespace {

std::string override_dir_with(const std::string& table, const std::string& header, const std::string& row) {
  char pattern[] = "/tmp/gpuscout-catalog-XXXXXX";
  const std::string dir = ::mkdtemp(pattern) ? pattern : "/tmp";
  std::FILE* f = std::fopen((dir + "/" + table).c_str(), "w");
  if (f) {
    std::fputs((header + "\n" + row + "\n").c_str(), f);
    std::fclose(f);
  }
  return dir;
}

/// Loads the tables from `dir` in this (child) process; exits 0 when `table_is_empty` and the first error is `want`.
[[noreturn]] void expect_refused(const std::string& dir, const std::string& want, bool (*table_is_empty)()) {
  core::set_data_dir(dir);
  const auto errors = catalog::load_errors();
  const bool ok = !errors.empty() && errors.front() == want && table_is_empty();
  if (!ok) std::fprintf(stderr, "got: %s\n", errors.empty() ? "(no error)" : errors.front().c_str());
  std::_Exit(ok ? 0 : 1);
}

}  // namespace

/// Each (row, "LINE:COLUMN: message") of torch_builds.csv under `header` makes the table refuse to load.
template <size_t N>
void expect_torch_rows_refused(const std::string& header, const std::pair<const char*, const char*> (&cases)[N]) {
  for (const auto& [row, where] : cases) {
    const auto dir = override_dir_with("torch_builds.csv", header, row);
    EXPECT_EXIT(expect_refused(dir, dir + "/torch_builds.csv:" + where, [] { return catalog::torch_builds().empty(); }),
                ::testing::ExitedWithCode(0), "")
        << row;
  }
}

TEST(TablesOverride, BadTorchCellsRefuseTheTable) {
  // The child starts afresh (re-executed), not as a fork of a process whose tables earlier tests loaded.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string header = "torch,released,cuda,platform,arch_list,ptx,channel,python_min,python_max,source,date";
  const std::pair<const char*, const char*> cases[] = {
      {"2.7,2025-04,cu126,linux-x86_64,8.0,,stable,3.9,3.13,s,2026-11-29", "2:13: cuda 'cu126' is not a version like 12.8"},
      {"2.7,2025-04,-1,linux-x86_64,8.0,,stable,3.9,3.13,s,2026-11-29", "2:13: cuda '-1' is not a version like 12.8"},
      {"2.7,2025-04,inf,linux-x86_64,8.0,,stable,3.9,3.13,s,2026-11-29", "2:13: cuda 'inf' is not a version like 12.8"},
      {"abc,2025-04,12.8,linux-x86_64,8.0,,stable,3.9,3.13,s,2026-11-29", "2:1: torch 'abc' is not a version like 2.7"},
      {"2.7,2025-04,12.8,linux-x86_64,8.0 x,,stable,3.9,3.13,s,2026-11-29",
       "2:31: arch_list '8.0 x' has 'x', which is not a compute capability like 8.6"},
      {"2.7,2025-04,12.8,linux-x86_64,,,stable,3.9,3.13,s,2026-11-29",
       "2:31: arch_list is empty, but a GPU build needs the architectures it ships"},
      {"2.7,2025-04,12.8,linux,8.0,,stable,3.9,3.13,s,2026-11-29",
       "2:18: platform 'linux' is not one of linux-x86_64, linux-aarch64, windows-x86_64"},
      {"2.7,April,12.8,linux-x86_64,8.0,,stable,3.9,3.13,s,2026-11-29",
       "2:5: released 'April' is not a date like 2025-04 or 2025-04-23"},
  };
  expect_torch_rows_refused(header, cases);
}

TEST(TablesOverride, BadRocmAndXpuRowsRefuseTheTable) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string header = "torch,released,cuda,platform,arch_list,ptx,channel,index,python_min,python_max,source,date";
  const std::pair<const char*, const char*> cases[] = {
      {"2.9,2025-10,,linux-x86_64,gfx1100,,stable,rocmX,3.10,3.14,s,2026-12-01", "2:43: index 'rocmX' is not rocmX.Y or xpu"},
      {"2.9,2025-10,12.8,linux-x86_64,8.0,,stable,xpu,3.10,3.14,s,2026-12-01",
       "2:43: index 'xpu' is set on a CUDA build, whose index follows its cuda column"},
      {"2.9,2025-10,,linux-x86_64,8.0,,stable,rocm6.4,3.10,3.14,s,2026-12-01",
       "2:27: arch_list '8.0' has '8.0', which is not a gfx target like gfx1100"},
      {"2.9,2025-10,,linux-x86_64,,,stable,rocm6.4,3.10,3.14,s,2026-12-01",
       "2:27: arch_list is empty, but a GPU build needs the architectures it ships"},
  };
  expect_torch_rows_refused(header, cases);
}

TEST(TorchBuilds, RocmAndXpuRowsCarryTheirIndex) {
  bool rocm = false, xpu = false;
  for (const auto& b : catalog::torch_builds()) {
    if (!b.index) continue;
    EXPECT_FALSE(b.cuda) << b.torch;
    EXPECT_FALSE(catalog::is_cpu_build(b));
    if (b.index->starts_with("rocm")) rocm = !b.arch_list.empty() && b.arch_list.front().starts_with("gfx");
    if (*b.index == "xpu") xpu = b.arch_list.empty();
  }
  EXPECT_TRUE(rocm);
  EXPECT_TRUE(xpu);
}

TEST(TorchBuilds, APatchLevelRowBelongsToItsMinorRelease) {
  // data/torch_builds.csv writes the cu129 build of 2.12 as "2.12.1", the only 2.12 patch release that has it: the
  // row is read as a build of release 2.12, and 2.12.1 is no release of its own.
  bool cu129 = false;
  for (const auto& b : catalog::torch_builds()) {
    EXPECT_EQ(std::count(b.torch.begin(), b.torch.end(), '.'), 1) << b.torch;
    cu129 = cu129 || (b.torch == "2.12" && b.cuda == "12.9" && b.platform == "linux-x86_64");
  }
  EXPECT_TRUE(cu129);
  const auto releases = catalog::torch_releases();
  EXPECT_EQ(std::count(releases.begin(), releases.end(), "2.12"), 1);
  EXPECT_EQ(std::count(releases.begin(), releases.end(), "2.12.1"), 0);
}

TEST(TablesOverride, BadGpuAndDriverCellsRefuseTheirTable) {
  // The child starts afresh (re-executed), not as a fork of a process whose tables earlier tests loaded.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto drivers = override_dir_with("cuda_driver.csv",
                                         "cuda,release,linux_min_driver,windows_min_driver,family_min_driver,source,date",
                                         "12.8,GA,570.x,,,s,2026-11-29");
  EXPECT_EXIT(expect_refused(drivers, drivers + "/cuda_driver.csv:2:9: linux_min_driver '570.x' is not a version like 570.26",
                             [] { return catalog::cuda_drivers().empty(); }),
              ::testing::ExitedWithCode(0), "");
  const auto caps = override_dir_with("compute_capability.csv", "cc,sm,architecture,vendor_family,notes,source,date",
                                      "8.6,sm_86,,GeForce,n,s,2026-11-29");
  EXPECT_EXIT(expect_refused(caps, caps + "/compute_capability.csv:2:11: architecture is empty; it must be filled in",
                             [] { return catalog::compute_capabilities().empty(); }),
              ::testing::ExitedWithCode(0), "");
  const auto short_header = override_dir_with("gpus.csv", "vendor,name", "nvidia,X");
  EXPECT_EXIT(expect_refused(short_header, short_header + "/gpus.csv:1:1: missing column(s) aliases, architecture, "
                             "compute_capability, memory_bytes, memory_bandwidth_gbs, fp32_tflops, "
                             "fp16_tensor_tflops_dense, bf16_tensor_tflops_dense, fp16_accumulate, "
                             "fp8_tensor_tflops_dense, tdp_w, launch_year, launch_price_usd, street_price_usd, "
                             "street_price_date, used_price_usd, form_factor, pci_ids, sms, boost_clock_mhz, "
                             "l2_bytes, pcie_gen, pcie_width, software_support, source, date in the header line",
                             [] { return catalog::gpus().empty(); }),
              ::testing::ExitedWithCode(0), "");
}
