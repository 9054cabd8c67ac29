#include "catalog/catalog.hpp"

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "core/data_files.hpp"
#include "core/text.hpp"

namespace gpuscout::catalog {
namespace {

std::vector<std::string>& errors() {
  static std::vector<std::string> e;
  return e;
}

std::optional<double> num(std::string_view s) {
  if (text::trim(s).empty()) return std::nullopt;
  return text::parse_double(s);
}
std::optional<int> inum(std::string_view s) {
  auto v = num(s);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}
std::optional<std::string> str(std::string_view s) {
  s = text::trim(s);
  if (s.empty()) return std::nullopt;
  return std::string(s);
}

std::optional<csv::Table> load(std::string_view name) {
  auto t = core::load_table(name);
  if (!t) {
    errors().push_back(t.error().message);
    return std::nullopt;
  }
  return std::move(*t);
}

}  // namespace

const std::vector<GpuSpec>& gpus() {
  static const std::vector<GpuSpec> rows = [] {
    std::vector<GpuSpec> out;
    auto t = load("gpus.csv");
    if (!t) return out;
    for (const auto& r : t->rows()) {
      GpuSpec g;
      auto c = [&](std::string_view col) { return t->cell(r, col); };
      g.vendor = std::string(c("vendor"));
      g.name = std::string(c("name"));
      for (auto a : text::split(c("aliases"), ';'))
        if (!text::trim(a).empty()) g.aliases.emplace_back(text::trim(a));
      g.architecture = std::string(c("architecture"));
      g.compute_capability = str(c("compute_capability"));
      if (auto m = text::parse_uint(c("memory_bytes"))) g.memory_bytes = *m;
      g.memory_bandwidth_gbs = num(c("memory_bandwidth_gbs"));
      g.fp32_tflops = num(c("fp32_tflops"));
      g.fp16_tensor_tflops = num(c("fp16_tensor_tflops_dense"));
      g.bf16_tensor_tflops = num(c("bf16_tensor_tflops_dense"));
      g.fp16_accumulate_tflops = num(c("fp16_accumulate"));
      g.fp8_tensor_tflops = num(c("fp8_tensor_tflops_dense"));
      g.tdp_w = inum(c("tdp_w"));
      g.launch_year = inum(c("launch_year"));
      g.launch_price_usd = num(c("launch_price_usd"));
      g.street_price_usd = num(c("street_price_usd"));
      g.street_price_date = std::string(c("street_price_date"));
      g.form_factor = std::string(c("form_factor"));
      for (auto id : text::split(c("pci_ids"), ';')) {
        const auto parts = text::split(text::trim(id), ':');
        if (parts.size() != 2) continue;
        const auto v = text::parse_uint(parts[0], 16), d = text::parse_uint(parts[1], 16);
        if (v && d && *v <= 0xffff && *d <= 0xffff) g.pci_ids.emplace_back(uint16_t(*v), uint16_t(*d));
      }
      g.sms = inum(c("sms"));
      g.boost_clock_mhz = inum(c("boost_clock_mhz"));
      g.pcie_gen = inum(c("pcie_gen"));
      g.pcie_width = inum(c("pcie_width"));
      if (auto l2 = text::parse_uint(c("l2_bytes"))) g.l2_bytes = *l2;
      g.software_support = std::string(c("software_support"));
      g.source = std::string(c("source"));
      g.date = std::string(c("date"));
      out.push_back(std::move(g));
    }
    return out;
  }();
  return rows;
}

const std::vector<CudaDriverRow>& cuda_drivers() {
  static const std::vector<CudaDriverRow> rows = [] {
    std::vector<CudaDriverRow> out;
    auto t = load("cuda_driver.csv");
    if (!t) return out;
    for (const auto& r : t->rows()) {
      CudaDriverRow row;
      row.cuda = std::string(t->cell(r, "cuda"));
      row.release = std::string(t->cell(r, "release"));
      row.linux_min_driver = Version::parse(t->cell(r, "linux_min_driver"));
      row.windows_min_driver = Version::parse(t->cell(r, "windows_min_driver"));
      row.family_min_driver = Version::parse(t->cell(r, "family_min_driver"));
      out.push_back(std::move(row));
    }
    return out;
  }();
  return rows;
}

const std::vector<TorchBuild>& torch_builds() {
  static const std::vector<TorchBuild> rows = [] {
    std::vector<TorchBuild> out;
    auto t = load("torch_builds.csv");
    if (!t) return out;
    for (const auto& r : t->rows()) {
      TorchBuild b;
      b.torch = std::string(t->cell(r, "torch"));
      b.released = std::string(t->cell(r, "released"));
      b.cuda = str(t->cell(r, "cuda"));
      b.platform = std::string(t->cell(r, "platform"));
      for (auto a : text::split_ws(t->cell(r, "arch_list"))) b.arch_list.emplace_back(a);
      b.ptx = str(t->cell(r, "ptx"));
      b.channel = std::string(t->cell(r, "channel"));
      out.push_back(std::move(b));
    }
    return out;
  }();
  return rows;
}

const std::vector<ComputeCapability>& compute_capabilities() {
  static const std::vector<ComputeCapability> rows = [] {
    std::vector<ComputeCapability> out;
    auto t = load("compute_capability.csv");
    if (!t) return out;
    for (const auto& r : t->rows())
      out.push_back(ComputeCapability{std::string(t->cell(r, "cc")), std::string(t->cell(r, "sm")),
                                      std::string(t->cell(r, "architecture")), std::string(t->cell(r, "vendor_family"))});
    return out;
  }();
  return rows;
}

std::vector<std::string> load_errors() {
  gpus();
  cuda_drivers();
  torch_builds();
  compute_capabilities();
  return errors();
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

std::optional<Version> min_driver_for_cuda(std::string_view cuda) {
  for (const auto& row : cuda_drivers())
    if (row.cuda == cuda && row.release == "GA" && row.linux_min_driver) return row.linux_min_driver;
  for (const auto& row : cuda_drivers())  // no GA row: the lowest minimum listed for that version
    if (row.cuda == cuda && row.linux_min_driver) return row.linux_min_driver;
  return std::nullopt;
}

std::optional<std::string> newest_cuda_for_driver(const Version& driver) {
  std::optional<Version> best;
  for (const auto& row : cuda_drivers()) {
    if (!row.linux_min_driver || driver < *row.linux_min_driver) continue;
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
