// Issue 11's advice, end to end on recorded machines and fakes: the install line fits the driver and the GPU's
// last driver branch, nothing is reinstalled that works, hosted notebooks get steps they can take, ROCm counts,
// verdicts mean what they say, and advise starts from the card the user owns.
#include <fstream>
#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::finding;
using e2e::merge;
using nlohmann::json;

namespace {

json doctor_json(const std::map<std::string, std::string>& env, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"doctor", "--json", "--timeout", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = e2e::run_gpuscout(args, env);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

using e2e::all_advice;
using e2e::torch_command;
using e2e::contains;

std::map<std::string, std::string> machine(const std::string& scenario, const std::string& sysroot,
                                           const std::string& torch) {
  return merge({e2e::fake_driver_env(scenario), e2e::sysroot_env(sysroot), e2e::fake_torch_env(torch)});
}

}  // namespace

TEST(InstallAdvice, NeverAWheelTheDriverCannotRun) {
  // RTX 5090 on driver 570.86.16 (CUDA 12.8) with a cu121 torch that has no sm_120: CUDA 13.x wheels need 580+.
  const json doc = doctor_json(machine("blackwell-5090-570", "no-gpu-vm", "cu121-blackwell"));
  const std::string advice = all_advice(doc);
  ASSERT_TRUE(finding(doc, "gpu-unsupported-by-torch")) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains(advice, "whl/cu128")) << advice;
  for (const char* newer : {"whl/cu129", "whl/cu130", "whl/cu132"}) EXPECT_FALSE(contains(advice, newer)) << advice;
  // The command names the interpreter and the matching torchvision.
  const std::string pip = torch_command(doc);
  EXPECT_TRUE(contains(pip, " -m pip install \"torch==")) << pip;
  EXPECT_TRUE(contains(pip, "\"torchvision==0.")) << pip;
}

TEST(InstallAdvice, BrokenCu130TorchOn575GetsAWheelFor575) {
  // Driver 575.64 supports CUDA 12.9: the fix for the cu130 build that cannot start is a 12.x wheel, not cu132.
  const json doc = doctor_json(machine("blackwell-5090", "no-gpu-vm", "cu130-old-driver"));
  const std::string advice = all_advice(doc);
  EXPECT_FALSE(contains(advice, "whl/cu13")) << advice;
  EXPECT_TRUE(contains(advice, "whl/cu12")) << advice;
}

TEST(InstallAdvice, NothingToInstallWhenTheInstalledBuildFits) {
  const json doc = doctor_json(machine("blackwell-5090", "no-gpu-vm", "cu128"));
  EXPECT_EQ(doc["verdict"]["status"], "ready") << doc["verdict"].dump(2);
  EXPECT_TRUE(torch_command(doc).empty()) << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["torch_fits"], true);
  const auto text = e2e::run_gpuscout({"doctor", "--timeout", "2"}, machine("blackwell-5090", "no-gpu-vm", "cu128"));
  EXPECT_FALSE(contains(text.out, "pip install")) << text.out;
  EXPECT_TRUE(contains(text.out, "nothing to install")) << text.out;
}

TEST(InstallAdvice, ColabsOwnTorchIsNotReinstalled) {
  const json doc = doctor_json(machine("colab-t4", "colab-t4", "cu121-ok"));
  EXPECT_EQ(doc["verdict"]["status"], "ready");
  EXPECT_TRUE(torch_command(doc).empty()) << doc["verdict"].dump(2);
}

TEST(HostedNotebook, KaggleP100NeverUpdatesTheDriver) {
  // A torch without sm_60 on Kaggle's P100: pin one that has it, or switch the accelerator; the driver is Kaggle's.
  const json doc = doctor_json(machine("kaggle-p100", "kaggle-p100", "cu128"));
  const std::string advice = all_advice(doc);
  ASSERT_TRUE(finding(doc, "gpu-unsupported-by-torch")) << doc["verdict"].dump(2);
  EXPECT_FALSE(contains(advice, "pdate the driver")) << advice;
  EXPECT_FALSE(contains(advice, "pdate the NVIDIA driver")) << advice;
  EXPECT_TRUE(contains(advice, "T4 x2")) << advice;
  EXPECT_TRUE(contains(advice, "whl/cu126")) << advice;
  EXPECT_TRUE(contains(advice, "%pip install \"torch==")) << advice;  // typed into a notebook cell
  // Kaggle's /kaggle/working has a fixed 20 GB quota: not "low disk".
  EXPECT_FALSE(finding(doc, "low-disk")) << doc["verdict"].dump(2);
}

TEST(HostedNotebook, ColabCpuRuntimeSwitchesToAGpu) {
  const json doc = doctor_json(merge({e2e::sysroot_env("colab-cpu"), e2e::fake_torch_env("cpu")}));
  const json* no_gpu = finding(doc, "no-gpu");
  ASSERT_TRUE(no_gpu) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains((*no_gpu)["fix"].get<std::string>(), "Runtime > Change runtime type")) << (*no_gpu)["fix"];
  EXPECT_FALSE(contains((*no_gpu)["fix"].get<std::string>(), "use a free cloud GPU")) << (*no_gpu)["fix"];
}

TEST(DriverBranch, KeplerIsNeverToldToReachADriverItCannotHave) {
  const json doc = doctor_json(machine("kepler-k80", "no-gpu-vm", "k80-new-torch"));
  const std::string advice = all_advice(doc);
  ASSERT_TRUE(finding(doc, "gpu-too-old")) << doc["verdict"].dump(2);
  for (const char* unreachable : {"530", "535", "550", "570", "580"})
    EXPECT_FALSE(contains(advice, std::string("driver to ") + unreachable)) << advice;
}

TEST(Rocm, AWorkingRocmBuildIsReady) {
  const json doc = doctor_json(merge({e2e::sysroot_env("desktop-amd"), e2e::fake_torch_env("rocm")}));
  EXPECT_EQ(doc["verdict"]["status"], "ready") << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["device"], "cuda:0");
  EXPECT_TRUE(torch_command(doc).empty()) << doc["verdict"].dump(2);
  EXPECT_FALSE(finding(doc, "no-nvidia-gpu")) << doc["verdict"].dump(2);
  EXPECT_EQ(doc["torch"]["cudnn_version"], "3.2.0");  // MIOpen's encoding, not cuDNN's
  // amdgpu's sysfs: the RX 7900 XTX's VRAM and its ROCm ISA.
  ASSERT_GE(doc["gpus"].size(), 1u);
  EXPECT_EQ(doc["gpus"][0]["memory_total_bytes"], 25753026560ULL);
  EXPECT_EQ(doc["gpus"][0]["gfx_target"], "gfx1100");
  EXPECT_EQ(doc["gpus"][0]["integrated"], false);
  // The Ryzen 7950X's own graphics (Raphael, gfx1036) are an APU's: integrated, its "VRAM" a carve-out.
  ASSERT_EQ(doc["gpus"].size(), 2u);
  EXPECT_EQ(doc["gpus"][1]["gfx_target"], "gfx1036");
  EXPECT_EQ(doc["gpus"][1]["integrated"], true);
  const auto text = e2e::run_gpuscout({"doctor"}, merge({e2e::sysroot_env("desktop-amd"), e2e::fake_torch_env("rocm")}));
  EXPECT_TRUE(contains(text.out, "MIOpen")) << text.out;
  EXPECT_FALSE(contains(text.out, "cuDNN")) << text.out;
}

TEST(Rocm, ARocmBuildWithoutTheCardsTargetSaysWhich) {
  // The same machine through a saved inventory whose card is gfx1031 (not in the build) and torch sees no GPU.
  auto saved = e2e::run_gpuscout({"info", "--json"}, merge({e2e::sysroot_env("desktop-amd"), e2e::fake_torch_env("rocm")}));
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  json inv = saved.json();
  inv["gpus"][0]["gfx_target"] = "gfx1031";
  inv["gpus"][1]["gfx_target"] = "gfx1036";
  inv["torch"]["cuda_available"] = false;
  const std::string path = e2e::temp_dir() + "/rocm-gfx1031.json";
  std::ofstream(path) << inv.dump();
  const json doc = doctor_json({}, {"--from", path});
  const json* f = finding(doc, "rocm-unusable");
  ASSERT_TRUE(f) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains((*f)["message"].get<std::string>(), "gfx1031")) << (*f)["message"];
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  // HSA_OVERRIDE_GFX_VERSION set: the trap is named first.
  inv["rocm"]["hsa_override_gfx_version"] = "10.3.0";
  std::ofstream(path) << inv.dump();
  const json trap = doctor_json({}, {"--from", path});
  ASSERT_TRUE(finding(trap, "rocm-unusable"));
  EXPECT_TRUE(contains((*finding(trap, "rocm-unusable"))["message"].get<std::string>(), "HSA_OVERRIDE_GFX_VERSION"));
}

/// The AMD desktop as a saved inventory without PyTorch, changed by `edit`, then diagnosed with --from.
json amd_without_torch(const std::function<void(json&)>& edit) {
  auto saved = e2e::run_gpuscout({"info", "--json"}, merge({e2e::sysroot_env("desktop-amd"), e2e::fake_torch_env("rocm")}));
  EXPECT_EQ(saved.exit_code, 0) << saved.err;
  json inv = saved.json();
  inv["torch"] = nullptr;
  inv["python"]["version"] = "3.12.3";
  edit(inv);
  const std::string path = e2e::temp_dir() + "/amd-no-torch.json";
  std::ofstream(path) << inv.dump();
  return doctor_json({}, {"--from", path});
}

TEST(Rocm, WithoutTorchTheInstallLineIsTheRocmBuildThatHasTheCard) {
  // RX 7900 XTX (gfx1100) beside the Ryzen's own graphics (gfx1036, in no build): the discrete card decides.
  const json doc = amd_without_torch([](json&) {});
  const std::string pip = torch_command(doc);
  EXPECT_TRUE(contains(pip, "download.pytorch.org/whl/rocm")) << pip;
  EXPECT_FALSE(contains(pip, "whl/cpu")) << pip;
  const json* f = finding(doc, "no-nvidia-gpu");
  ASSERT_TRUE(f) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains((*f)["fix"].get<std::string>(), "gfx1100")) << (*f)["fix"];
  EXPECT_TRUE(contains((*f)["fix"].get<std::string>(), pip)) << (*f)["fix"];
  // One note, for the card: the APU beside it is not what the user trains on, and with a GPU route to install
  // there is no "use a free cloud GPU" advice.
  int notes = 0;
  for (const auto& x : doc["verdict"]["findings"]) notes += x["code"] == "no-nvidia-gpu";
  EXPECT_EQ(notes, 1) << doc["verdict"].dump(2);
  EXPECT_FALSE(finding(doc, "no-gpu")) << doc["verdict"].dump(2);
}

TEST(Rocm, ACardNoRocmBuildHasGetsTheCpuWheelAndSaysWhy) {
  const json doc = amd_without_torch([](json& inv) { inv["gpus"][0]["gfx_target"] = "gfx1032"; });
  EXPECT_TRUE(contains(torch_command(doc), "whl/cpu")) << doc["verdict"].dump(2);
  const json* f = finding(doc, "no-nvidia-gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains((*f)["fix"].get<std::string>(), "gfx1032")) << (*f)["fix"];
}

TEST(Rocm, AnUnknownTargetNamesTheNewestRocmIndexFromTheData) {
  // No KFD topology: the card's target is unknown, so no build can be said to fit; the fix names the newest
  // ROCm index of data/torch_builds.csv, not a version written into the code.
  const json doc = amd_without_torch([](json& inv) {
    inv["gpus"][0].erase("gfx_target");
    inv["gpus"][1].erase("gfx_target");
  });
  EXPECT_TRUE(contains(torch_command(doc), "whl/cpu")) << doc["verdict"].dump(2);
  const json* f = finding(doc, "no-nvidia-gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains((*f)["fix"].get<std::string>(), "rocminfo")) << (*f)["fix"];
  EXPECT_FALSE(contains((*f)["fix"].get<std::string>(), "rocm6.4")) << (*f)["fix"];
}

TEST(Xpu, AnIntelArcWithoutTorchGetsTheXpuBuild) {
  const json doc = amd_without_torch([](json& inv) {
    inv["gpus"] = json::array({inv["gpus"][0]});
    inv["gpus"][0]["vendor"] = "intel";
    inv["gpus"][0]["name"] = "DG2 [Arc A770]";
    inv["gpus"][0].erase("gfx_target");
  });
  const std::string pip = torch_command(doc);
  EXPECT_TRUE(contains(pip, "download.pytorch.org/whl/xpu")) << pip;
  const json* f = finding(doc, "no-nvidia-gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains((*f)["fix"].get<std::string>(), pip)) << (*f)["fix"];
}

TEST(Verdict, TorchMissingOnAGpuMachineIsNotReady) {
  // A fake torch package that is absent: PYTHONPATH points at an empty folder and the interpreter has none.
  auto env = merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"),
                    {{"GPUSCOUT_PYTHON", "python3"}, {"PYTHONPATH", e2e::temp_dir()}, {"PYTHONNOUSERSITE", "1"}}});
  const auto run = e2e::run_gpuscout({"doctor", "--json", "--timeout", "2"}, env);
  const json doc = run.json();
  if (!doc["torch"].is_null() || !doc["python"]["version"].is_string())
    GTEST_SKIP() << "python3 here has torch (or no python3): covered where it does not";
  EXPECT_EQ(doc["verdict"]["status"], "needs-action") << doc["verdict"].dump(2);
  EXPECT_TRUE(finding(doc, "torch-missing"));
}

TEST(Verdict, ABusyGpuNamesWhoHoldsIt) {
  const json doc = doctor_json(merge({e2e::fake_driver_env("busy"), e2e::sysroot_env("no-gpu-vm")}), {"--no-python"});
  const json* f = finding(doc, "gpu-busy");
  ASSERT_TRUE(f) << doc["verdict"].dump(2);
  const std::string message = (*f)["message"].get<std::string>();
  EXPECT_TRUE(contains(message, "97% busy")) << message;
  EXPECT_TRUE(contains(message, "pid 4242")) << message;
  EXPECT_TRUE(contains(message, "ollama")) << message;
  EXPECT_TRUE(contains(message, "free for your job")) << message;
}

TEST(Verdict, StrictExitCodesFollowTheVerdict) {
  const auto ready = e2e::run_gpuscout({"doctor", "--strict", "--timeout", "2"},
                                       machine("blackwell-5090", "no-gpu-vm", "cu128"));
  EXPECT_EQ(ready.exit_code, 0) << ready.out;
  const auto action = e2e::run_gpuscout({"doctor", "--strict", "--timeout", "2"},
                                        machine("rtx4090", "no-gpu-vm", "cpu"));
  EXPECT_EQ(action.exit_code, 4) << action.out;
  const auto cpu = e2e::run_gpuscout({"doctor", "--strict", "--no-python"}, e2e::sysroot_env("no-gpu-vm"));
  EXPECT_EQ(cpu.exit_code, 3) << cpu.out;
  // Plain doctor keeps exit 0 whatever the verdict.
  EXPECT_EQ(e2e::run_gpuscout({"doctor", "--timeout", "2"}, machine("rtx4090", "no-gpu-vm", "cpu")).exit_code, 0);
}

TEST(AdviseOwnedCard, NeverASlowerSmallerCardAsAnUpgrade) {
  auto saved = e2e::run_gpuscout({"info", "--json", "--no-python"},
                                 merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm")}));
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  const std::string path = e2e::temp_dir() + "/rtx4090.json";
  std::ofstream(path) << saved.out;
  const auto run = e2e::run_gpuscout({"advise", "--from", path, "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json advice = run.json();
  for (const auto& rec : advice["recommendations"]) {
    const bool larger = rec["memory_total_bytes"].get<uint64_t>() > 24ULL << 30;
    EXPECT_TRUE(larger || rec["name"] != "GeForce RTX 5060") << rec["name"];
  }
  bool keep = false;
  for (const auto& note : advice["notes"]) keep = keep || contains(note.get<std::string>(), "keep your GeForce RTX 4090");
  EXPECT_TRUE(keep) << advice["notes"].dump(2);
  for (const auto& note : advice["notes"])
    EXPECT_FALSE(contains(note.get<std::string>(), "memory -")) << note;
}

TEST(Platforms, NoCurationRemarksReachTheUser) {
  const auto run = e2e::run_gpuscout({"platforms"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* remark : {"curator", "verify)", "collected cop"}) EXPECT_FALSE(contains(run.out, remark)) << run.out;
}

TEST(Xpu, AWorkingXpuBuildIsReadyOnXpu) {
  const json doc = doctor_json(merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("xpu")}));
  EXPECT_EQ(doc["torch"]["xpu_available"], true);
  EXPECT_EQ(doc["verdict"]["status"], "ready") << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["device"], "xpu:0");
  EXPECT_TRUE(torch_command(doc).empty());
  EXPECT_FALSE(finding(doc, "no-gpu")) << doc["verdict"].dump(2);
  const auto device = e2e::run_gpuscout({"device"}, merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("xpu")}));
  EXPECT_EQ(device.out, "xpu:0\n");
}

TEST(TorchCpuSide, DebiansBuildIsToldItsThreadsAndDebugFlag) {
  const json doc = doctor_json(merge({e2e::sysroot_env("colab-cpu"), e2e::fake_torch_env("debian-cpu")}));
  // Through the real probe script and the fake torch: no torch.backends.cpu, so the capability comes from
  // torch.__config__.show(), as on torch 1.13.
  EXPECT_EQ(doc["torch"]["num_threads"], 1);
  EXPECT_EQ(doc["torch"]["num_interop_threads"], 1);
  EXPECT_EQ(doc["torch"]["cpu_capability"], "AVX2");
  EXPECT_EQ(doc["torch"]["blas"], "generic");
  EXPECT_EQ(doc["torch"]["debug"], true);
  bool numpy = false;
  for (const auto& p : doc["python"]["packages"]) numpy |= p["name"] == "numpy" && p["version"] == "1.26.4";
  EXPECT_TRUE(numpy) << doc["python"].dump(2);  // the fake's dist-info, read by importlib.metadata
  EXPECT_TRUE(doc["python"]["build"].is_string()) << doc["python"].dump(2);
  EXPECT_TRUE(finding(doc, "torch-debug-build")) << doc["verdict"].dump(2);
  // Colab's 2 vCPUs are one physical core: PyTorch's single thread is its default there, nothing to tell.
  EXPECT_EQ(doc["cpu"]["physical_cores"], 1);
  EXPECT_FALSE(finding(doc, "torch-few-threads")) << doc["verdict"].dump(2);
}
