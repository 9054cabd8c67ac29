#include "inventory/bus_id.hpp"

#include <gtest/gtest.h>

using gpuscout::nvidia_smi_bus_id;

TEST(NvidiaSmiBusId, WidensTheDomainAndUpperCasesTheHex) {
  EXPECT_EQ(nvidia_smi_bus_id("0000:01:00.0"), "00000000:01:00.0");
  EXPECT_EQ(nvidia_smi_bus_id("0000:4b:00.1"), "00000000:4B:00.1");
  EXPECT_EQ(nvidia_smi_bus_id("0001:c1:1f.7"), "00000001:C1:1F.7");
  EXPECT_EQ(nvidia_smi_bus_id("10000:e1:00.0"), "00010000:E1:00.0");  // Intel VMD: a 5-digit domain
  EXPECT_EQ(nvidia_smi_bus_id("00000000:01:00.0"), "00000000:01:00.0");  // already nvidia-smi's form
}

TEST(NvidiaSmiBusId, RefusesWhatIsNoBusId) {
  for (const char* bad : {"", "0000:01:00", "0000:01:00.", "0000:01:00.8", "0000:01:20.0", "0000:001:00.0",
                          "000000000:01:00.0", "0000:01:00.0 ", "zz:01:00.0", "0000-01-00.0"})
    EXPECT_FALSE(nvidia_smi_bus_id(bad)) << bad;
}
