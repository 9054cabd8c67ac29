#include "catalog/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <mutex>

#include <fmt/format.h>

#include "catalog/glossary.hpp"
#include "catalog/precision.hpp"
#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/text.hpp"

namespace gpuscout::catalog {
namespace {

std::vector<std::string>& errors() {
  static std::vector<std::string> e;
  return e;
}

template <typename T>
std::optional<T> narrow(std::optional<uint64_t> v) {
  if (!v) return std::nullopt;
  return static_cast<T>(*v);  // the reader's bounds keep it within T
}

/// A compute capability as the tables write it: "8.6" (optional cell).
std::optional<std::string> capability(csv::CellReader& cells, std::string_view column,
                                      csv::Need need = csv::Need::optional) {
  auto v = cells.version(column, 2, 2, "8.6", need);
  if (!v) return std::nullopt;
  return v->str();
}

/// Loads one table and reads every row with `read_row`; a missing column or the first bad cell makes the
/// whole table fail (recorded for load_errors(), empty view), so callers may trust every typed field.
template <typename T, typename ReadRow>
std::vector<T> load_rows(std::string_view name, const std::vector<std::string>& columns, ReadRow read_row) {
  auto table = core::load_table(name);
  if (!table) {
    errors().push_back(table.error().message);
    return {};
  }
  if (auto ok = table->require_columns(columns); !ok) {
    errors().push_back(ok.error().message);
    return {};
  }
  if (table->rows().empty()) {
    errors().push_back(fmt::format("{}: the table has a header line but no rows", table->source()));
    return {};
  }
  std::vector<T> out;
  for (const auto& r : table->rows()) {
    csv::CellReader cells(*table, r);
    T row = read_row(cells);
    if (auto ok = cells.result(); !ok) {
      errors().push_back(ok.error().message);
      return {};
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::pair<uint16_t, uint16_t>> read_pci_ids(csv::CellReader& cells) {
  std::vector<std::pair<uint16_t, uint16_t>> out;
  const std::string ids = cells.text("pci_ids");  // split() returns views into it
  for (auto id : text::split(ids, ';')) {
    const auto parts = text::split(text::trim(id), ':');
    const auto v = parts.size() == 2 ? text::parse_uint(parts[0], 16) : std::nullopt;
    const auto d = parts.size() == 2 ? text::parse_uint(parts[1], 16) : std::nullopt;
    if (!v || !d || *v > 0xffff || *d > 0xffff) {
      cells.fail("pci_ids", "is not a list of vendor:device ids like 10de:2684;10de:2685");
      return {};
    }
    out.emplace_back(uint16_t(*v), uint16_t(*d));
  }
  return out;
}

// Bounds wide enough for any real card and narrow enough that sums and products downstream cannot overflow.
constexpr double kMaxTflops = 1e5, kMaxGbs = 1e5, kMaxUsd = 1e7;
constexpr uint64_t kMaxMemoryBytes = 1ull << 50;

void read_gpu_numbers(csv::CellReader& c, GpuSpec& g) {
  g.memory_bytes = c.whole("memory_bytes", 1, kMaxMemoryBytes);
  g.memory_bandwidth_gbs = c.number("memory_bandwidth_gbs", 0.001, kMaxGbs);
  g.fp32_tflops = c.number("fp32_tflops", 0.001, kMaxTflops);
  g.fp16_tensor_tflops = c.number("fp16_tensor_tflops_dense", 0.001, kMaxTflops);
  g.bf16_tensor_tflops = c.number("bf16_tensor_tflops_dense", 0.001, kMaxTflops);
  g.fp16_accumulate_tflops = c.number("fp16_accumulate", 0.001, kMaxTflops);
  g.fp8_tensor_tflops = c.number("fp8_tensor_tflops_dense", 0.001, kMaxTflops);
  g.tdp_w = narrow<int>(c.whole("tdp_w", 1, 10000));
  g.launch_year = narrow<int>(c.whole("launch_year", 1990, 2100));
  g.launch_price_usd = c.number("launch_price_usd", 1, kMaxUsd);
  g.street_price_usd = c.number("street_price_usd", 1, kMaxUsd);
  g.used_price_usd = c.number("used_price_usd", 1, kMaxUsd);
  g.sms = narrow<int>(c.whole("sms", 1, 100000));
  g.boost_clock_mhz = narrow<int>(c.whole("boost_clock_mhz", 1, 100000));
  g.l2_bytes = c.whole("l2_bytes", 1, 1ull << 40);
  g.pcie_gen = narrow<int>(c.whole("pcie_gen", 1, 10));
  g.pcie_width = narrow<int>(c.whole("pcie_width", 1, 64));
}

GpuSpec read_gpu(csv::CellReader& c) {
  GpuSpec g;
  g.vendor = c.one_of("vendor", {"nvidia", "amd", "intel"});
  g.name = c.text("name", csv::Need::required);
  const std::string aliases = c.text("aliases");  // split() returns views into it
  for (auto a : text::split(aliases, ';'))
    if (!text::trim(a).empty()) g.aliases.emplace_back(text::trim(a));
  g.architecture = c.text("architecture");
  g.compute_capability = capability(c, "compute_capability");
  read_gpu_numbers(c, g);
  g.street_price_date = c.date("street_price_date");
  g.form_factor = c.one_of("form_factor", {"desktop", "laptop", "datacenter", "datacenter-passive", "workstation"});
  g.pci_ids = read_pci_ids(c);
  g.software_support = c.text("software_support");
  g.source = c.text("source");
  g.date = c.date("date");
  return g;
}

CudaDriverRow read_cuda_driver(csv::CellReader& c) {
  CudaDriverRow row;
  if (auto v = c.version("cuda", 2, 2, "12.8", csv::Need::required)) row.cuda = v->str();
  row.release = c.text("release", csv::Need::required);
  row.linux_min_driver = c.version("linux_min_driver", 1, 3, "570.26", csv::Need::required);
  row.windows_min_driver = c.version("windows_min_driver", 1, 3, "570.65");
  row.family_min_driver = c.version("family_min_driver", 1, 3, "525.60.13");
  row.windows_family_min_driver = c.version("windows_family_min_driver", 1, 3, "528.33");
  return row;
}

/// An arch_list entry: "8.6" as the table writes it, or "sm_86"/"compute_90" as torch prints it.
bool valid_arch(std::string_view arch) {
  if (arch.find('.') == std::string_view::npos) return arch_to_cc(arch).has_value();
  const auto v = Version::parse(arch);
  return v && v->suffix().empty() && v->parts().size() == 2;
}

/// An AMD ISA name as ROCm and PYTORCH_ROCM_ARCH write it: gfx900, gfx90a, gfx1100.
bool valid_gfx_target(std::string_view target) {
  if (!target.starts_with("gfx") || target.size() < 6 || target.size() > 7) return false;
  return std::all_of(target.begin() + 3, target.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) ||
                                                                          (ch >= 'a' && ch <= 'f'); });
}

TorchBuild read_torch_build(csv::CellReader& c) {
  TorchBuild b;
  // "2.12.1" marks a build that only that patch release has (cu129 of 2.12): it belongs to release 2.12, which is
  // what every lookup keys on, and `torch==2.12.*` from its index installs the patch release that has it.
  if (auto v = c.version("torch", 2, 3, "2.7", csv::Need::required)) b.torch = v->major_minor();
  b.released = c.date("released", true, csv::Need::required);
  if (auto v = c.version("cuda", 2, 2, "12.8")) b.cuda = v->str();
  b.platform = c.one_of("platform", {"linux-x86_64", "linux-aarch64", "windows-x86_64"});
  b.channel = c.one_of("channel", {"stable", "experimental"});
  if (std::string index = c.text("index"); !index.empty()) {
    const bool rocm = index.starts_with("rocm") && Version::parse(std::string_view(index).substr(4));
    if (!rocm && index != "xpu") c.fail("index", "is not rocmX.Y or xpu");
    else if (b.cuda) c.fail("index", "is set on a CUDA build, whose index follows its cuda column");
    else b.index = std::move(index);
  }
  const std::string arch_list = c.text("arch_list");  // split_ws() returns views into it
  const bool gfx_targets = b.index && b.index->starts_with("rocm");
  for (auto a : text::split_ws(arch_list)) {
    if (gfx_targets && !valid_gfx_target(a))
      c.fail("arch_list", fmt::format("has '{}', which is not a gfx target like gfx1100", a));
    else if (!gfx_targets && !valid_arch(a))
      c.fail("arch_list", fmt::format("has '{}', which is not a compute capability like 8.6", a));
    b.arch_list.emplace_back(a);
  }
  if ((b.cuda || gfx_targets) && b.arch_list.empty())
    c.fail("arch_list", "is empty, but a GPU build needs the architectures it ships");
  b.ptx = capability(c, "ptx");
  b.python_min = c.version("python_min", 2, 2, "3.10");
  b.python_max = c.version("python_max", 2, 2, "3.14");
  return b;
}

TorchCompanions read_torch_companions(csv::CellReader& c) {
  TorchCompanions row;
  if (auto v = c.version("torch", 2, 2, "2.5", csv::Need::required)) row.torch = v->str();
  if (auto v = c.version("torchvision", 2, 2, "0.20", csv::Need::required)) row.torchvision = v->str();
  if (auto v = c.version("torchaudio", 2, 2, "2.5")) row.torchaudio = v->str();
  return row;
}

DriverBranch read_driver_branch(csv::CellReader& c) {
  DriverBranch row;
  row.arch = c.text("arch", csv::Need::required);
  row.cc_min = c.version("cc_min", 2, 2, "3.0", csv::Need::required).value_or(Version{});
  row.cc_max = c.version("cc_max", 2, 2, "3.7", csv::Need::required).value_or(Version{});
  if (auto v = c.version("last_driver_branch", 1, 1, "470", csv::Need::required))
    row.last_branch = static_cast<int>(v->major());
  row.last_driver = c.version("last_driver_version", 1, 3, "470.256.02", csv::Need::required).value_or(Version{});
  if (auto v = c.version("max_cuda", 2, 2, "11.4")) row.max_cuda = v->str();
  return row;
}

DriverRoute read_driver_route(csv::CellReader& c) {
  DriverRoute row;
  row.os_id = c.text("os_id", csv::Need::required);
  row.version_id = c.text("version_id");
  row.driver = c.version("driver", 1, 3, "535.247.01");
  row.command = c.text("command", csv::Need::required);
  row.prerequisite = c.text("prerequisite");
  return row;
}

ComputeCapability read_compute_capability(csv::CellReader& c) {
  ComputeCapability row;
  row.cc = capability(c, "cc", csv::Need::required).value_or("");
  row.sm = c.text("sm", csv::Need::required);
  row.architecture = c.text("architecture", csv::Need::required);
  row.family = c.text("vendor_family");
  return row;
}

}  // namespace

const std::vector<GpuSpec>& gpus() {
  static const std::vector<GpuSpec> rows = load_rows<GpuSpec>(
      "gpus.csv",
      {"vendor", "name", "aliases", "architecture", "compute_capability", "memory_bytes", "memory_bandwidth_gbs",
       "fp32_tflops", "fp16_tensor_tflops_dense", "bf16_tensor_tflops_dense", "fp16_accumulate",
       "fp8_tensor_tflops_dense", "tdp_w", "launch_year", "launch_price_usd", "street_price_usd", "street_price_date",
       "used_price_usd", "form_factor", "pci_ids", "sms", "boost_clock_mhz", "l2_bytes", "pcie_gen", "pcie_width",
       "software_support", "source", "date"},
      read_gpu);
  return rows;
}

const std::vector<CudaDriverRow>& cuda_drivers() {
  static const std::vector<CudaDriverRow> rows =
      load_rows<CudaDriverRow>("cuda_driver.csv",
                               {"cuda", "release", "linux_min_driver", "windows_min_driver", "family_min_driver"},
                               read_cuda_driver);
  return rows;
}

const std::vector<TorchBuild>& torch_builds() {
  static const std::vector<TorchBuild> rows = load_rows<TorchBuild>(
      "torch_builds.csv", {"torch", "released", "cuda", "platform", "arch_list", "ptx", "channel"}, read_torch_build);
  return rows;
}

const std::vector<ComputeCapability>& compute_capabilities() {
  static const std::vector<ComputeCapability> rows = load_rows<ComputeCapability>(
      "compute_capability.csv", {"cc", "sm", "architecture", "vendor_family"}, read_compute_capability);
  return rows;
}

const std::vector<TorchCompanions>& torch_companions() {
  static const std::vector<TorchCompanions> rows = load_rows<TorchCompanions>(
      "torch_companions.csv", {"torch", "torchvision", "torchaudio"}, read_torch_companions);
  return rows;
}

const std::vector<DriverBranch>& driver_branches() {
  static const std::vector<DriverBranch> rows = load_rows<DriverBranch>(
      "driver_branches.csv", {"arch", "cc_min", "cc_max", "last_driver_branch", "last_driver_version", "max_cuda"},
      read_driver_branch);
  return rows;
}

const std::vector<DriverRoute>& driver_routes() {
  static const std::vector<DriverRoute> rows = load_rows<DriverRoute>(
      "driver_routes.csv", {"os_id", "version_id", "driver", "command", "prerequisite"}, read_driver_route);
  return rows;
}

const std::vector<std::string>& amd_apu_targets() {
  static const std::vector<std::string> rows = load_rows<std::string>(
      "amd_apus.csv", {"gfx_target", "products"}, [](csv::CellReader& c) {
        std::string gfx = c.text("gfx_target", csv::Need::required);
        if (!gfx.empty() && !gfx.starts_with("gfx")) c.fail("gfx_target", "is not a gfx target like gfx1036");
        return gfx;
      });
  return rows;
}

bool is_amd_apu(std::string_view gfx_target) {
  const auto& targets = amd_apu_targets();
  return std::find(targets.begin(), targets.end(), gfx_target) != targets.end();
}

const TorchCompanions* find_torch_companions(std::string_view torch) {
  for (const auto& row : torch_companions())
    if (row.torch == torch) return &row;
  return nullptr;
}

const DriverBranch* last_driver_branch(std::string_view cc) {
  const auto v = Version::parse(cc);
  if (!v) return nullptr;
  for (const auto& row : driver_branches())
    if (row.cc_min <= *v && *v <= row.cc_max) return &row;
  return nullptr;
}

const DriverRoute* find_driver_route(std::string_view os_id, std::string_view version_id) {
  const DriverRoute* any_version = nullptr;
  for (const auto& row : driver_routes()) {
    if (row.os_id != os_id) continue;
    if (row.version_id.empty()) any_version = any_version ? any_version : &row;
    else if (version_id == row.version_id ||
             (version_id.starts_with(row.version_id) && version_id.substr(row.version_id.size()).starts_with('.')))
      return &row;
  }
  return any_version;
}

std::vector<std::string> load_errors() {
  gpus();
  cuda_drivers();
  torch_builds();
  compute_capabilities();
  torch_companions();
  driver_branches();
  driver_routes();
  amd_apu_targets();
  auto all = errors();
  if (auto e = precision_load_error(); !e.empty()) all.push_back(e);
  if (auto e = glossary_load_error(); !e.empty()) all.push_back(e);
  return all;
}

std::string gpus_date() {
  std::string newest;
  for (const auto& g : gpus()) newest = std::max(newest, g.date);
  return newest;
}

const ComputeCapability* find_compute_capability(std::string_view cc) {
  for (const auto& c : compute_capabilities())
    if (c.cc == cc) return &c;
  return nullptr;
}

namespace {
const std::optional<Version>& min_driver(const CudaDriverRow& row, DriverOs os) {
  return os == DriverOs::windows ? row.windows_min_driver : row.linux_min_driver;
}
}  // namespace

std::optional<Version> min_driver_for_cuda(std::string_view cuda, DriverOs os) {
  for (const auto& row : cuda_drivers())
    if (row.cuda == cuda && row.release == "GA" && min_driver(row, os)) return min_driver(row, os);
  for (const auto& row : cuda_drivers())  // no GA row: the lowest minimum listed for that version
    if (row.cuda == cuda && min_driver(row, os)) return min_driver(row, os);
  // NVIDIA prints no Windows minimum for 13.x (the toolkit no longer bundles a driver): the family floor is the need.
  if (os == DriverOs::windows)
    for (const auto& row : cuda_drivers())
      if (row.cuda == cuda && row.windows_family_min_driver) return row.windows_family_min_driver;
  return std::nullopt;
}

std::optional<std::string> newest_cuda_for_driver(const Version& driver, DriverOs os) {
  std::optional<Version> best;
  for (const auto& row : cuda_drivers()) {
    const auto need = min_driver_for_cuda(row.cuda, os);
    if (!need || driver < *need) continue;
    auto v = Version::parse(row.cuda);
    if (v && (!best || *best < *v)) best = v;
  }
  if (!best) return std::nullopt;
  return best->major_minor();
}

std::optional<std::string> arch_to_cc(std::string_view arch) {
  std::string_view digits = arch;
  if (digits.starts_with("sm_")) digits.remove_prefix(3);
  else if (digits.starts_with("compute_")) digits.remove_prefix(8);
  if (digits.find('.') != std::string_view::npos) {
    auto v = Version::parse(digits);
    if (!v) return std::nullopt;
    return v->major_minor();
  }
  while (!digits.empty() && std::isalpha(static_cast<unsigned char>(digits.back()))) digits.remove_suffix(1);  // sm_90a
  const auto n = text::parse_int(digits);
  if (!n || *n < 10) return std::nullopt;
  return fmt::format("{}.{}", *n / 10, *n % 10);
}

std::vector<std::string> torch_releases(const std::vector<TorchBuild>& builds) {
  std::vector<std::pair<Version, std::string>> ranked;
  for (const auto& b : builds) {
    const bool seen = std::any_of(ranked.begin(), ranked.end(), [&](const auto& r) { return r.second == b.torch; });
    if (seen) continue;
    if (auto v = Version::parse(b.torch)) ranked.emplace_back(std::move(*v), b.torch);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return b.first < a.first; });
  std::vector<std::string> out;
  for (auto& [version, text] : ranked) out.push_back(std::move(text));
  return out;
}

std::vector<std::string> torch_releases() { return torch_releases(torch_builds()); }

ReleaseForGpu newest_release_for(std::string_view cc, const std::string& platform, const std::vector<std::string>& releases) {
  ReleaseForGpu out;
  for (const auto& release : releases) {
    for (const auto& b : torch_builds()) {
      if (b.torch != release || !b.cuda || b.platform != platform) continue;
      if (!arch_list_runs(b.arch_list, b.ptx, cc)) continue;
      out.current = release == releases.front();
      out.release = release;
      out.cuda = b.cuda;
      return out;
    }
  }
  return out;
}

bool arch_list_runs(const std::vector<std::string>& arch_list, const std::optional<std::string>& ptx, std::string_view cc) {
  const auto target = Version::parse(cc);
  if (!target) return false;
  for (const auto& a : arch_list) {
    const bool is_ptx = a.starts_with("compute_");
    const auto c = arch_to_cc(a);
    if (!c) continue;
    const auto v = Version::parse(*c);
    if (!v) continue;
    if (is_ptx) {
      if (*v <= *target) return true;
    } else if (v->major() == target->major() && v->minor() <= target->minor()) {
      // Arch-specific cubins (sm_90a) run only on that exact capability.
      if (a.ends_with("a") && v->minor() != target->minor()) continue;
      return true;
    }
  }
  if (ptx) {
    const auto v = Version::parse(*ptx);
    if (v && *v <= *target) return true;
  }
  return false;
}

}  // namespace gpuscout::catalog
