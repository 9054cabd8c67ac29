#pragma once
/// Renderers of a BenchResult: the JSON contract (docs/bench.md), the text report, and --compare of two
/// saved JSON files. They format; they compute nothing beyond ratios of figures already measured.
#include <string>

#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "core/error.hpp"

namespace gpuscout::bench {

nlohmann::ordered_json to_json(const BenchResult& result);
std::string render_text(const BenchResult& result);

/// A saved `bench --json` file; the error names the file and what is wrong with it.
Result<nlohmann::json> load_bench_file(const std::string& path);
/// Side-by-side rows of two bench documents: {label, unit, a, b, ratio b/a}.
nlohmann::ordered_json compare_json(const nlohmann::json& a, const nlohmann::json& b, const std::string& name_a,
                                    const std::string& name_b);
std::string render_compare(const nlohmann::ordered_json& comparison);

}  // namespace gpuscout::bench
