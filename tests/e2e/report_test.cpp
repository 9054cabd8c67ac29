// `gpuscout report` end to end: the HTML page and the Markdown block from recorded machines and saved
// benchmarks, and bad input (exit 2, nothing partial left). It also writes the pages the headless-browser test
// (tests/browser/check_report.py, CTest browser.*) opens, under <build>/browser/.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;

using e2e::kCpuBench;
using e2e::kGpuBench;

using e2e::read_file;

std::string browser_dir() {
  const std::string dir = GPUSCOUT_BINARY_DIR "/browser";
  fs::create_directories(dir);
  return dir;
}

using e2e::occurrences;

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

TEST(ReportPage, HtmlForAGpuMachineWithItsBenchmark) {
  const std::string out = browser_dir() + "/gpu-machine.html";
  fs::remove(out);
  const auto r = e2e::run_gpuscout({"report", "--html", out, "--no-python", "--bench", kGpuBench, "--budget", "2000"},
                                   e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("report written to"), std::string::npos);
  const std::string page = read_file(out);
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("</html>"), std::string::npos);
  for (const char* id : {"id=\"verdict\"", "id=\"machine\"", "id=\"bench\"", "id=\"memory\"", "id=\"advice\"",
                         "id=\"gemm-cpu\"", "id=\"gemm-gpu-0\"", "id=\"bandwidth\"", "id=\"speedup\"",
                         "id=\"memory-plan-0\"", "id=\"advice\""})
    EXPECT_NE(page.find(id), std::string::npos) << id;
  EXPECT_NE(page.find("NVIDIA GeForce RTX 4090"), std::string::npos);
  EXPECT_EQ(occurrences(page, "class=\"chart empty\""), 0u);
  EXPECT_NE(page.find("within 2000 USD"), std::string::npos);
}

// The page in Chinese (browser.zh-machine checks it at phone width, with a CJK font): its lang attribute, its
// headings and the verdict in Chinese; commands as <code>, never as raw backticks.
TEST(ReportPage, HtmlInChinese) {
  const std::string out = browser_dir() + "/zh-machine.html";
  fs::remove(out);
  const auto r = e2e::run_gpuscout({"--lang", "zh", "report", "--html", out, "--no-python", "--bench", kGpuBench,
                                    "--budget", "2000"},
                                   e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("报告已写入"), std::string::npos) << r.err;
  const std::string page = read_file(out);
  EXPECT_NE(page.find("<html lang=\"zh-CN\">"), std::string::npos);
  for (const char* zh : {"<h2>这台机器</h2>", "<h2>速度有多快</h2>", "<h2>能装下多大的模型</h2>", "训练脚本应使用"})
    EXPECT_NE(page.find(zh), std::string::npos) << zh;
  EXPECT_NE(page.find("Noto Sans CJK SC"), std::string::npos);
  const size_t body = page.find("<section id=\"verdict\">");
  const size_t end = page.find("</section>", body);
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(page.substr(body, end - body).find('`'), std::string::npos) << page.substr(body, end - body);
  EXPECT_NE(page.substr(body, end - body).find("<code>"), std::string::npos);

  const std::string en = browser_dir() + "/en-lang.html";
  const auto english = e2e::run_gpuscout({"--lang", "en", "report", "--html", en, "--no-python"},
                                         e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(english.exit_code, 0) << english.err;
  EXPECT_NE(read_file(en).find("<html lang=\"en\">"), std::string::npos);
  EXPECT_NE(read_file(en).find("<h2>This machine</h2>"), std::string::npos);
  fs::remove(en);
}

TEST(ReportPage, HtmlForAMachineWithoutGpuSaysSo) {
  const std::string out = browser_dir() + "/no-gpu.html";
  fs::remove(out);
  const auto r = e2e::run_gpuscout({"report", "--html", out, "--no-python", "--bench", kCpuBench},
                                   e2e::sysroot_env("no-gpu-vm"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_file(out);
  EXPECT_NE(page.find("id=\"gemm-cpu\""), std::string::npos);
  EXPECT_NE(page.find("No GPU found"), std::string::npos);
  EXPECT_NE(page.find("class=\"chart empty\" data-chart=\"gemm\" id=\"gemm-gpu\""), std::string::npos);
  EXPECT_NE(page.find("class=\"chart empty\" data-chart=\"memory-plan\""), std::string::npos);
  EXPECT_NE(page.find("class=\"chart empty\" data-chart=\"speedup\""), std::string::npos);
}

// A GPU whose name is markup and Chinese text, from the driver and from the benchmark file: the page must show it
// as text (browser.hostile-name checks that in Chromium) and the paste block must not turn it into HTML.
TEST(ReportPage, HostileGpuNamesAreShownAsText) {
  const std::string hostile = "<script>alert(1)</script> 七彩虹 iGame \"RTX\" 4090 D";
  std::string bench = read_file(kGpuBench);
  const std::string plain = "\"name\": \"NVIDIA GeForce RTX 4090\"";
  ASSERT_NE(bench.find(plain), std::string::npos);
  bench.replace(bench.find(plain), plain.size(), "\"name\": \"<img src=x onerror=alert(2)> 显卡\"");
  const std::string bench_file = e2e::temp_dir() + "/hostile-bench.json";
  std::ofstream(bench_file) << bench;
  const std::string out = browser_dir() + "/hostile-name.html";
  fs::remove(out);
  const auto env = e2e::fake_driver_env("hostile-name");
  const auto r = e2e::run_gpuscout({"report", "--html", out, "--no-python", "--bench", bench_file}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_file(out);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img src=x"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; 七彩虹 iGame &quot;RTX&quot; 4090 D"), std::string::npos);
  const auto md = e2e::run_gpuscout({"report", "--markdown", "--no-python"}, env);
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("<script>"), std::string::npos);
  EXPECT_NE(md.out.find("七彩虹 iGame"), std::string::npos);
}

TEST(ReportPage, CompareDrawsSavedRunsSideBySide) {
  const std::string out = browser_dir() + "/compare.html";
  fs::remove(out);
  const auto r = e2e::run_gpuscout({"report", "--html", out, "--no-python", "--compare", kCpuBench, kGpuBench},
                                   e2e::sysroot_env("no-gpu-vm"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_file(out);
  for (const char* id : {"id=\"compare\"", "id=\"compare-gemm\"", "id=\"compare-bandwidth\"", "id=\"compare-speedup\""})
    EXPECT_NE(page.find(id), std::string::npos) << id;
  EXPECT_NE(page.find("cpu-only-zen5-vm.json"), std::string::npos);
  EXPECT_NE(page.find("rtx4090-fake-plugin.json"), std::string::npos);

  // Two files of the same name from different folders keep apart in the legend.
  const std::string a = e2e::temp_dir(), b = e2e::temp_dir();
  fs::copy_file(kCpuBench, a + "/bench.json");
  fs::copy_file(kGpuBench, b + "/bench.json");
  const std::string out2 = e2e::temp_dir() + "/same-names.html";
  ASSERT_EQ(e2e::run_gpuscout({"report", "--html", out2, "--no-python", "--compare", a + "/bench.json", b + "/bench.json"},
                              e2e::sysroot_env("no-gpu-vm")).exit_code, 0);
  EXPECT_NE(read_file(out2).find(a + "/bench.json"), std::string::npos);
  EXPECT_NE(read_file(out2).find(b + "/bench.json"), std::string::npos);
}

TEST(Report, UsesTheLastBenchOfThisMachineAndNeverForAnotherOne) {
  // The kept run is of this machine: the fixture's GPUs are the fake driver's, and its CPU is made this machine's
  // (the fixture was recorded on another CPU, which the report rightly notices).
  const std::string state = e2e::temp_dir();
  const auto here = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::fake_driver_env("rtx4090")).json();
  auto kept = nlohmann::json::parse(read_file(kGpuBench));
  if (here["cpu"]["model"].is_string()) kept["cpu"]["model"] = here["cpu"]["model"];
  std::ofstream(state + "/last-bench.json") << kept.dump(1);
  const std::string out = e2e::temp_dir() + "/r.html";
  auto r = e2e::run_gpuscout({"report", "--html", out, "--no-python"},
                             e2e::merge({e2e::fake_driver_env("rtx4090"), {{"GPUSCOUT_STATE_DIR", state}}}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(out).find("The last `gpuscout bench` of this machine"), std::string::npos);
  EXPECT_NE(read_file(out).find("id=\"gemm-gpu-0\""), std::string::npos);
  EXPECT_EQ(read_file(out).find("does not look like this machine"), std::string::npos);

  // A shared home folder: the kept run came from a node with other GPUs.
  r = e2e::run_gpuscout({"report", "--html", out, "--no-python"},
                        e2e::merge({e2e::fake_driver_env("two-mixed"), {{"GPUSCOUT_STATE_DIR", state}}}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(out).find("does not look like this machine: its GPUs are NVIDIA GeForce RTX 4090"), std::string::npos);

  const auto saved = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::sysroot_env("no-gpu-vm"));
  ASSERT_EQ(saved.exit_code, 0);
  const std::string inv = e2e::temp_dir() + "/inv.json";
  std::ofstream(inv) << saved.out;
  r = e2e::run_gpuscout({"report", "--html", out, "--from", inv}, {{"GPUSCOUT_STATE_DIR", state}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(out).find("with --from, pass that machine"), std::string::npos);
  EXPECT_EQ(read_file(out).find("id=\"gemm-gpu-0\""), std::string::npos);
}

TEST(Report, BenchKeepsItsLastResultForTheReport) {
  const std::string state = e2e::temp_dir() + "/state";
  const auto r = e2e::run_gpuscout({"bench", "--device", "cpu", "--size", "64", "--dtype", "fp32"},
                                   {{"GPUSCOUT_STATE_DIR", state}}, 120000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(state + "/last-bench.json").find("\"schema\": \"gpuscout.bench/1\""), std::string::npos);
}

TEST(Report, MarkdownIsTheDefaultAndPrintsTheVersionsAndGpus) {
  const auto r = e2e::run_gpuscout({"report", "--no-python"}, e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RTX 4090"), std::string::npos);
  EXPECT_NE(r.out.find("8.9"), std::string::npos);
  EXPECT_NE(r.out.find("gpuscout"), std::string::npos);
  const auto file = e2e::temp_dir() + "/issue.md";
  const auto w = e2e::run_gpuscout({"report", "--markdown", file, "--no-python"}, e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  // The same block (after the heading, which carries the collection time) went to the file.
  auto body = [](const std::string& md) { return md.substr(std::min(md.size(), md.find('\n'))); };
  EXPECT_EQ(body(read_file(file)), body(r.out));
  EXPECT_GT(body(r.out).size(), 200u);

  // Both at once: the page to a file and the block on standard output.
  const auto page = e2e::temp_dir() + "/both.html";
  const auto both = e2e::run_gpuscout({"report", "--html", page, "--markdown", "--no-python"}, e2e::fake_driver_env("rtx4090"));
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(body(both.out), body(r.out));
  EXPECT_NE(read_file(page).find("</html>"), std::string::npos);
}

TEST(Report, MarkdownLeavesOutTheHomeFolderAndUserUnlessAsked) {
  // Python lives in a virtual environment under the user's home, as it often does; its path is in the inventory.
  const std::string home = e2e::temp_dir() + "/home/alicewonder";
  fs::create_directories(home + "/venv/bin");
  fs::create_symlink("/usr/bin/python3", home + "/venv/bin/python3");
  const std::string user = "alicewonder";
  const auto env = e2e::merge({e2e::fake_driver_env("rtx4090"), e2e::fake_torch_env("cu121-ok"),
                               {{"HOME", home}, {"USER", user}, {"LOGNAME", user},
                                {"GPUSCOUT_PYTHON", home + "/venv/bin/python3"}}});
  const auto shared = e2e::run_gpuscout({"report", "--markdown"}, env);
  ASSERT_EQ(shared.exit_code, 0) << shared.err;
  EXPECT_EQ(shared.out.find(home), std::string::npos) << shared.out;
  EXPECT_EQ(shared.out.find(user), std::string::npos) << shared.out;
  EXPECT_EQ(shared.out.find("GPU-"), std::string::npos);  // NVML UUIDs look like GPU-xxxxxxxx-...
  // The same run with --include-private shows them: the test above can fail.
  const auto mine = e2e::run_gpuscout({"report", "--markdown", "--include-private"}, env);
  ASSERT_EQ(mine.exit_code, 0) << mine.err;
  EXPECT_NE(mine.out.find(user), std::string::npos) << mine.out;
  EXPECT_NE(mine.out.find("GPU-"), std::string::npos) << mine.out;
  // The HTML page follows the same rule.
  const std::string page = e2e::temp_dir() + "/p.html";
  ASSERT_EQ(e2e::run_gpuscout({"report", "--html", page}, env).exit_code, 0);
  EXPECT_EQ(read_file(page).find(user), std::string::npos);
}

TEST(Report, BadInputNamesTheInputAndLeavesNothingBehind) {
  const std::string dir = e2e::temp_dir();
  const std::string out = dir + "/out.html";
  std::ofstream(dir + "/broken.json") << "{\"schema\": \"gpuscout.bench/1\", ";
  std::ofstream(dir + "/other.json") << "{\"schema\": \"gpuscout.inventory/1\"}";

  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--bench", dir + "/missing.json"}, "missing.json"},
      {{"--bench", dir + "/broken.json"}, "broken.json: line 1 column 32: not valid JSON"},
      {{"--bench", dir + "/other.json"}, "other.json"},
      {{"--bench", dir}, "is a folder"},
      {{"--bench", "/dev/zero"}, "not a regular file"},  // an error, never an endless read
      {{"--compare", kGpuBench}, "two or more"},
      {{"--compare", kGpuBench, dir + "/broken.json"}, "broken.json"},
      {{"--model", "no-such-model-xyz"}, "no-such-model-xyz"},
      {{"--budget", "-5"}, "--budget"},
      {{"--goal", "fun"}, "--goal"},
      {{"--from", dir + "/missing-inventory.json"}, "missing-inventory.json"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"report", "--html", out, "--no-python"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = e2e::run_gpuscout(args);
    EXPECT_EQ(r.exit_code, 2) << c.args.front() << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(out));

  // An output that cannot be written: exit 2, the path named, no temporary file left.
  const auto r = e2e::run_gpuscout({"report", "--html", dir + "/no/such/dir/out.html", "--no-python"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no/such/dir/out.html"), std::string::npos) << r.err;
  const auto ro = e2e::run_gpuscout({"report", "--markdown", "/proc/version", "--no-python"});
  EXPECT_EQ(ro.exit_code, 2);
  const auto left = entries(dir);
  EXPECT_EQ(left.size(), 2u) << "left behind: " << ::testing::PrintToString(left);
}

TEST(Report, AFullDiskBehindStdoutIsAnError) {
  // /dev/full accepts the open and fails every write with ENOSPC: the exit code must say so.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open("/dev/full", O_WRONLY);
    if (fd < 0) ::_exit(99);
    ::dup2(fd, STDOUT_FILENO);
    ::setenv("GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    ::setenv("GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    ::execl(GPUSCOUT_BIN, GPUSCOUT_BIN, "report", "--markdown", "--no-python", static_cast<char*>(nullptr));
    ::_exit(98);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}
