#pragma once
/// Renderers of a BenchResult: the JSON contract (docs/bench.md), the text report, and --compare of two
/// saved JSON files. They format; they compute nothing beyond ratios of figures already measured.
#include <string>
#include <string_view>

#include "bench/result.hpp"
#include "core/error.hpp"
#include "core/json.hpp"

namespace gpuscout::bench {

nlohmann::ordered_json to_json(const BenchResult& result);
std::string render_text(const BenchResult& result);

/// "ok", "unsupported" or "failed": a GEMM's or transfer's gpuscout_status as bench files write it.
std::string_view status_name(int status);

/// The typed result of a parsed bench document (the inverse of to_json): schema gpuscout.bench/1, every field
/// checked for its type and range; the error names the first wrong field by its path ("field
/// gpus[0].gemm[2].tflops: expected a number, got a string"). Absent fields keep their defaults.
Result<BenchResult> from_json(const nlohmann::json& doc);
/// The one reader of saved bench files (`bench --save`, the last-bench state): bench --compare and report --bench
/// and --compare use it. The error starts with the path: "FILE: not valid JSON (...)", "FILE: field ...".
Result<BenchResult> load_bench_file(const std::string& path);
/// Side-by-side rows of two bench results: {label, unit, a, b, ratio b/a}.
nlohmann::ordered_json compare_json(const BenchResult& a, const BenchResult& b, const std::string& name_a,
                                    const std::string& name_b);
std::string render_compare(const nlohmann::ordered_json& comparison);

}  // namespace gpuscout::bench
