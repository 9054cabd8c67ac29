#pragma once
/// Units: parsing what users type ("24G", "7B") and printing what people read ("23.6 GiB").
/// Conventions: binary suffixes K/M/G/T and KiB/MiB/GiB/TiB are powers of 1024 (a "24G" card is 24 GiB);
/// KB/MB/GB/TB are powers of 1000 (how vendors write "24 GB"). Counts (parameters) use K/M/B/T = 10^3..10^12.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gpuscout::units {

constexpr uint64_t KiB = 1024ULL;
constexpr uint64_t MiB = KiB * 1024ULL;
constexpr uint64_t GiB = MiB * 1024ULL;
constexpr uint64_t TiB = GiB * 1024ULL;

/// "24G", "24GiB", "24 GB", "1.5T", "512M", "4096" (bytes). Rejects zero, negatives and overflow.
Result<uint64_t> parse_bytes(std::string_view text);
/// "7B", "0.5B", "770M", "1.5T", "125K", "6738415616". Rejects zero and negatives.
Result<uint64_t> parse_count(std::string_view text);
/// An amount of money as people type it in any locale: "1500", "1500.50"; commas grouping thousands in groups of
/// exactly three digits ("1,500", "12,345.50"); a decimal comma, that is a comma followed by exactly two digits at
/// the end ("1500,00", with dots grouping thousands: "1.500,00", "1.500.000"). Anything else with a separator is
/// refused, naming the input: "1,5" and "1,50,000" are no known form, and "1.500" could be 1.5 or 1500. A leading
/// sign is read ("-5" is -5; the caller decides whether negatives make sense); infinities and NaN are refused.
Result<double> parse_amount(std::string_view text);
/// "23.6 GiB", "512.0 MiB", "812 B".
std::string format_bytes(uint64_t bytes);
/// "7.6B", "770M", "124M".
std::string format_count(uint64_t count);
/// "1.23 TFLOP/s" style with an explicit unit: format_rate(1.23e12, "FLOP/s").
std::string format_rate(double per_second, std::string_view unit);

}  // namespace gpuscout::units
