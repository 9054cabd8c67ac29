// `--data DIR` / GPUSCOUT_DATA_DIR end to end: damaged tables (one bad cell in a copy of the real one), tables
// that are not files, folders that are not folders, and the global option before and after the default command.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(GPUSCOUT_SOURCE_DIR) / "data";

std::string read(const fs::path& p) { return e2e::read_file(p.string()); }

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

/// A data folder holding `table` copied from data/ with the first `from` after its header line replaced by
/// `to`; `where` receives "DIR/TABLE:LINE:COLUMN" of the replaced text after its first `skip` characters (the
/// delimiters that make `from` match a whole cell), counted here independently of gpuscout.
std::string damaged(const std::string& table, const std::string& from, const std::string& to,
                    std::string* where = nullptr, size_t skip = 0) {
  const std::string dir = e2e::temp_dir();
  std::string text = read(kData / table);
  size_t pos = text.find(from, text.find('\n'));
  EXPECT_NE(pos, std::string::npos) << from << " not in " << table;
  if (pos == std::string::npos) return dir;
  text.replace(pos, from.size(), to);
  write(fs::path(dir) / table, text);
  pos += skip;
  const size_t line_start = text.rfind('\n', pos - 1) + 1;
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
  if (where) *where = fmt::format("{}/{}:{}:{}", dir, table, line, pos - line_start + 1);
  return dir;
}

/// Replaces the first whole cell `from` (",from,") by `to`.
std::string damaged_cell(const std::string& table, const std::string& from, const std::string& to,
                         std::string* where) {
  return damaged(table, "," + from + ",", "," + to + ",", where, 1);
}

void expect_usage_error(const e2e::Run& r, const std::string& text) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.err.find(text), std::string::npos) << "want: " << text << "\ngot: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

}  // namespace

// Each used to crash doctor and report in choose_torch (SIGSEGV; heap-use-after-free for torch=abc).
TEST(DataOverride, BadTorchBuildCellIsAnErrorWithFileLineColumn) {
  const auto gpu = e2e::fake_driver_env("rtx4090");
  for (const char* bad : {"cu126", "-1", "x", "inf", "NaN"}) {
    std::string where;
    const auto dir = damaged_cell("torch_builds.csv", "12.6", bad, &where);
    const auto doctor = e2e::run_gpuscout({"--data", dir, "doctor", "--no-python"}, gpu);
    expect_usage_error(doctor, fmt::format("gpuscout: error: --data {}: {}: cuda '{}' is not a version like 12.8",
                                           dir, where, bad));
    const auto report = e2e::run_gpuscout({"report", "--no-python", "--data", dir}, gpu);
    expect_usage_error(report, fmt::format("{}: cuda '{}' is not a version like 12.8", where, bad));
  }
  std::string where;
  const auto dir = damaged("torch_builds.csv", "\n2.7,", "\nabc,", &where, 1);
  const auto r = e2e::run_gpuscout({"doctor", "--no-python"}, e2e::merge({gpu, {{"GPUSCOUT_DATA_DIR", dir}}}));
  expect_usage_error(r, "GPUSCOUT_DATA_DIR=" + dir + ": ");
  EXPECT_NE(r.err.find("torch 'abc' is not a version like 2.7"), std::string::npos) << r.err;
}

TEST(DataOverride, EveryTableChecksItsTypedCells) {
  struct Case {
    const char* table;
    const char* from;
    const char* to;
    const char* says;
  };
  const Case cases[] = {
      {"gpus.csv", "2016", "-1", "launch_year '-1' is not a whole number from 1990 to 2100"},
      {"gpus.csv", "112", "nan", "memory_bandwidth_gbs 'nan' is not a number from 0.001 to 100000"},
      {"cuda_driver.csv", "GA", "", "release is empty; it must be filled in"},
      {"cuda_driver.csv", "610.43.02", "610.x", "linux_min_driver '610.x' is not a version like 570.26"},
      {"compute_capability.csv", "sm_30", "", "sm is empty; it must be filled in"},
      {"platforms.csv", "0", "inf", "usd_per_hour 'inf' is not a number from 0 to 100000"},
      {"exchange_rates.csv", "0.87604", "1e999", "units_per_usd '1e999' is not a number from 0.0001 to 10000000"},
      {"models.csv", "124439808", "-5", "params '-5' is not a whole number from 1 to 1125899906842624"},
      {"torch_builds.csv", "stable", "beta", "channel 'beta' is not one of stable, experimental"},
  };
  for (const auto& c : cases) {
    std::string where;
    const auto dir = damaged_cell(c.table, c.from, c.to, &where);
    // advise reads every table a user might damage; the check runs before it.
    const auto r = e2e::run_gpuscout({"--data", dir, "advise"});
    expect_usage_error(r, fmt::format("{}: {}", where, c.says));
  }
  // Cells at the start of a line.
  std::string where;
  auto dir = damaged("gpus.csv", "\nnvidia,", "\nnvida,", &where, 1);
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}),
                     where + ": vendor 'nvida' is not one of nvidia, amd, intel");
  dir = damaged("platforms.csv", "\nfree,", "\ngratis,", &where, 1);
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "platforms"}), where + ": kind 'gratis' is not one of free, paid");
  dir = damaged("compute_capability.csv", "\n3.0,", "\n3.x,", &where, 1);
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "platforms"}), where + ": cc '3.x' is not a version like 8.6");
}

// These used to print "catalogue ," and "Buy: (none)" with exit 0.
TEST(DataOverride, EmptyBinaryOrShortTablesAreErrors) {
  const std::string dir = e2e::temp_dir();
  write(fs::path(dir) / "gpus.csv", "");
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}), dir + "/gpus.csv:1:1: empty file");

  write(fs::path(dir) / "gpus.csv", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}), dir + "/gpus.csv:1:8: a NUL byte");

  write(fs::path(dir) / "gpus.csv", read(kData / "gpus.csv").substr(0, read(kData / "gpus.csv").find('\n') + 1));
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}), dir + "/gpus.csv: the table has a header line but no rows");

  std::string text = read(kData / "gpus.csv");
  text.replace(text.find(",tdp_w,"), 7, ",tdp,");
  write(fs::path(dir) / "gpus.csv", text);
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}), dir + "/gpus.csv:1:1: missing column(s) tdp_w");
}

// A FIFO used to hang; /dev/zero (through a link) used to eat memory without bound.
TEST(DataOverride, TablesThatAreNotFilesAreRefused) {
  const std::string dir = e2e::temp_dir();
  ASSERT_EQ(::mkfifo((fs::path(dir) / "gpus.csv").c_str(), 0600), 0);
  expect_usage_error(e2e::run_gpuscout({"--data", dir, "advise"}, {}, 20000), dir + "/gpus.csv: not a regular file");

  const std::string zero = e2e::temp_dir();
  fs::create_symlink("/dev/zero", fs::path(zero) / "models.csv");
  expect_usage_error(e2e::run_gpuscout({"--data", zero, "fit", "--vram", "24G"}, {}, 20000),
                     zero + "/models.csv: not a regular file");

  const std::string folder = e2e::temp_dir();
  fs::create_directory(fs::path(folder) / "platforms.csv");
  expect_usage_error(e2e::run_gpuscout({"--data", folder, "platforms"}), folder + "/platforms.csv: is a folder");

  const std::string big = e2e::temp_dir();
  write(fs::path(big) / "torch_builds.csv", "x");
  fs::resize_file(fs::path(big) / "torch_builds.csv", 17u << 20);
  expect_usage_error(e2e::run_gpuscout({"--data", big, "doctor"}), big + "/torch_builds.csv: larger than 16 MiB");
}

TEST(DataOverride, FolderThatIsMissingOrAFile) {
  expect_usage_error(e2e::run_gpuscout({"--data", "/nonexistent/gpuscout-data", "fit", "--vram", "24G"}),
                     "gpuscout: error: --data /nonexistent/gpuscout-data: no such folder");
  const std::string dir = e2e::temp_dir();
  write(fs::path(dir) / "file", "x");
  expect_usage_error(e2e::run_gpuscout({"fit", "--vram", "24G"}, {{"GPUSCOUT_DATA_DIR", dir + "/file"}}),
                     "gpuscout: error: GPUSCOUT_DATA_DIR=" + dir + "/file: not a folder");
}

// `gpuscout --data DIR fit ...` and `gpuscout --data DIR` used to fail: DIR was taken for the command.
TEST(DataOverride, GlobalOptionBeforeTheCommandOrWithoutOne) {
  const std::string good = e2e::temp_dir();
  fs::copy_file(kData / "gpus.csv", fs::path(good) / "gpus.csv");
  std::string where;
  const auto bad = damaged_cell("gpus.csv", "2016", "-1", &where);

  const auto plain = e2e::run_gpuscout({"--no-python"});
  const auto with_data = e2e::run_gpuscout({"--data", good, "--no-python"});
  EXPECT_EQ(with_data.exit_code, plain.exit_code) << with_data.err;
  EXPECT_EQ(with_data.err.find("not expected"), std::string::npos) << with_data.err;
  EXPECT_NE(with_data.out.find("PyTorch"), std::string::npos) << with_data.out;  // doctor ran
  expect_usage_error(e2e::run_gpuscout({"--data", bad}), where);                 // and DIR was read

  const auto fit = e2e::run_gpuscout({"--data", good, "fit", "--vram", "24G"});
  EXPECT_EQ(fit.exit_code, 0) << fit.err;
  expect_usage_error(e2e::run_gpuscout({"--data", bad, "fit", "--vram", "24G"}), where);

  const auto doctor = e2e::run_gpuscout({"--data=" + good, "doctor", "--json", "--no-python"});
  EXPECT_EQ(doctor.exit_code, plain.exit_code) << doctor.err;
  EXPECT_TRUE(doctor.json().is_object());
  expect_usage_error(e2e::run_gpuscout({"--data=" + bad, "doctor", "--json"}), where);
  expect_usage_error(e2e::run_gpuscout({"--data=" + bad, "--json"}), where);  // default command, = form

  const auto env = e2e::run_gpuscout({"fit", "--vram", "24G"}, {{"GPUSCOUT_DATA_DIR", good}});
  EXPECT_EQ(env.exit_code, 0) << env.err;
  expect_usage_error(e2e::run_gpuscout({"--no-python"}, {{"GPUSCOUT_DATA_DIR", bad}}), where);
  EXPECT_EQ(e2e::run_gpuscout({"--data", good, "--version"}).exit_code, 0);
}

// `gpuscout --data-info` / `gpuscout data`: each table's rows, dates and sources, and which are stale.
TEST(DataInfo, EveryTableWithItsDatesRowsAndSources) {
  const auto r = e2e::run_gpuscout({"--data-info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = r.json();
  EXPECT_EQ(doc["schema"], "gpuscout.data/1");
  EXPECT_EQ(doc["today"], "2026-12-02");  // GPUSCOUT_TODAY of the e2e environment
  size_t csvs = 0;
  for (const auto& entry : fs::directory_iterator(kData)) csvs += entry.path().extension() == ".csv" ? 1 : 0;
  ASSERT_EQ(doc["tables"].size(), csvs);
  for (const auto& t : doc["tables"]) {
    EXPECT_TRUE(t["built_in"].get<bool>()) << t.dump();
    EXPECT_GT(t["rows"].get<int>(), 0) << t.dump();
    EXPECT_GT(t["sources"].get<int>(), 0) << t.dump();  // every row names a SOURCES.md key
    EXPECT_EQ(t["undated_rows"], 0) << t.dump();
    EXPECT_LE(t["oldest"].get<std::string>(), t["newest"].get<std::string>());
  }
  const auto text = e2e::run_gpuscout({"data"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("gpus.csv"), std::string::npos) << text.out;
  // After a command's name it is not the global flag: an error, not a silently ignored word.
  const auto misplaced = e2e::run_gpuscout({"fit", "--vram", "24G", "--data-info"});
  EXPECT_EQ(misplaced.exit_code, 2);
  EXPECT_NE(misplaced.err.find("gpuscout --data-info"), std::string::npos) << misplaced.err;
}

TEST(DataInfo, AnOldOverrideTableIsStaleAndAdviseSaysSo) {
  const std::string dir = e2e::temp_dir();
  std::string rates = read(kData / "exchange_rates.csv");
  std::string old;
  std::istringstream lines(rates);
  for (std::string line; std::getline(lines, line);) {
    if (!old.empty() && line.size() > 10) line.replace(line.size() - 10, 10, "2019-01-02");  // every row's date
    old += line + "\n";
  }
  write(fs::path(dir) / "exchange_rates.csv", old);
  const auto info = e2e::run_gpuscout({"--data", dir, "data", "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  bool seen = false;
  const auto doc = info.json();
  for (const auto& t : doc["tables"]) {
    if (t["name"] != "exchange_rates.csv") continue;
    seen = true;
    EXPECT_FALSE(t["built_in"].get<bool>());
    EXPECT_TRUE(t["stale"].get<bool>());
    EXPECT_EQ(t["newest"], "2019-01-02");
  }
  EXPECT_TRUE(seen);
  const auto advice = e2e::run_gpuscout({"--data", dir, "advise", "--budget", "1000EUR", "--no-probe", "--json"});
  ASSERT_EQ(advice.exit_code, 0) << advice.err;
  const std::string warnings = advice.json()["warnings"].dump();
  EXPECT_NE(warnings.find("exchange rates date from 2019-01-02"), std::string::npos) << warnings;
  // The same tables a week after their newest row: no warning.
  const auto fresh = e2e::run_gpuscout({"--data", dir, "advise", "--budget", "1000EUR", "--no-probe", "--json"},
                                       {{"GPUSCOUT_TODAY", "2019-01-09"}});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_EQ(fresh.json()["warnings"].dump().find("exchange rates date"), std::string::npos);
}
