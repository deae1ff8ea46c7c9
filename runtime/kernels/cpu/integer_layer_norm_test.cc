#include "runtime/kernels/cpu/integer_layer_norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tfa::runtime {
namespace {

// upstream's tensor_utils_test.cc QuantApplyLayerNormTest: two rows of 15, its golden output.
TEST(IntegerLayerNormTest, MatchesUpstreamsGolden) {
  std::vector<int16_t> gate = {
      -310, 596, 34,   -68, 475,  92,   672,   -54, -913, -200, -1194, -836, -620, -237, 991,
      533,  721, -736, -8,  -941, -372, -1084, 591, 2557, -779, 175,   582,  956,  -287, 944,
  };
  const std::vector<int16_t> coefficients = {
      21849, 22882, 20626, 23854, 24779, 26354, 12980, 26231,
      23716, 27271, 24937, 22647, 24715, 22854, 19646,
  };
  const std::vector<int32_t> bias = {
      -14175520, -13805465, -16027609, -13786809, -13321033, -14399810, -15055368, -14536623,
      -14508746, -13784007, -15206609, -15125830, -14996304, -14847597, -12814379,
  };
  IntegerLayerNorm(gate.data(), coefficients.data(), bias.data(), {1895840000, -13}, 1, 2, 15);
  const std::vector<int16_t> expected = {
      -9407,  5846,   -4802,  -5295, 4822,   -2390, 930,   -5283,  -20352, -7846,
      -26539, -18704, -15829, -8627, 10313,  -2522, -132,  -16058, -8206,  -19158,
      -13296, -14407, -1235,  20612, -18591, -6738, -2274, 2602,   -11622, 1565,
  };
  EXPECT_EQ(gate, expected);
}

// The Newton iteration lands within a few parts per million of 1 / sqrt(x).
TEST(IntegerLayerNormTest, InverseSqrtMultiplierIsOneOverTheRoot) {
  for (int32_t x : {2, 3, 100, 10000, 1000000, 1 << 29, 2147483647}) {
    const QuantizedMultiplier m = InverseSqrtMultiplier(x);
    const double value = m.multiplier * std::pow(2.0, m.shift - 31);
    EXPECT_NEAR(value * std::sqrt(static_cast<double>(x)), 1.0, 1e-5) << x;
  }
  EXPECT_EQ(InverseSqrtMultiplier(1).multiplier, 2147483647);
}

}  // namespace
}  // namespace tfa::runtime
