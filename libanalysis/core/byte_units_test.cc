#include "libanalysis/core/byte_units.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

TEST(ByteUnitsTest, DecimalUnitsWithOneDecimal) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(999), "999 B");
  EXPECT_EQ(HumanBytes(1000), "1.0 kB");
  EXPECT_EQ(HumanBytes(4096), "4.1 kB");
  EXPECT_EQ(HumanBytes(1200000), "1.2 MB");
  EXPECT_EQ(HumanBytes(999960), "1.0 MB");  // not "1000.0 kB"
  EXPECT_EQ(HumanBytes(uint64_t{3} << 30), "3.2 GB");
  EXPECT_EQ(HumanBytes(UINT64_MAX), "18.4 EB");
}

}  // namespace
}  // namespace tfa
