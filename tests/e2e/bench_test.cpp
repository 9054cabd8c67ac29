// `gpuscout bench` end to end: a small real CPU run, bad input, --save all-or-nothing, --compare, and the
// GPU part with no driver and with a fake plugin.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "e2e_support.hpp"
#include "os/process.hpp"

namespace {
const std::vector<std::string> kSmall{"bench", "--quick", "--size", "256", "--dtype", "fp32,fp64"};
const std::vector<std::string> kSmallCpu{"bench", "--device", "cpu", "--quick", "--size", "256", "--dtype", "fp32,fp64"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}
std::string fake_plugin(const std::string& kind) {
  return std::string(GPUSCOUT_BINARY_DIR) + "/tests/bench_plugins/libfake_plugin_" + kind + ".so";
}
bool exists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}
// Runs gpuscout and times it.
std::pair<e2e::Run, double> timed(const std::vector<std::string>& args, std::map<std::string, std::string> env = {},
                                  int timeout_ms = 120000) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = e2e::run_gpuscout(args, std::move(env), timeout_ms);
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

// Starts `gpuscout bench --device gpu --save F` on a plugin that hangs in its first GEMM, sends `signal` once the
// GPU child runs, and checks the exit code, the time it took and that nothing was saved.
void stopped_by(int signal, int expected_exit) {
  const std::string dir = e2e::temp_dir();
  const std::string save = dir + "/out.json", state = dir + "/state";
  auto child = gpuscout::os::spawn({"env", "-u", "GPUSCOUT_SYSROOT", GPUSCOUT_BIN, "bench", "--device", "gpu",
                                    "--size", "256", "--save", save},
                                   std::chrono::seconds(60),
                                   {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")},
                                    {"GPUSCOUT_FAKE_PLUGIN_SLEEP_S", "60"},
                                    {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                                    {"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"},
                                    {"GPUSCOUT_STATE_DIR", state}});
  ASSERT_TRUE(child) << child.error().message;
  std::this_thread::sleep_for(std::chrono::seconds(3));  // the probes (drivers absent: instant), then the child
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(child->pid(), signal), 0);
  const auto r = child->wait();
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(r.timed_out) << "the signal did not stop bench";
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  EXPECT_LT(took, 5.0);
  EXPECT_NE(r.err.find("nothing saved"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(save)) << "--save was written after the signal";
  EXPECT_FALSE(exists(state + "/last-bench.json")) << "the last-bench state was written after the signal";
}
}  // namespace

TEST(BenchE2E, SmallCpuRunJson) {
  auto r = e2e::run_gpuscout(with(kSmallCpu, {"--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["schema"], "gpuscout.bench/1");
  EXPECT_GE(j["cpu"]["threads"].get<int>(), 1);
  EXPECT_GT(j["cpu"]["peak_gflops"]["fp32"].get<double>(), 0);
  ASSERT_EQ(j["cpu"]["gemm"].size(), 2u);
  for (const auto& g : j["cpu"]["gemm"]) {
    EXPECT_EQ(g["n"], 256);
    EXPECT_TRUE(g["ok"].get<bool>());
    EXPECT_GT(g["gflops"].get<double>(), 0);
  }
  EXPECT_GT(j["cpu"]["memory_gbs"]["copy"].get<double>(), 0);
  EXPECT_TRUE(j["gpus"].empty());
  EXPECT_TRUE(r.err.empty()) << "progress must stay off when stderr is not a terminal: " << r.err;
}

TEST(BenchE2E, BadInputExitsTwo) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"bench", "--size", "0"},
                                                                 {"bench", "--size=-3"},
                                                                 {"bench", "--size", "1000000"},
                                                                 {"bench", "--size", "big"},
                                                                 {"bench", "--dtype", "int4"},
                                                                 {"bench", "--device", "tpu"},
                                                                 {"bench", "--compare", "/nonexistent/a.json", "/nonexistent/b.json"}}) {
    auto r = e2e::run_gpuscout(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  }
}

TEST(BenchE2E, SaveIsAllOrNothingAndCompareWorks) {
  const std::string dir = e2e::temp_dir();
  auto bad = e2e::run_gpuscout(with(kSmallCpu, {"--save", dir + "/missing-dir/out.json"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  struct stat st{};
  EXPECT_NE(::stat((dir + "/missing-dir/out.json").c_str(), &st), 0);
  const std::string a = dir + "/a.json", b = dir + "/b.json";
  ASSERT_EQ(e2e::run_gpuscout(with(kSmallCpu, {"--save", a})).exit_code, 0);
  ASSERT_EQ(e2e::run_gpuscout(with(kSmallCpu, {"--save", b, "--json"})).exit_code, 0);
  auto c = e2e::run_gpuscout({"bench", "--compare", a, b, "--json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = c.json();
  EXPECT_EQ(j["schema"], "gpuscout.bench-compare/1");
  EXPECT_FALSE(j["rows"].empty());
  auto text = e2e::run_gpuscout({"bench", "--compare", a, b});
  EXPECT_NE(text.out.find("B / A"), std::string::npos);
  std::ofstream(dir + "/broken.json") << "{\"schema\": \"gpuscout.bench/1\", ";
  EXPECT_EQ(e2e::run_gpuscout({"bench", "--compare", a, dir + "/broken.json"}).exit_code, 2);
}

TEST(BenchE2E, GpuWithoutDriverStillRunsCpu) {
  auto r = e2e::run_gpuscout(with(kSmall, {"--device", "all", "--json"}),
                             {{"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"GPUSCOUT_CUDA_PLUGIN", "<unset>"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_FALSE(j["gpu_status"]["available"].get<bool>());
  EXPECT_NE(j["gpu_status"]["message"].get<std::string>().find("driver"), std::string::npos);
  EXPECT_EQ(j["cpu"]["gemm"].size(), 2u);
  auto text = e2e::run_gpuscout(with(kSmall, {"--device", "all"}),
                                {{"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"GPUSCOUT_CUDA_PLUGIN", "<unset>"}});
  EXPECT_NE(text.out.find("GPU  no NVIDIA driver"), std::string::npos) << text.out;
}

TEST(BenchE2E, FakePluginGivesGpuSectionAndSpeedup) {
  auto r = e2e::run_gpuscout({"bench", "--device", "all", "--size", "256", "--dtype", "fp32,bf16", "--json"},
                             {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j["gpus"].size(), 1u);
  EXPECT_EQ(j["gpus"][0]["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(j["gpus"][0]["gemm"].size(), 2u);
  EXPECT_TRUE(j["speedup"]["fp32"].is_number());
  auto wrong = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--json"},
                                 {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("wrong_version")}});
  EXPECT_EQ(wrong.exit_code, 0);
  EXPECT_NE(wrong.json()["gpu_status"]["message"].get<std::string>().find("interface version"), std::string::npos);
}

TEST(BenchE2E, DescribesTheMachineAsInfoDoes) {
  // One fact, one place: bench's CPU description is the probe's.
  auto info = e2e::run_gpuscout({"info", "--json", "--no-python"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto bench = e2e::run_gpuscout(with(kSmallCpu, {"--json"}));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const auto i = info.json()["cpu"], b = bench.json()["cpu"];
  EXPECT_EQ(b["model"], i["model"]);
  EXPECT_EQ(b["physical_cores"], i["physical_cores"]);
  EXPECT_EQ(b["logical_cpus"], i["logical_cpus"]);
  if (i["max_mhz"].is_number()) EXPECT_EQ(b["clock_mhz"], i["max_mhz"]);
}

TEST(BenchE2E, RefusesARecordedMachine) {
  // Under GPUSCOUT_SYSROOT the description would be the recorded machine's and the figures this one's.
  auto [r, took] = timed(kSmallCpu, e2e::sysroot_env("no-gpu-vm"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("GPUSCOUT_SYSROOT"), std::string::npos) << r.err;
}

TEST(BenchE2E, SaveTargetIsCheckedBeforeRunning) {
  const std::string dir = e2e::temp_dir();
  // --full would measure for minutes before the old check at the end.
  for (const auto& [target, says] : std::vector<std::pair<std::string, std::string>>{
           {dir + "/missing-dir/x.json", "does not exist"},
           {dir, "is a folder"},
           {"/dev/null", "not a regular file"},
           {"", "empty"}}) {
    auto [r, took] = timed({"bench", "--full", "--save", target});
    EXPECT_EQ(r.exit_code, 2) << target << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << target << ": " << r.err;
    EXPECT_LT(took, 10) << target << ": the check came after the run";
  }
}

TEST(BenchE2E, BadTimeoutExitsTwo) {
  for (const char* bad : {"nan", "inf", "0", "-5", "soon", ""}) {
    auto r = e2e::run_gpuscout({"bench", std::string("--timeout=") + bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--timeout"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST(BenchE2E, HungDriverIsBoundedAndTheCpuResultsStand) {
  // The project's `hang` scenario: NVML and cuInit sleep 30 s. The probes give up at --timeout and the GPU part is
  // skipped with the reason.
  auto env = e2e::merge({e2e::fake_driver_env("hang"), {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}}});
  auto [r, took] = timed(with(kSmall, {"--timeout", "2", "--json"}), env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(took, 20);
  const auto j = r.json();
  EXPECT_FALSE(j["gpu_status"]["available"].get<bool>());
  EXPECT_NE(j["gpu_status"]["message"].get<std::string>().find("did not answer"), std::string::npos) << j["gpu_status"];
  EXPECT_EQ(j["cpu"]["gemm"].size(), 2u);
}

TEST(BenchE2E, PluginThatHangsIsStoppedAtTheTimeout) {
  auto [r, took] = timed(with(kSmall, {"--timeout", "3", "--json"}),
                         {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_SLEEP_S", "60"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(took, 30);
  const auto j = r.json();
  EXPECT_NE(j["gpu_status"]["message"].get<std::string>().find("did not finish within 3 s"), std::string::npos)
      << j["gpu_status"];
  EXPECT_EQ(j["cpu"]["gemm"].size(), 2u);
  auto crash = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--json"},
                                 {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_CRASH", "1"}});
  ASSERT_EQ(crash.exit_code, 0) << crash.err;
  EXPECT_NE(crash.json()["gpu_status"]["message"].get<std::string>().find("crashed"), std::string::npos);
}

TEST(BenchE2E, LibraryPathThatIsNotAFileIsAnError) {
  const std::string fifo = e2e::temp_dir() + "/libcuda.so.1";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const char* var : {"GPUSCOUT_CUDA_LIBRARY", "GPUSCOUT_CUDA_PLUGIN", "GPUSCOUT_NVML_LIBRARY"}) {
    auto [r, took] = timed(kSmall, {{var, fifo}}, 30000);
    EXPECT_FALSE(r.timed_out) << var << " hangs";
    EXPECT_EQ(r.exit_code, 2) << var << ": " << r.err;
    EXPECT_NE(r.err.find(var), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("FIFO"), std::string::npos) << r.err;
    EXPECT_LT(took, 5) << var;
  }
}

TEST(BenchE2E, CtrlCStopsTheGpuChildAndSavesNothing) { stopped_by(SIGINT, 130); }

TEST(BenchE2E, SigtermStopsTheGpuChildAndSavesNothing) { stopped_by(SIGTERM, 143); }

// NVML through the fake driver during a fake-plugin run: an H200 NVL at its 600 W limit. Its own catalogue row
// (not the H200 SXM's), the instantaneous power field (not the one-second average), the power cap named as
// expected rather than THROTTLED, and the host transfers bound to the GPU's CPUs.
TEST(BenchE2E, NvmlPowerInstantAndPowerCapThroughTheFakeDriver) {
  // The fake GEMM lasts a second so that NVML samples fall inside it (the sampler reads every 50 ms).
  auto env = e2e::merge({e2e::fake_driver_env("h200-nvl-at-power-limit"),
                         {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_SLEEP_S", "1"}}});
  auto r = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--json"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j["gpus"].size(), 1u) << j.dump(1);
  const auto& g = j["gpus"][0];
  EXPECT_EQ(g["name"], "NVIDIA H200 NVL");
  EXPECT_EQ(g["catalog_name"], "H200 NVL");
  EXPECT_EQ(g["gemm"][0]["peak_datasheet_tflops"], 835.5);
  const auto& t = g["telemetry"];
  ASSERT_GT(t["samples"].get<int>(), 0) << g.dump(1);
  EXPECT_EQ(t["power_w_max"], 598.0);  // power_instant_mw, not power_mw (566 W)
  EXPECT_EQ(t["power_method"], "instant");
  EXPECT_FALSE(g["throttled"].get<bool>());
  EXPECT_TRUE(g["power_capped"].get<bool>());
  EXPECT_TRUE(g["host_cpus_bound"].get<bool>());
  auto text = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16"}, env);
  EXPECT_EQ(text.out.find("THROTTLED"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("at the power limit"), std::string::npos) << text.out;
}

namespace {
const nlohmann::json* torch_finding(const nlohmann::json& torch, const std::string& code) {
  for (const auto& f : torch["findings"])
    if (f["code"] == code) return &f;
  return nullptr;
}
}  // namespace

TEST(BenchTorch, FakeTorchBesideTheFakePlugin) {
  // The script's GPU path (CUDA events, the TF32 switch, per-device loop) against the fake torch, whose products take
  // what its scenario says; the fake plugin gives gpuscout's own cuBLAS figures.
  auto env = e2e::merge({e2e::fake_torch_env("bench-4090"), {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}}});
  auto r = e2e::run_gpuscout({"bench", "--size", "256", "--dtype", "fp32,tf32,fp16,bf16", "--torch", "--json"}, env,
                             120000);
  EXPECT_EQ(r.exit_code, 1) << "a wrong bf16 answer fails loudly\n" << r.err;
  const auto j = r.json();
  const auto& t = j["torch"];
  ASSERT_TRUE(t.is_object()) << j.dump(2);
  EXPECT_EQ(t["version"], "2.5.1+cu121");
  EXPECT_EQ(t["allow_tf32_default"], false);
  ASSERT_EQ(t["cases"].size(), 5u) << t.dump(2);
  EXPECT_EQ(t["cases"][0]["device"], "cpu");
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(t["cases"][i]["device"], "cuda:0");
  const auto& tf32 = t["cases"][2];
  EXPECT_EQ(tf32["dtype"], "tf32");
  EXPECT_NEAR(tf32["gflops"].get<double>(), 150000, 1) << "CUDA events read the fake device's clock";
  EXPECT_NEAR(tf32["of_native"].get<double>(), 150.0 / 160.0, 0.05);
  EXPECT_NE(torch_finding(t, "torch-matmul-cpu-slow"), nullptr) << t["findings"].dump(2);
  EXPECT_NE(torch_finding(t, "torch-matmul-gpu-slow"), nullptr) << "fp16 at 40 of 160 TFLOP/s";
  EXPECT_NE(torch_finding(t, "torch-matmul-wrong"), nullptr) << "bf16 error 0.5";
  EXPECT_NE(torch_finding(t, "torch-tf32-off"), nullptr) << "fp32 70, tf32 150 TFLOP/s, TF32 off by default";
}

TEST(BenchTorch, TorchThatDoesNotImportIsSaidAndTheRestStands) {
  auto r = e2e::run_gpuscout(with(kSmallCpu, {"--torch", "--json"}), e2e::fake_torch_env("import-error"), 120000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_TRUE(j["torch"]["cases"].empty());
  EXPECT_FALSE(j["torch"]["error"].get<std::string>().empty()) << j["torch"].dump(2);
  EXPECT_FALSE(j["cpu"]["gemm"].empty()) << "gpuscout's own results stand";
  auto bad = e2e::run_gpuscout({"bench", "--python", "/usr/bin/python3"});
  EXPECT_EQ(bad.exit_code, 2) << "--python without --torch";
}

TEST(BenchTorch, RealDebianTorch) {
  // Debian's python3-torch (a CPU build of 1.13), installed by scripts/install-deps: the real script in a real torch.
  std::ifstream probe("/usr/lib/python3/dist-packages/torch/__init__.py");
  if (!probe) GTEST_SKIP() << "python3-torch is not installed (scripts/install-deps installs it)";
  auto r = e2e::run_gpuscout(with(kSmallCpu, {"--torch", "--python", "/usr/bin/python3", "--json"}),
                             {{"PYTHONPATH", "<unset>"}}, 180000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto t = r.json()["torch"];
  ASSERT_EQ(t["cases"].size(), 1u) << t.dump(2);
  const auto& c = t["cases"][0];
  EXPECT_EQ(c["n"], 256);
  EXPECT_TRUE(c["ok"].get<bool>()) << c.dump(2);
  EXPECT_LT(c["rel_error"].get<double>(), 1e-5);
  EXPECT_GT(c["gflops"].get<double>(), 0);
  EXPECT_TRUE(c["of_native"].is_number()) << "beside gpuscout's own OpenBLAS run at the same size";
  EXPECT_TRUE(c["of_peak"].is_number());
  EXPECT_GE(c["measurement"]["repeats"].get<int>(), 3);
}

// bench --nccl through the fake plugin: sizes, bus bandwidth from the median, the check, and each reason for no run.
TEST(BenchE2E, NcclAllReduceThroughTheFakePlugin) {
  auto r = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--nccl", "--json"},
                             {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_GPUS", "4"},
                              {"GPUSCOUT_FAKE_PLUGIN_BUSBW_GBS", "150"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j["gpus"].size(), 4u);
  const auto& n = j["nccl"];
  ASSERT_TRUE(n.is_object()) << j.dump(1);
  EXPECT_EQ(n["ranks"], 4);
  EXPECT_EQ(n["nccl_version"], "2.27.3");
  EXPECT_EQ(n["status"], "");
  ASSERT_EQ(n["sizes"].size(), 3u);
  EXPECT_EQ(n["sizes"][2]["size_bytes"], 256u << 20);
  EXPECT_TRUE(n["sizes"][2]["verified"].get<bool>());
  // The fake's samples rise 1% each: the median of 5 is 2% above the first, which ran at exactly 150 GB/s.
  EXPECT_NEAR(n["sizes"][2]["busbw_gbs"].get<double>(), 150.0 / 1.02, 0.01);
  EXPECT_NEAR(n["sizes"][2]["algbw_gbs"].get<double>(), 150.0 / 1.02 / 1.5, 0.01);

  auto text = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--nccl"},
                                {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_GPUS", "2"},
                                 {"GPUSCOUT_FAKE_PLUGIN_WRONG_SUM", "1"}});
  EXPECT_NE(text.out.find("all-reduce over 2 GPUs"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("WRONG"), std::string::npos) << text.out;

  auto one = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--nccl", "--json"},
                               {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}});
  EXPECT_NE(one.json()["nccl"]["status"].get<std::string>().find("at least 2 GPUs"), std::string::npos);
  EXPECT_TRUE(one.json()["nccl"]["sizes"].empty());
  auto absent = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--nccl", "--json"},
                                  {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}, {"GPUSCOUT_FAKE_PLUGIN_GPUS", "2"},
                                   {"GPUSCOUT_FAKE_PLUGIN_NO_NCCL", "1"}});
  EXPECT_NE(absent.json()["nccl"]["status"].get<std::string>().find("NCCL not found"), std::string::npos);
  // Without --nccl the step is not run at all; with --device cpu it is a usage error.
  auto plain = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--dtype", "bf16", "--json"},
                                 {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}});
  EXPECT_FALSE(plain.json().contains("nccl"));
  EXPECT_EQ(e2e::run_gpuscout({"bench", "--device", "cpu", "--nccl"}).exit_code, 2);
}

// OpenBLAS told to use its SSE3 kernels (as an OpenBLAS that does not know the CPU's model falls back to them): the
// note names them, the figure, and the kernel set to use instead; on the same run's CPU that set is faster.
TEST(BenchE2E, OpenblasKernelsBelowTheCpuAreNamed) {
  const auto slow = e2e::run_gpuscout({"bench", "--device", "cpu", "--dtype", "fp32", "--size", "1024", "--json"},
                                      {{"OPENBLAS_CORETYPE", "Prescott"}});
  ASSERT_EQ(slow.exit_code, 0) << slow.err;
  const auto cpu = slow.json()["cpu"];
  const auto& isas = cpu["isas"];
  if (cpu["blas"]["corename"] != "Prescott" || std::ranges::find(isas, "avx2+fma") == isas.end())
    GTEST_SKIP() << "this BLAS is no DYNAMIC_ARCH OpenBLAS, or this CPU has nothing wider than SSE";
  std::string notes;
  for (const auto& n : cpu["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_TRUE(e2e::contains(notes, "OpenBLAS runs its Prescott (sse2) kernels on this")) << notes;
  EXPECT_TRUE(e2e::contains(notes, "OPENBLAS_CORETYPE=Prescott is set in this environment")) << notes;
  // The GEMM ran again in a fresh gpuscout with the CPU's best kernels; the faster figure is the speed-up's.
  const auto& rerun = cpu["kernel_rerun"];
  ASSERT_TRUE(rerun.is_object()) << cpu.dump(1);
  const std::string better = rerun["coretype"];
  EXPECT_EQ(rerun["corename"], better);
  EXPECT_EQ(rerun["error"], "");
  ASSERT_EQ(rerun["gemm"].size(), 1u);
  EXPECT_EQ(rerun["gemm"][0]["n"], 1024);
  EXPECT_TRUE(rerun["gemm"][0]["ok"].get<bool>());
  const double prescott = cpu["gemm"][0]["gflops"], recovered = rerun["gemm"][0]["gflops"];
  EXPECT_GT(recovered, prescott) << "SSE3 kernels outran " << better << "'s";
  EXPECT_EQ(slow.json()["speedup"]["cpu_openblas_coretype"], better);
  EXPECT_TRUE(e2e::contains(notes, fmt::format("with its {0} kernels (OPENBLAS_CORETYPE={0}) it did {1:.0f} GFLOP/s",
                                               better, recovered))) << notes;
  const auto fast = e2e::run_gpuscout({"bench", "--device", "cpu", "--dtype", "fp32", "--size", "1024", "--json"},
                                      {{"OPENBLAS_CORETYPE", better}});
  ASSERT_EQ(fast.exit_code, 0) << fast.err;
  EXPECT_EQ(fast.json()["cpu"]["blas"]["corename"], better);
  EXPECT_TRUE(fast.json()["cpu"]["kernel_rerun"].is_null());
  EXPECT_EQ(fast.json()["speedup"]["cpu_openblas_coretype"], "");
  EXPECT_EQ(fast.json()["cpu"]["notes"].dump().find("kernels on this"), std::string::npos);
}
