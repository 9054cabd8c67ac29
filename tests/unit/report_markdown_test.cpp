#include <gtest/gtest.h>

#include "diagnose/diagnose.hpp"
#include "report/markdown.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using report::escape_markdown;
using report::MarkdownOptions;
using report::render_markdown;

namespace {

using gpuscout::test_support::contains;

Gpu nvidia_gpu(int index, std::string name, std::string bus) {
  Gpu g;
  g.index = index;
  g.vendor = "nvidia";
  g.name = std::move(name);
  g.pci_bus_id = std::move(bus);
  g.kernel_driver = "nvidia";
  g.compute_capability = "8.9";
  g.architecture = "Ada Lovelace";
  g.memory_total_bytes = 24ULL << 30;
  g.memory_free_bytes = 23ULL << 30;
  g.cuda_index = index;
  g.uuid = "GPU-5ad7fa3c-0f7d-6c1e-1b3e-1f2d3c4b5a6" + std::to_string(index);
  return g;
}

/// A desktop with two RTX 4090s, the driver, a toolkit and a CUDA build of PyTorch in a venv under the home folder.
Inventory gpu_machine() {
  Inventory inv;
  inv.gpuscout_version = "0.1.0";
  inv.collected_at = "2026-11-29T10:00:00Z";
  inv.hostname = "alice-desktop";
  inv.cpu.arch = "x86_64";
  inv.cpu.model = "AMD Ryzen 9 7950X 16-Core Processor";
  inv.cpu.physical_cores = 16;
  inv.cpu.logical_cpus = 32;
  inv.memory.total_bytes = 64ULL << 30;
  inv.os.pretty_name = "Ubuntu 24.04.1 LTS";
  inv.os.kernel = "6.8.0-45-generic";
  inv.platform.kind = "desktop";
  inv.gpus.push_back(nvidia_gpu(0, "NVIDIA GeForce RTX 4090", "0000:01:00.0"));
  inv.gpus.push_back(nvidia_gpu(1, "七彩虹 iGame GeForce RTX 4090 D", "0000:02:00.0"));
  inv.nvidia.library_found = true;
  inv.nvidia.driver_version = "580.95.05";
  inv.nvidia.cuda_driver_version = "13.0";
  inv.nvidia.kernel_module_loaded = true;
  inv.nvidia.uvm_loaded = true;
  inv.cuda.library_found = true;
  inv.cuda.available = true;
  inv.cuda.device_count = 2;
  inv.toolkit.nvcc_version = "12.4.131";
  inv.toolkit.nvcc_path = "/usr/local/cuda-12.4/bin/nvcc";
  inv.toolkit.cudnn_version = "9.13.0";
  inv.python.probed = true;
  inv.python.version = "3.12.3";
  inv.python.executable = "/home/alice/venvs/dl/bin/python";
  inv.python.torch_installed = true;
  TorchInfo t;
  t.version = "2.5.1+cu121";
  t.cuda = "12.1";
  t.cuda_available = true;
  t.device_count = 2;
  t.arch_list = {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "compute_90"};
  t.cudnn_version = "9.1.0";
  inv.torch = t;
  return inv;
}

Inventory cpu_only_machine() {
  Inventory inv;
  inv.gpuscout_version = "0.1.0";
  inv.cpu.arch = "x86_64";
  inv.cpu.model = "AMD EPYC";
  inv.os.pretty_name = "Debian GNU/Linux 12 (bookworm)";
  inv.platform.kind = "cloud-vm";
  inv.nvidia.error = ProbeError{"nvml", "dlopen", "libnvidia-ml.so.1: cannot open shared object file", std::nullopt};
  inv.python.probed = true;
  inv.python.version = "3.11.2";
  TorchInfo t;
  t.version = "2.5.1+cpu";
  inv.torch = t;
  return inv;
}

std::string render(const Inventory& inv, bool include_private = false) {
  return render_markdown(inv, diagnose::diagnose(inv), MarkdownOptions{include_private},
                         report::privacy_context(inv, false));
}

/// Pipes that end or separate table cells: not preceded by an odd number of backslashes.
size_t cell_pipes(std::string_view line) {
  size_t pipes = 0;
  size_t backslashes = 0;
  for (const char c : line) {
    if (c == '|' && backslashes % 2 == 0) ++pipes;
    backslashes = c == '\\' ? backslashes + 1 : 0;
  }
  return pipes;
}

/// Each table (a run of lines starting with '|') has as many cells in every row as in its header.
void expect_tables_intact(const std::string& md) {
  size_t header_pipes = 0;
  size_t start = 0;
  int tables = 0;
  while (start < md.size()) {
    size_t end = md.find('\n', start);
    if (end == std::string::npos) end = md.size();
    const std::string_view line(md.data() + start, end - start);
    if (!line.starts_with('|')) header_pipes = 0;
    else if (header_pipes == 0) header_pipes = cell_pipes(line), ++tables;
    else EXPECT_EQ(cell_pipes(line), header_pipes) << line;
    start = end + 1;
  }
  EXPECT_GE(tables, 1);
}

/// Every '<' is escaped, so no HTML can open.
void expect_no_raw_html(const std::string& md) {
  for (size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1))
    EXPECT_TRUE(at > 0 && md[at - 1] == '\\') << md.substr(at, 40);
}

}  // namespace

TEST(EscapeMarkdown, SpecialCharacters) {
  EXPECT_EQ(escape_markdown("<script>alert(1)</script>"), "\\<script\\>alert(1)\\</script\\>");
  EXPECT_EQ(escape_markdown("A|B **C**"), "A\\|B \\*\\*C\\*\\*");
  EXPECT_EQ(escape_markdown("a\\|b"), "a\\\\\\|b");
  EXPECT_EQ(escape_markdown("[x](javascript:y) `c` _e_ #1 ~s~ &amp; $m$"),
            "\\[x\\](javascript:y) \\`c\\` \\_e\\_ \\#1 \\~s\\~ \\&amp; \\$m\\$");
  EXPECT_EQ(escape_markdown("line\nbreak\tand\r\x01"), "line break and  ");
  EXPECT_EQ(escape_markdown("七彩虹 iGame GeForce RTX 4090 D"), "七彩虹 iGame GeForce RTX 4090 D");
  EXPECT_EQ(escape_markdown("Intel(R) Core(TM) 580.95.05"), "Intel(R) Core(TM) 580.95.05");
}

TEST(Markdown, EveryVersionLine) {
  const std::string md = render(gpu_machine());
  for (const char* line :
       {"| gpuscout | 0.1.0 |", "| OS | Ubuntu 24.04.1 LTS |", "| kernel | 6.8.0-45-generic |",
        "| container / VM / WSL | none detected (bare metal) |", "| platform | desktop |",
        "| CPU | AMD Ryzen 9 7950X 16-Core Processor, 16 cores / 32 threads (x86\\_64) |", "| RAM | 64.0 GiB |",
        "| NVIDIA driver | 580.95.05 |", "| CUDA the driver supports | 13.0 |",
        "| CUDA driver API | works, 2 device(s) |",
        "| CUDA toolkit (nvcc) | 12.4.131 (/usr/local/cuda-12.4/bin/nvcc) |", "| cuDNN (system) | 9.13.0 |",
        "| Python | 3.12.3 (/home/\\<user\\>/venvs/dl/bin/python) |", "| PyTorch | 2.5.1+cu121 |",
        "| PyTorch built with | CUDA 12.1 |", "| cuDNN PyTorch uses | 9.1.0 |",
        "| torch.cuda.is\\_available() | True (2 device(s)) |",
        "| PyTorch arch list | sm\\_50 sm\\_60 sm\\_70 sm\\_75 sm\\_80 sm\\_86 sm\\_90 compute\\_90 |"})
    EXPECT_TRUE(contains(md, line)) << line << "\n" << md;
  EXPECT_TRUE(md.starts_with("### gpuscout 0.1.0 report, collected 2026-11-29T10:00:00Z\n"));
  EXPECT_TRUE(contains(md, "| 0 | NVIDIA GeForce RTX 4090 | nvidia | 8.9 (Ada Lovelace) | 24.0 GiB | cuda:0 | nvidia | "
                           "0000:01:00.0 |"));
  EXPECT_TRUE(contains(md, "**Verdict: ready**"));
  EXPECT_TRUE(contains(md, "the installed one fits, nothing to install"));  // never a reinstall of what works
  expect_tables_intact(md);
  expect_no_raw_html(md);
}

TEST(Markdown, HostileGpuNamesAreEscaped) {
  Inventory inv = gpu_machine();
  inv.gpus[0].name = "<script>alert(1)</script>";
  inv.gpus[1].name = "A|B **C**";
  inv.cpu.model = "<img src=x onerror=alert(1)>";
  const std::string md = render(inv);
  EXPECT_TRUE(contains(md, "\\<script\\>alert(1)\\</script\\>"));
  EXPECT_TRUE(contains(md, "A\\|B \\*\\*C\\*\\*"));
  expect_tables_intact(md);
  expect_no_raw_html(md);
}

TEST(Markdown, HostileVerdictTextsAreEscaped) {
  diagnose::Verdict v;
  v.status = "needs-action";
  v.device = "cpu";
  v.findings.push_back({"x", "error", "bad | <b>bold</b>\nsecond line", "run `rm -rf` ```"});
  v.plan.outcome = "gpu";
  diagnose::Step step;
  step.kind = "torch";
  step.action = "Install it.";
  step.command = "pip install torch ``` <x>";
  v.plan.steps.push_back(step);
  const std::string md = render_markdown(gpu_machine(), v, {}, {});
  EXPECT_TRUE(contains(md, "- **error** x: bad \\| \\<b\\>bold\\</b\\> second line\n"));
  EXPECT_TRUE(contains(md, "  - fix: run \\`rm -rf\\` \\`\\`\\`\n"));
  EXPECT_TRUE(contains(md, "````sh\npip install torch ``` <x>\n````\n"));  // a longer fence: the text cannot close it
}

TEST(Markdown, ChineseNamesIntact) {
  const std::string md = render(gpu_machine());
  EXPECT_TRUE(contains(md, "| 1 | 七彩虹 iGame GeForce RTX 4090 D | nvidia |"));
}

TEST(Markdown, NothingPrivateByDefault) {
  const Inventory inv = gpu_machine();
  const std::string md = render(inv);
  EXPECT_FALSE(contains(md, "alice"));
  EXPECT_FALSE(contains(md, "GPU-5ad7fa3c"));
  EXPECT_FALSE(contains(md, "UUID"));
  EXPECT_FALSE(contains(md, "hostname"));
}

TEST(Markdown, IncludePrivateShowsHostnameUuidsAndPaths) {
  const std::string md = render(gpu_machine(), true);
  EXPECT_TRUE(contains(md, "| hostname | alice-desktop |"));
  EXPECT_TRUE(contains(md, "| UUID |"));
  EXPECT_TRUE(contains(md, "GPU-5ad7fa3c-0f7d-6c1e-1b3e-1f2d3c4b5a60"));
  EXPECT_TRUE(contains(md, "/home/alice/venvs/dl/bin/python"));
  expect_tables_intact(md);
}

TEST(Markdown, VerdictTextsAreRedacted) {
  diagnose::Verdict v;
  v.status = "needs-action";
  v.device = "cpu";
  v.findings.push_back({"python-missing", "error", "alice-desktop: /home/alice/bin/python3 failed", "reinstall"});
  report::PrivacyContext ctx;
  ctx.host_names = {"alice-desktop"};
  const std::string md = render_markdown(gpu_machine(), v, {}, ctx);
  EXPECT_TRUE(contains(md, "\\<host\\>: /home/\\<user\\>/bin/python3 failed"));
  EXPECT_FALSE(contains(md, "alice"));
}

TEST(Markdown, CpuOnlyMachineSaysSo) {
  const std::string md = render(cpu_only_machine());
  EXPECT_TRUE(contains(md, "**No GPU found**: PyTorch can only use the CPU on this machine."));
  EXPECT_TRUE(contains(md, "| PyTorch built with | CPU build (no CUDA) |"));
  EXPECT_TRUE(contains(md, "| torch.cuda.is\\_available() | False |"));
  EXPECT_TRUE(
      contains(md, "| NVIDIA driver | not found (dlopen: libnvidia-ml.so.1: cannot open shared object file) |"));
  EXPECT_TRUE(contains(md, "| CUDA the driver supports | n/a (no NVIDIA driver) |"));
  EXPECT_TRUE(contains(md, "| CUDA toolkit (nvcc) | not found (PyTorch wheels do not need it) |"));
  EXPECT_TRUE(contains(md, "**Verdict: cpu-only**"));
  expect_tables_intact(md);
}

TEST(Markdown, PythonNotProbedIsSaid) {
  Inventory inv = cpu_only_machine();
  inv.python = PythonInfo{};
  inv.torch.reset();
  const std::string md = render(inv);
  EXPECT_TRUE(contains(md, "| Python | not probed (--no-python) |"));
  EXPECT_TRUE(contains(md, "| PyTorch | not probed (--no-python) |"));
  EXPECT_TRUE(contains(md, "| PyTorch arch list | n/a |"));
  expect_tables_intact(md);
}

TEST(Markdown, TorchAbsentForAReason) {
  Inventory inv = cpu_only_machine();
  inv.torch.reset();
  EXPECT_TRUE(contains(render(inv), "| PyTorch | not installed |"));
  inv.python.error = ProbeError{"python", "import torch", "libcudnn.so.9: missing", std::nullopt};
  EXPECT_TRUE(contains(render(inv), "| PyTorch | not importable (import torch: libcudnn.so.9: missing) |"));
  inv.python.version.reset();
  EXPECT_TRUE(contains(render(inv), "| Python | not found (import torch: libcudnn.so.9"));
}

TEST(Markdown, RocmAndContainers) {
  Inventory inv = cpu_only_machine();
  inv.torch->version = "2.5.1+rocm6.2";
  inv.torch->hip = "6.2.41133";
  inv.os.container = "docker";
  inv.os.virtualization = "kvm";
  inv.memory.total_bytes = 128ULL << 30;
  inv.memory.cgroup_limit_bytes = 8ULL << 30;
  const std::string md = render(inv);
  EXPECT_TRUE(contains(md, "| PyTorch built with | ROCm (HIP 6.2.41133) |"));
  EXPECT_TRUE(contains(md, "| container / VM / WSL | container: docker, VM: kvm |"));
  EXPECT_TRUE(contains(md, "| RAM | 128.0 GiB (container limit 8.0 GiB) |"));
}
