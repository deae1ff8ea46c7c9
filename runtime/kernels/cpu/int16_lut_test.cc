#include "runtime/kernels/cpu/int16_lut.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tfa::runtime {
namespace {

// LUTLookup: the top 9 bits pick the entry (value >> 7, offset by 256), the low 7 interpolate
// towards the next one with rounding: on a table of 2i, 64 sits halfway from 512 to 514.
TEST(Int16LutTest, LooksUpTheTopBitsAndInterpolatesTheLowSeven) {
  Int16Lut lut{};
  for (size_t i = 0; i < lut.size(); ++i) lut[i] = static_cast<int16_t>(2 * i);
  EXPECT_EQ(Int16LutLookup(0, lut), 512);
  EXPECT_EQ(Int16LutLookup(64, lut), 513);
  EXPECT_EQ(Int16LutLookup(-32768, lut), 0);
  EXPECT_EQ(Int16LutLookup(32767, lut), 1024);  // 1022 + (2 * 127 + 64) >> 7
}

// A step between neighbours wider than int16 wraps, as upstream's int16 slope does: 65535 is -1,
// so 127 steps in the delta is (-127 + 64) >> 7 = -1, and -32768 - 1 wraps to 32767.
TEST(Int16LutTest, TheSlopeIsAnInt16) {
  Int16Lut lut{};
  lut[256] = -32768;
  lut[257] = 32767;
  EXPECT_EQ(Int16LutLookup(127, lut), 32767);
}

// The identity over one scale samples every entry exactly, so lookups give the value back to
// within the output's 65536 / 65535 scaling.
TEST(Int16LutTest, TheIdentityTableGivesValuesBack) {
  const Int16Lut lut =
      PopulateInt16Lut(1.0f / 32768, 0, 1.0f / 32768, 0, [](float x) { return x; });
  for (int v : {-32768, -4096, 0, 1, 127, 4096, 32767})
    EXPECT_NEAR(Int16LutLookup(static_cast<int16_t>(v), lut), v, 2) << v;
}

}  // namespace
}  // namespace tfa::runtime
