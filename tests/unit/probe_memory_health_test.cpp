// The NVML probe's memory-health calls through a table of plain functions in process: what a GPU answers lands in
// gpus[].memory_health, NOT_SUPPORTED (a GeForce card, ECC off) is silence, any other failure is on the GPU's errors.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "nvml_one_gpu.hpp"
#include "probe/sources.hpp"

namespace {

namespace nvml = gpuscout::vendor::nvml;
using gpuscout::probe::probe_nvml;

struct Health {
  nvml::Return ecc_mode = nvml::SUCCESS, ecc_errors = nvml::SUCCESS, retired = nvml::SUCCESS,
               retired_pending = nvml::SUCCESS, remapped = nvml::SUCCESS;
  nvml::EnableState current = nvml::FEATURE_ENABLED, pending = nvml::FEATURE_ENABLED;
  unsigned long long counts[2][2] = {{5, 9}, {1, 2}};  // [corrected, uncorrected][volatile, aggregate]
  unsigned sbe = 0, dbe = 3;
  unsigned rows[4] = {2, 1, 1, 0};  // correctable, uncorrectable, pending, failed
} health;

nvml::Return n_ecc_mode(nvml::Device, nvml::EnableState* current, nvml::EnableState* pending) {
  *current = health.current;
  *pending = health.pending;
  return health.ecc_mode;
}
nvml::Return n_ecc_errors(nvml::Device, unsigned type, unsigned counter, unsigned long long* n) {
  *n = health.counts[type][counter];
  return health.ecc_errors;
}
// As the driver answers room 0: SUCCESS with no pages, else INSUFFICIENT_SIZE with the count.
nvml::Return n_retired(nvml::Device, unsigned cause, unsigned* count, unsigned long long*) {
  if (health.retired != nvml::SUCCESS) return health.retired;
  const unsigned n = cause == nvml::PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR ? health.dbe : health.sbe;
  const bool room = *count >= n;
  *count = n;
  return room ? nvml::SUCCESS : nvml::ERROR_INSUFFICIENT_SIZE;
}
nvml::Return n_retired_pending(nvml::Device, nvml::EnableState* pending) {
  *pending = nvml::FEATURE_ENABLED;
  return health.retired_pending;
}
nvml::Return n_remapped(nvml::Device, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  *corr = health.rows[0];
  *unc = health.rows[1];
  *pending = health.rows[2];
  *failed = health.rows[3];
  return health.remapped;
}

nvml::Functions table(bool with_health = true) {
  nvml::Functions f = gpuscout::test_nvml::one_gpu_table();
  if (!with_health) return f;
  f.device_ecc_mode = {&n_ecc_mode, "nvmlDeviceGetEccMode"};
  f.device_total_ecc_errors = {&n_ecc_errors, "nvmlDeviceGetTotalEccErrors"};
  f.device_retired_pages = {&n_retired, "nvmlDeviceGetRetiredPages"};
  f.device_retired_pages_pending = {&n_retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus"};
  f.device_remapped_rows = {&n_remapped, "nvmlDeviceGetRemappedRows"};
  return f;
}

class MemoryHealthProbe : public ::testing::Test {
 protected:
  void SetUp() override { health = Health{}; }
};

TEST_F(MemoryHealthProbe, EveryAnswerLandsInItsField) {
  health.pending = nvml::FEATURE_DISABLED;
  const auto report = probe_nvml(table());
  ASSERT_EQ(report.gpus.size(), 1u);
  const auto& gpu = report.gpus[0];
  EXPECT_TRUE(gpu.errors.empty()) << gpu.errors[0].what;
  ASSERT_TRUE(gpu.memory_health);
  const auto& h = *gpu.memory_health;
  EXPECT_EQ(h.ecc_enabled, true);
  EXPECT_EQ(h.ecc_pending_enabled, false) << "written because it differs";
  EXPECT_EQ(h.ecc_errors_corrected_volatile, 5u);
  EXPECT_EQ(h.ecc_errors_uncorrected_volatile, 1u);
  EXPECT_EQ(h.ecc_errors_uncorrected_aggregate, 2u);
  EXPECT_EQ(h.retired_pages_sbe, 0u) << "SUCCESS with room 0: no pages";
  EXPECT_EQ(h.retired_pages_dbe, 3u) << "INSUFFICIENT_SIZE carries the count";
  EXPECT_EQ(h.retired_pages_pending, true);
  EXPECT_EQ(h.remapped_rows_correctable, 2u);
  EXPECT_EQ(h.remapped_rows_uncorrectable, 1u);
  EXPECT_EQ(h.remapped_rows_pending, true);
  EXPECT_EQ(h.remapped_rows_failed, false);
}

TEST_F(MemoryHealthProbe, PendingModeOnlyWhenItDiffers) {
  const auto report = probe_nvml(table());
  ASSERT_TRUE(report.gpus[0].memory_health);
  EXPECT_FALSE(report.gpus[0].memory_health->ecc_pending_enabled);
}

TEST_F(MemoryHealthProbe, NotSupportedIsSilence) {
  health.ecc_mode = health.ecc_errors = health.retired = health.retired_pending = health.remapped = nvml::ERROR_NOT_SUPPORTED;
  const auto report = probe_nvml(table());
  EXPECT_FALSE(report.gpus[0].memory_health) << "a GeForce card: nothing to say";
  EXPECT_TRUE(report.gpus[0].errors.empty());
  const auto old = probe_nvml(table(false));
  EXPECT_FALSE(old.gpus[0].memory_health) << "a driver without the calls";
  EXPECT_TRUE(old.gpus[0].errors.empty());
}

TEST_F(MemoryHealthProbe, EccOffLeavesTheCountsOut) {
  health.current = health.pending = nvml::FEATURE_DISABLED;
  health.ecc_errors = nvml::ERROR_NOT_SUPPORTED;  // what the driver answers with ECC off
  const auto report = probe_nvml(table());
  ASSERT_TRUE(report.gpus[0].memory_health);
  const auto& h = *report.gpus[0].memory_health;
  EXPECT_EQ(h.ecc_enabled, false);
  EXPECT_FALSE(h.ecc_errors_uncorrected_volatile);
  EXPECT_FALSE(h.ecc_errors_corrected_volatile);
  EXPECT_TRUE(report.gpus[0].errors.empty());
}

TEST_F(MemoryHealthProbe, AFailureIsRecordedAndTheRestKept) {
  health.remapped = nvml::ERROR_GPU_IS_LOST;
  health.retired = nvml::ERROR_UNKNOWN;
  const auto report = probe_nvml(table());
  const auto& gpu = report.gpus[0];
  ASSERT_EQ(gpu.errors.size(), 3u);  // both retired-page causes and the remap call
  EXPECT_EQ(gpu.errors[0].what, "nvmlDeviceGetRetiredPages");
  EXPECT_EQ(gpu.errors[2].what, "nvmlDeviceGetRemappedRows");
  EXPECT_EQ(gpu.errors[2].message, "GPU is lost");
  EXPECT_EQ(gpu.errors[2].code, nvml::ERROR_GPU_IS_LOST);
  ASSERT_TRUE(gpu.memory_health);
  EXPECT_FALSE(gpu.memory_health->remapped_rows_pending);
  EXPECT_FALSE(gpu.memory_health->retired_pages_dbe);
  EXPECT_EQ(gpu.memory_health->ecc_errors_uncorrected_volatile, 1u);
}

}  // namespace
