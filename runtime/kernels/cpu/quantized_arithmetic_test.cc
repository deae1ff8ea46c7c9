#include "runtime/kernels/cpu/quantized_arithmetic.h"

#include <gtest/gtest.h>

#include <limits>

namespace tfa::runtime {
namespace {

TEST(QuantizedArithmeticTest, QuantizeMultiplierNormalisesTheSignificand) {
  EXPECT_EQ(QuantizeMultiplier(0.5).multiplier, 1 << 30);
  EXPECT_EQ(QuantizeMultiplier(0.5).shift, 0);
  EXPECT_EQ(QuantizeMultiplier(1.0).multiplier, 1 << 30);
  EXPECT_EQ(QuantizeMultiplier(1.0).shift, 1);
  EXPECT_EQ(QuantizeMultiplier(0.75).multiplier, 1610612736);
  EXPECT_EQ(QuantizeMultiplier(0.1).shift, -3);
  EXPECT_EQ(QuantizeMultiplier(0.1).multiplier, 1717986918);  // round(0.8 * 2^31)
  // A significand that rounds up to 2^31 is renormalised.
  EXPECT_EQ(QuantizeMultiplier(0.99999999999).multiplier, 1 << 30);
  EXPECT_EQ(QuantizeMultiplier(0.99999999999).shift, 1);
  EXPECT_EQ(QuantizeMultiplier(0.0).multiplier, 0);
  EXPECT_EQ(QuantizeMultiplier(1e-12).multiplier, 0);  // exponent below -31 flushes to zero
  EXPECT_EQ(QuantizeMultiplier(1e30).shift, 30);       // absurd multipliers saturate
  EXPECT_EQ(QuantizeMultiplier(1e30).multiplier, std::numeric_limits<int32_t>::max());
}

TEST(QuantizedArithmeticTest, RoundingDivideByPowerOfTwoRoundsHalfAwayFromZero) {
  EXPECT_EQ(RoundingDivideByPOT(5, 1), 3);
  EXPECT_EQ(RoundingDivideByPOT(-5, 1), -3);
  EXPECT_EQ(RoundingDivideByPOT(4, 1), 2);
  EXPECT_EQ(RoundingDivideByPOT(6, 2), 2);
  EXPECT_EQ(RoundingDivideByPOT(-6, 2), -2);
  EXPECT_EQ(RoundingDivideByPOT(-7, 2), -2);
}

TEST(QuantizedArithmeticTest, DoublingHighMulSaturatesTheOneOverflow) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kMin, kMin), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
  // Ties round upward, as ARM's SQRDMULH does.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(3, 1 << 30), 2);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-3, 1 << 30), -1);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-5, 1 << 30), -2);
}

// x * 0.25 (multiplier 0.5, shift -1): TFLite's two roundings and ruy's one differ on ties and
// even on values below one half, which is why each kernel uses the one its upstream path uses.
TEST(QuantizedArithmeticTest, DoubleAndSingleRoundingDifferWhereUpstreamsDo) {
  const QuantizedMultiplier quarter{1 << 30, -1};
  EXPECT_EQ(MultiplyByQuantizedMultiplier(1, quarter), 1);  // 0.5 rounded up, then 0.5 again
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingleRounding(1, quarter), 0);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-6, quarter), -2);                // -1.5 away from zero
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingleRounding(-6, quarter), -1);  // ties upward
  EXPECT_EQ(MultiplyByQuantizedMultiplier(8, quarter), 2);
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingleRounding(8, quarter), 2);
  const QuantizedMultiplier three{1610612736, 2};  // 0.75 * 4
  EXPECT_EQ(MultiplyByQuantizedMultiplier(7, three), 21);
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingleRounding(7, three), 21);
}

TEST(QuantizedArithmeticTest, ActivationRangeIsZeroPointPlusRoundedBound) {
  const QuantParams out{0.05f, -10};
  auto relu6 = QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, out);
  ASSERT_TRUE(relu6.ok());
  EXPECT_EQ(relu6->min, -10);
  EXPECT_EQ(relu6->max, 110);
  auto relu = QuantizedActivationRange(Activation::kRelu, TensorType::kUInt8, {0.1f, 3});
  ASSERT_TRUE(relu.ok());
  EXPECT_EQ(relu->min, 3);
  EXPECT_EQ(relu->max, 255);
  EXPECT_FALSE(QuantizedActivationRange(Activation::kTanh, TensorType::kInt8, out).ok());
}

}  // namespace
}  // namespace tfa::runtime
