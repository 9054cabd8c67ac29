// Cores and sockets when sysfs topology is there, and the fallbacks when it is not (containers, Arm, VMs).
#include <gtest/gtest.h>

#include "probe/sources.hpp"

namespace {

using gpuscout::probe::count_cores;
using gpuscout::probe::CpuinfoSummary;

TEST(ProbeCpuTopology, SysfsIdsWin) {
  // Two packages, two cores each (SMT siblings share ids and count once).
  const std::set<std::pair<long long, long long>> ids{{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  CpuinfoSummary summary;
  summary.physical_cores = 64;  // ignored when sysfs answers
  const auto c = count_cores(ids, summary, 8, 8);
  EXPECT_EQ(c.physical_cores, 4);
  EXPECT_EQ(c.sockets, 2);
}

TEST(ProbeCpuTopology, CpuinfoIdsScaledToTheAffinity) {
  // No sysfs topology (a restricted container): cpuinfo says 16 cores for 32 online CPUs; we may use 8.
  CpuinfoSummary summary;
  summary.physical_cores = 16;
  summary.sockets = 1;
  const auto c = count_cores({}, summary, 8, 32);
  EXPECT_EQ(c.physical_cores, 4);
  EXPECT_EQ(c.sockets, 1);
}

TEST(ProbeCpuTopology, CpuinfoIdsWhenEveryCpuIsUsable) {
  CpuinfoSummary summary;
  summary.physical_cores = 16;
  summary.sockets = 2;
  const auto c = count_cores({}, summary, 32, 32);
  EXPECT_EQ(c.physical_cores, 16);
  EXPECT_EQ(c.sockets, 2);
}

TEST(ProbeCpuTopology, NoIdsAtAllMeansNoSmtAndOneSocket) {
  // Arm and most VMs: cpuinfo has no core ids.
  const auto c = count_cores({}, CpuinfoSummary{}, 4, 4);
  EXPECT_EQ(c.physical_cores, 4);
  EXPECT_EQ(c.sockets, 1);
}

TEST(ProbeCpuTopology, NothingKnown) {
  const auto c = count_cores({}, CpuinfoSummary{}, std::nullopt, std::nullopt);
  EXPECT_FALSE(c.physical_cores);
  EXPECT_FALSE(c.sockets);
}

TEST(ProbeCpuTopology, ZeroOnlineNeverDivides) {
  CpuinfoSummary summary;
  summary.physical_cores = 4;
  const auto c = count_cores({}, summary, 2, 0);
  EXPECT_EQ(c.physical_cores, 4);
}

}  // namespace
