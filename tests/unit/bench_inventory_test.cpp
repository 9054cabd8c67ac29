// Bench reads the machine from the Inventory, and runs its GPU part in a child with a deadline: the CPU facts,
// the reasons to skip the GPU, the wire between child and parent, and a hung, crashing or interrupted plugin.
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "os/lifetime.hpp"
#include "bench/cpu_facts.hpp"
#include "bench/gpu_child.hpp"
#include "bench/gpu_plugin.hpp"
#include "bench_fake_plugin.hpp"
#include "bench/gpu_wire.hpp"
#include "bench/run.hpp"
#include "core/error.hpp"
#include "scoped_env.hpp"

using namespace gpuscout;
using namespace gpuscout::bench;

namespace {

using test::fake_plugin;

using gpuscout::test_support::ScopedEnv;

GpuPlan small_plan() {
  GpuPlan plan;
  plan.gemms = {{Dtype::fp32, 256}};
  plan.method = Method{0, 1, 1, 0.0};
  plan.transfer_bytes = 1 << 20;
  return plan;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(BenchCpuFacts, TheDescriptionIsTheInventorys) {
  CpuInfo cpu;
  cpu.arch = "x86_64";
  cpu.model = "AMD EPYC 9R45";
  cpu.logical_cpus = 16;
  cpu.physical_cores = 8;
  cpu.max_mhz = 5200;  // the probe's: the highest cpuinfo_max_freq of the usable CPUs, not cpu0's
  cpu.cpuinfo_mhz_max = 2600;
  cpu.caches = {{1, "Data", 48 << 10, 2}, {2, "Unified", 1 << 20, 2}, {3, "Unified", 32 << 20, 16}};
  cpu.features = {"avx", "avx2", "fma", "avx512f", "avx512_bf16"};
  const auto f = cpu_facts(cpu);
  EXPECT_EQ(f.model, "AMD EPYC 9R45");
  EXPECT_EQ(f.logical_cpus, 16);
  EXPECT_EQ(f.physical_cores, 8);
  EXPECT_EQ(f.max_mhz, 5200);
  EXPECT_NE(f.clock_source.find("cpufreq"), std::string::npos);
  EXPECT_EQ(f.llc_bytes, 32u << 20);
  EXPECT_TRUE(f.avx512_bf16);
  EXPECT_EQ(f.isas.back(), Isa::avx512f);

  // A VM without cpufreq: the clock the OS reports, and it says so.
  cpu.max_mhz.reset();
  const auto vm = cpu_facts(cpu);
  EXPECT_EQ(vm.max_mhz, 2600);
  EXPECT_NE(vm.clock_source.find("/proc/cpuinfo"), std::string::npos);
  // Nothing known: one core, no clock, no cache, the scalar kernel only.
  const auto empty = cpu_facts(CpuInfo{});
  EXPECT_EQ(empty.physical_cores, 1);
  EXPECT_FALSE(empty.max_mhz);
  EXPECT_FALSE(empty.llc_bytes);
  EXPECT_EQ(empty.isas, std::vector<Isa>{Isa::scalar});
}

TEST(BenchRun, MemoryAvailableHonoursTheContainerLimit) {
  MemoryInfo m;
  EXPECT_FALSE(memory_available_bytes(m));
  m.available_bytes = 64ull << 30;
  EXPECT_EQ(memory_available_bytes(m), 64ull << 30);
  m.cgroup_limit_bytes = 8ull << 30;
  EXPECT_EQ(memory_available_bytes(m), 8ull << 30);
}

TEST(BenchRun, GpuIsSkippedWhenTheProbesFoundNoDriverOrAHungOne) {
  Inventory inv;
  EXPECT_NE(gpu_skip_reason(inv, false).value_or("").find("no NVIDIA driver"), std::string::npos);
  EXPECT_FALSE(gpu_skip_reason(inv, true));  // a plugin named in the environment brings its own answers
  inv.cuda.library_found = true;
  EXPECT_FALSE(gpu_skip_reason(inv, false));
  inv.cuda.timed_out = true;
  inv.cuda.error = ProbeError{"cuda", "cuInit", "no answer within 5.0 s: the driver is hung (killed the probe)", {}};
  const auto why = gpu_skip_reason(inv, true);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("did not answer"), std::string::npos) << *why;
  EXPECT_NE(why->find("5.0 s"), std::string::npos) << *why;
}

TEST(BenchRun, TimeoutDefaultsFromTheWorkAndRejectsJunk) {
  Inventory inv;
  EXPECT_EQ(default_gpu_timeout(false, inv), std::chrono::minutes(3));
  EXPECT_EQ(default_gpu_timeout(true, inv), std::chrono::minutes(10));
  inv.gpus.resize(2);
  inv.gpus[0].vendor = inv.gpus[1].vendor = "nvidia";
  EXPECT_EQ(default_gpu_timeout(false, inv), std::chrono::minutes(6));
  EXPECT_EQ(parse_timeout("90"), std::chrono::seconds(90));
  EXPECT_EQ(parse_timeout(" 2.5 "), std::chrono::milliseconds(2500));
  for (const char* bad : {"nan", "NaN", "inf", "-1", "0", "0.01", "abc", "", "1e9", "10s"})
    EXPECT_THROW(parse_timeout(bad), UsageError) << bad;
}

TEST(BenchGpuIdentity, TakenFromTheInventoryByBusId) {
  std::vector<Gpu> gpus(2);
  gpus[0].pci_bus_id = "0000:02:00.0";
  gpus[1].pci_bus_id = "0000:01:00.0";
  gpus[1].name = "NVIDIA GeForce RTX 4090";
  gpus[1].compute_capability = "8.9";
  gpus[1].sm_count = 128;
  gpus[1].max_clock_sm_mhz = 2520;
  gpus[1].memory_total_bytes = 25757220864ull;
  const Gpu* known = inventory_gpu(gpus, "0000:01:00.0");
  ASSERT_EQ(known, &gpus[1]);
  EXPECT_EQ(inventory_gpu(gpus, "0000:03:00.0"), nullptr);
  GpuResult r;
  r.name = "what the plugin said";
  r.l2_bytes = 72u << 20;
  take_identity(r, *known);
  EXPECT_EQ(r.name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(r.compute_capability, "8.9");
  EXPECT_EQ(r.sm_count, 128);
  EXPECT_EQ(r.memory_total_bytes, 25757220864ull);
  EXPECT_EQ(r.l2_bytes, 72u << 20);  // the inventory does not know it: the plugin's figure stays
}

// A MIG slice shares its card's PCI bus id: the Inventory's entry there is the whole card, so the slice keeps the
// name, SMs and memory CUDA gave it (and is then compared with its share of the card, not the whole card).
TEST(BenchGpuIdentity, MigSliceKeepsItsOwnIdentity) {
  Gpu card;
  card.pci_bus_id = "0000:9a:00.0";
  card.name = "NVIDIA H200";
  card.sm_count = 132;
  card.memory_total_bytes = 150754820096ull;
  GpuResult slice;
  slice.name = "NVIDIA H200 MIG 1g.18gb";
  slice.sm_count = 16;
  slice.memory_total_bytes = 17'716'740'096ull;
  take_identity(slice, card);
  EXPECT_EQ(slice.name, "NVIDIA H200 MIG 1g.18gb");
  EXPECT_EQ(slice.sm_count, 16);
  EXPECT_EQ(slice.memory_total_bytes, 17'716'740'096ull);
}

TEST(BenchGpuWire, RoundTripKeepsEveryField) {
  GpuSection s;
  s.status.requested = s.status.available = true;
  s.status.plugin_path = "/x/libgpuscout-cuda.so";
  GpuResult g;
  g.name = "GPU \xe9";  // Latin-1: not UTF-8
  g.pci_bus_id = "0000:01:00.0";
  g.memory_total_bytes = 25769803776ull;
  GpuGemmRecord rec;
  rec.dtype = Dtype::bf16;
  rec.n = 8192;
  rec.m.samples_s = {0.01, 0.011};
  rec.m.stats.median_s = 0.0105;
  rec.efficiency = 0.8;
  g.gemm.push_back(rec);
  g.h2d_pinned = TransferRecord{"h2d_pinned", 0, 1 << 20, {}, 25.0, true, ""};
  g.telemetry.throttle_reasons = 0x44;
  g.telemetry.pcie_gen_under_load = 4;
  g.telemetry.power_method = "instant";
  g.power_capped = true;
  g.host_cpus_bound = true;
  g.notes = {"a note"};
  s.gpus.push_back(g);
  const auto back = gpu_section_from_wire(gpu_section_to_wire(s));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->gpus.size(), 1u);
  const auto& b = back->gpus[0];
  EXPECT_EQ(b.name, "GPU \xef\xbf\xbd");  // cleaned, not an exception
  EXPECT_EQ(b.memory_total_bytes, 25769803776ull);
  ASSERT_EQ(b.gemm.size(), 1u);
  EXPECT_EQ(b.gemm[0].dtype, Dtype::bf16);
  EXPECT_EQ(b.gemm[0].m.samples_s.size(), 2u);
  EXPECT_EQ(b.gemm[0].efficiency, 0.8);
  EXPECT_FALSE(b.gemm[0].peak_datasheet_tflops);
  ASSERT_TRUE(b.h2d_pinned);
  EXPECT_EQ(b.h2d_pinned->gbs, 25.0);
  EXPECT_FALSE(b.copy);
  EXPECT_EQ(b.telemetry.throttle_reasons, 0x44u);
  EXPECT_EQ(b.telemetry.pcie_gen_under_load, 4);
  EXPECT_EQ(b.telemetry.power_method, "instant");
  EXPECT_TRUE(b.power_capped);
  EXPECT_TRUE(b.host_cpus_bound);
  EXPECT_EQ(back->status.plugin_path, "/x/libgpuscout-cuda.so");
  EXPECT_FALSE(gpu_section_from_wire("{\"status\": 5"));
}

TEST(BenchGpuChild, EachWayAChildEndsIsAGpuError) {
  os::ProcessResult hung;
  hung.timed_out = true;
  hung.signal = SIGKILL;
  auto s = gpu_section_from_child(hung, std::chrono::seconds(2));
  EXPECT_FALSE(s.status.available);
  EXPECT_NE(s.status.message.find("did not finish within 2 s"), std::string::npos) << s.status.message;
  os::ProcessResult crashed;
  crashed.signal = SIGSEGV;
  crashed.err = "cuda: something bad\n";
  s = gpu_section_from_child(crashed, std::chrono::seconds(2));
  EXPECT_NE(s.status.message.find("crashed"), std::string::npos) << s.status.message;
  EXPECT_NE(s.status.message.find("something bad"), std::string::npos) << s.status.message;
  os::ProcessResult failed;
  failed.exit_code = 3;
  failed.out = "exception: boom";
  s = gpu_section_from_child(failed, std::chrono::seconds(2));
  EXPECT_NE(s.status.message.find("boom"), std::string::npos) << s.status.message;
  os::ProcessResult garbage;
  garbage.exit_code = 0;
  garbage.out = "not json";
  EXPECT_NE(gpu_section_from_child(garbage, std::chrono::seconds(2)).status.message.find("unreadable"),
            std::string::npos);
}

TEST(BenchGpuChild, WorkingPluginAnswersThroughTheChild) {
  ScopedEnv env{{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok").c_str()}, {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvml.so.1"}};
  const auto s = run_gpus_bounded(small_plan(), std::chrono::seconds(60));
  ASSERT_TRUE(s.status.available) << s.status.message;
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, "NVIDIA GeForce RTX 4090");
  ASSERT_EQ(s.gpus[0].gemm.size(), 1u);
  EXPECT_TRUE(s.gpus[0].gemm[0].ok);
}

TEST(BenchGpuChild, HungPluginIsStoppedAtTheDeadline) {
  ScopedEnv env{{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok").c_str()},
                {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvml.so.1"},
                {"GPUSCOUT_FAKE_PLUGIN_SLEEP_S", "60"}};
  const auto t0 = std::chrono::steady_clock::now();
  const auto s = run_gpus_bounded(small_plan(), std::chrono::seconds(1));
  EXPECT_LT(seconds_since(t0), 10);
  EXPECT_FALSE(s.status.available);
  EXPECT_NE(s.status.message.find("did not finish within 1 s"), std::string::npos) << s.status.message;
}

TEST(BenchGpuChild, CrashingPluginTakesOnlyTheChild) {
  ScopedEnv env{{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok").c_str()},
                {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvml.so.1"},
                {"GPUSCOUT_FAKE_PLUGIN_CRASH", "1"}};
  const auto s = run_gpus_bounded(small_plan(), std::chrono::seconds(60));
  EXPECT_FALSE(s.status.available);
  EXPECT_NE(s.status.message.find("crashed"), std::string::npos) << s.status.message;
  EXPECT_NE(s.status.message.find("signal 11"), std::string::npos) << s.status.message;
}

TEST(BenchGpuChild, StopRequestKillsTheChildAtOnce) {
  ScopedEnv env{{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok").c_str()},
                {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvml.so.1"},
                {"GPUSCOUT_FAKE_PLUGIN_SLEEP_S", "60"}};
  reset_stop();
  // A real SIGTERM to this process, through the policy's handler and bench's hook, as `gpuscout bench` has them.
  gpuscout::os::guard_children();
  const gpuscout::os::ScopedStopHook hook(stop_on_signal);
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ::kill(::getpid(), SIGTERM);
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(run_gpus_bounded(small_plan(), std::chrono::seconds(60)), Interrupted);
  EXPECT_LT(seconds_since(t0), 10);
  EXPECT_EQ(stop_signal(), SIGTERM);
  stopper.join();
  reset_stop();
}

TEST(BenchPluginPaths, NonRegularFilesInTheEnvironmentAreErrors) {
  const std::string fifo = testing::TempDir() + "/gpuscout-fifo-" + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    ScopedEnv env{{"GPUSCOUT_CUDA_LIBRARY", fifo.c_str()}};
    const auto r = check_library_overrides();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("GPUSCOUT_CUDA_LIBRARY"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("FIFO"), std::string::npos) << r.error().message;
  }
  {
    ScopedEnv env{{"GPUSCOUT_CUDA_PLUGIN", "/"}};
    EXPECT_FALSE(check_library_overrides());
  }
  {
    // Missing files and sonames are for the loader to report ("no driver"), not usage errors.
    ScopedEnv env{{"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"GPUSCOUT_NVML_LIBRARY", "libnvidia-ml.so.1"},
                  {"GPUSCOUT_CUDA_PLUGIN", nullptr}};
    EXPECT_TRUE(check_library_overrides());
  }
  // The loader itself never hands a FIFO to dlopen (which would block for a writer).
  const auto t0 = std::chrono::steady_clock::now();
  const auto p = CudaPlugin::load(fifo);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("FIFO"), std::string::npos) << p.error().message;
  EXPECT_LT(seconds_since(t0), 5);
  ::unlink(fifo.c_str());
}
