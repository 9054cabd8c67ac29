// libFuzzer target: any bytes as a CSV table: the parser itself, then the same bytes as each data table that is
// read afresh on every use through `--data DIR` (exchange_rates.csv, platforms.csv, models.csv) and as a
// `--prices` file, followed by what reads those tables: money parsing, offers, `platforms`, the model catalogue
// and its estimates, and diagnose's advice for a machine without a GPU (it quotes platforms.csv).
// The GPU, CUDA-driver, PyTorch-build and compute-capability tables are loaded once per process, so a fuzzer
// cannot swap them per input; the e2e tests run the CLI on damaged copies of them instead.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "advise/advise.hpp"
#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "diagnose/diagnose.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "report/platforms_render.hpp"

namespace {

using namespace gpuscout;

/// A --data folder of this process, removed at exit.
struct DataDir {
  std::string path;
  DataDir() {
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpuscout-fuzz-data-XXXXXX";
    if (!::mkdtemp(path.data())) std::abort();
    core::set_data_dir(path);
  }
  ~DataDir() {
    for (const char* name : kTables) std::remove((path + "/" + name).c_str());
    std::remove(path.c_str());
  }
  void write(std::string_view bytes) const {
    for (const char* name : kTables) {
      std::ofstream out(path + "/" + name, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out) std::abort();
    }
  }
  static constexpr const char* kTables[] = {"exchange_rates.csv", "platforms.csv", "models.csv"};
};

void table_ops(const csv::Table& table) {
  for (const auto& name : table.header()) (void)table.column(name);
  (void)table.require_columns({"name", "price", "currency"});
  for (const auto& row : table.rows())
    for (const auto& name : table.header()) (void)table.cell(row, name);
}

void tables_through_data_dir(std::string_view text) {
  static const auto builtin_rates = advise::load_rates();  // before the folder exists: the embedded table
  static DataDir dir;
  dir.write(text);
  if (auto rates = advise::load_rates()) {
    for (const char* money : {"1500", "7000 CNY", "€900", "1500,00EUR"}) {
      if (auto m = advise::parse_money(money, *rates)) (void)advise::to_usd(*m, *rates);
    }
  }
  if (auto offers = advise::load_offers()) {
    advise::sort_cheapest_first(*offers);
    (void)report::platforms_json(*offers, nullptr).dump(2);
    (void)report::render_platforms_text(*offers, nullptr);
  }
  if (auto models = plan::load_catalogue()) {
    size_t estimated = 0;
    for (const auto& entry : *models) {
      if (++estimated > 4) break;
      (void)plan::count_params(entry.shape);
      (void)plan::estimate(entry.shape, plan::Workload{});
    }
  }
  Inventory no_gpu;
  (void)diagnose::diagnose(no_gpu);
  if (builtin_rates) (void)advise::parse_prices(text, "--prices fuzz.csv", *builtin_rates);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto table = csv::parse(text, "fuzz.csv")) table_ops(*table);
  tables_through_data_dir(text);
  return 0;
}
