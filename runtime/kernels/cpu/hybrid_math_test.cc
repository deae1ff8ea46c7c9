#include "runtime/kernels/cpu/hybrid_math.h"

#include <gtest/gtest.h>

#include <vector>

namespace tfa::runtime {
namespace {

// Range 1: scale 1/127, values rounded half away from zero (-63.5 -> -64).
TEST(HybridMathTest, SymmetricQuantization) {
  const std::vector<float> values = {1, -0.5f, 0.25f};
  std::vector<int8_t> q(3);
  const QuantizedRow row = SymmetricQuantizeFloats(values.data(), 3, q.data());
  EXPECT_FLOAT_EQ(row.scale, 1.0f / 127);
  EXPECT_EQ(row.offset, 0);
  EXPECT_EQ(q, (std::vector<int8_t>{127, -64, 32}));
}

TEST(HybridMathTest, AllZeroRowGetsScaleOne) {
  const std::vector<float> values = {0, 0};
  std::vector<int8_t> q = {5, 5};
  const QuantizedRow row = SymmetricQuantizeFloats(values.data(), 2, q.data());
  EXPECT_EQ(row.scale, 1.0f);
  EXPECT_EQ(q, (std::vector<int8_t>{0, 0}));
}

// [0, 2] onto [-128, 127]: scale 2/255, zero point -128; 0.4 -> -128 + 51 = -77.
TEST(HybridMathTest, AsymmetricQuantization) {
  const std::vector<float> values = {0, 0.4f, 2};
  std::vector<int8_t> q(3);
  const QuantizedRow row = AsymmetricQuantizeFloats(values.data(), 3, q.data());
  EXPECT_FLOAT_EQ(row.scale, 2.0f / 255);
  EXPECT_EQ(row.offset, -128);
  EXPECT_EQ(q, (std::vector<int8_t>{-128, -77, 127}));
}

}  // namespace
}  // namespace tfa::runtime
