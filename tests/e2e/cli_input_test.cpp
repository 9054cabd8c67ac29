// Hostile command-line input, end to end: every value a user types is checked before any work starts. Each case
// was accepted once: `--timeout nan` reported a healthy GPU as hung, `--batch -1` was a batch of 2^64 - 1,
// `--gpus 0` was one GPU, `--vram ''` was "not given", `--budget 1500,00EUR` was 150000 euros, and a saved bench
// file with `"model": 5` was a JSON type error (exit 1) in `bench --compare` while `report --compare` drew it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "e2e_support.hpp"

namespace {

using e2e::kCpuBench;
using e2e::kGpuBench;

using e2e::read_file;

std::string join(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + (a.empty() ? std::string("''") : a);
  return out;
}

/// Exit 2 before any work, with an error that contains `says`.
void expect_refused(const std::vector<std::string>& args, const std::string& says) {
  const auto r = e2e::run_gpuscout(args, e2e::sysroot_env("no-gpu-vm"));
  EXPECT_EQ(r.exit_code, 2) << join(args) << "\n" << r.out << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << join(args) << ": " << r.err;
}

}  // namespace

TEST(CliInput, FloatingOptionsMustBeFiniteAndInRange) {
  for (const char* cmd : {"doctor", "info", "report"})
    for (const char* bad : {"nan", "NaN", "inf", "-inf", "1e999", "0", "121", "x", "0x10"})
      expect_refused({cmd, "--no-python", "--timeout", bad}, "--timeout: '" + std::string(bad) + "' is not a number");
  for (const char* bad : {"nan", "inf", "-1", "11", "cheap"})
    expect_refused({"advise", "--no-probe", "--tariff", bad}, "--tariff: '" + std::string(bad) + "'");
  for (const char* bad : {"nan", "inf", "-1", "0", "169"})
    expect_refused({"advise", "--no-probe", "--hours-per-week", bad}, "--hours-per-week: '" + std::string(bad) + "'");
  // What stays accepted: a healthy GPU with a normal timeout, a free electricity tariff.
  const auto ok = e2e::run_gpuscout({"doctor", "--json", "--no-python", "--timeout", "2.5"},
                                    e2e::merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm")}));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out.find("driver-probe-timeout"), std::string::npos);
  EXPECT_EQ(e2e::run_gpuscout({"advise", "--no-probe", "--tariff", "0", "--hours-per-week", "0.5"}).exit_code, 0);
}

TEST(CliInput, CountOptionsRefuseZeroNegativesAndOverflow) {
  const std::vector<std::string> fit = {"fit", "--model", "llama-3-8b", "--vram", "24G"};
  const std::pair<const char*, const char*> cases[] = {
      {"--gpus", "0"},     {"--gpus", "-1"},     {"--gpus", "4097"},  {"--gpus", "1.5"},
      {"--batch", "-1"},   {"--batch", "0"},     {"--batch", "2e3"},  {"--batch", "18446744073709551616"},
      {"--batch", "+4"},   {"--lora-rank", "0"}, {"--lora-rank", "-16"}, {"--lora-rank", "65537"},
  };
  for (const auto& [option, value] : cases) {
    auto args = fit;
    args.insert(args.end(), {option, value});
    expect_refused(args, std::string(option) + ": '" + value + "' is not a whole number from 1 to");
  }
  for (const char* bad : {"0", "-1", "1001"}) expect_refused({"advise", "--no-probe", "--top", bad}, "--top:");
  // A leading zero is decimal, not octal: "010" is ten.
  auto args = fit;
  args.insert(args.end(), {"--batch", "010", "--json"});
  const auto r = e2e::run_gpuscout(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["workload"]["batch"], 10);
}

TEST(CliInput, AnEmptyValueIsAnErrorForEveryOption) {
  const std::vector<std::vector<std::string>> cases = {
      {"doctor", "--from"}, {"info", "--from"}, {"device", "--from"},
      {"fit", "--vram"}, {"fit", "--gpu"}, {"fit", "--model"}, {"fit", "--config"}, {"fit", "--params"},
      {"fit", "--from"}, {"fit", "--dtype"}, {"fit", "--context"}, {"fit", "--mode"}, {"fit", "--strategy"},
      {"fit", "--kv-dtype"}, {"fit", "--optimizer"}, {"fit", "--lora-targets"}, {"fit", "--convention"},
      {"fit", "--gpus"}, {"fit", "--batch"},
      {"advise", "--budget"}, {"advise", "--goal"}, {"advise", "--need-vram"}, {"advise", "--model"},
      {"advise", "--mode"}, {"advise", "--prices"}, {"advise", "--from"}, {"advise", "--tariff"},
      {"platforms", "--gpu"}, {"platforms", "--from"},
      {"report", "--html"}, {"report", "--from"}, {"report", "--bench"}, {"report", "--model"},
      {"report", "--config"}, {"report", "--budget"}, {"report", "--goal"}, {"report", "--timeout"},
      {"bench", "--save"}, {"bench", "--device"}, {"bench", "--dtype"}, {"bench", "--size"},
  };
  for (const auto& c : cases) expect_refused({c[0], c[1], ""}, c[1] + ": empty value");
  expect_refused({"report", "--compare", kCpuBench, ""}, "--compare: empty value");
  expect_refused({"bench", "--compare", "", kCpuBench}, "--compare: empty value");
  EXPECT_EQ(e2e::run_gpuscout({"--data", "", "fit", "--list-models"}).exit_code, 2);
}

TEST(CliInput, BudgetsReadDecimalCommasAndRefuseAmbiguousForms) {
  auto usd = [](const std::string& budget) {
    const auto r = e2e::run_gpuscout({"advise", "--no-probe", "--json", "--budget", budget});
    EXPECT_EQ(r.exit_code, 0) << budget << ": " << r.err;
    return r.exit_code == 0 ? r.json()["budget_usd"].get<double>() : -1.0;
  };
  const double eur = usd("1500EUR");
  EXPECT_GT(eur, 1000);
  EXPECT_DOUBLE_EQ(usd("1500,00EUR"), eur);  // was 150000 EUR
  EXPECT_DOUBLE_EQ(usd("1.500,00EUR"), eur);
  EXPECT_DOUBLE_EQ(usd("1,500"), usd("1500"));
  EXPECT_DOUBLE_EQ(usd("12,345.50"), 12345.5);
  for (const char* bad : {"1,5EUR", "1.500EUR", "1,50,000", "15,00,00"}) {
    expect_refused({"advise", "--no-probe", "--budget", bad}, std::string("budget '") + bad + "'");
    expect_refused({"report", "--no-python", "--budget", bad}, std::string("budget '") + bad + "'");
  }
}

TEST(CliInput, AWrongTypedBenchFileIsTheSameErrorInEveryCommand) {
  const std::string dir = e2e::temp_dir();
  auto doc = nlohmann::json::parse(read_file(kGpuBench));
  doc["cpu"]["model"] = 5;
  const std::string model = dir + "/model.json";
  std::ofstream(model) << doc.dump();
  doc = nlohmann::json::parse(read_file(kGpuBench));
  doc["gpus"][0]["gemm"][2]["tflops"] = "fast";
  const std::string tflops = dir + "/tflops.json";
  std::ofstream(tflops) << doc.dump();

  const std::string says = model + ": field cpu.model: expected a string, got 5";
  expect_refused({"bench", "--compare", kCpuBench, model}, says);
  expect_refused({"report", "--no-python", "--compare", kCpuBench, model}, says);
  expect_refused({"report", "--no-python", "--bench", model}, says);
  const std::string html = dir + "/out.html";
  expect_refused({"report", "--no-python", "--html", html, "--compare", tflops, kGpuBench},
                 tflops + ": field gpus[0].gemm[2].tflops: expected a number, got a string");
  std::ifstream left(html);
  EXPECT_FALSE(left.good()) << "nothing written for a bad input";
  // The saved files as they are still compare and render.
  const auto ok = e2e::run_gpuscout({"bench", "--compare", kCpuBench, kGpuBench});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("GPU 0 device copy"), std::string::npos) << ok.out;
}
