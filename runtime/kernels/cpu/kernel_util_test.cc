#include "runtime/kernels/cpu/kernel_util.h"

#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(KernelUtilTest, SignBitActivationClampsNothing) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  auto range = GetActivationRange(Activation::kSignBit);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->min, -kInf);
  EXPECT_EQ(range->max, kInf);
  auto quantized = QuantizedActivationRange(Activation::kSignBit, TensorType::kInt8, {0.5f, 3});
  ASSERT_TRUE(quantized.ok());
  EXPECT_EQ(quantized->min, -128);
  EXPECT_EQ(quantized->max, 127);
  EXPECT_FALSE(GetActivationRange(Activation::kTanh).ok());
}

TEST(KernelUtilTest, SignBitMulAndConvComputeAsWithoutActivation) {
  KernelRunner mul("MUL");
  mul.options().fused_activation = Activation::kSignBit;
  mul.AddFloatInput({3}, {-2, 0.5f, 3});
  mul.AddFloatInput({3}, {4, -1, 2});
  mul.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(mul.Run().ok());
  EXPECT_EQ(mul.Output(), (std::vector<float>{-8, -0.5f, 6}));

  KernelRunner conv("CONV_2D");
  conv.options().padding = Padding::kValid;
  conv.options().fused_activation = Activation::kSignBit;
  conv.AddFloatInput({1, 1, 2, 1}, {-3, 2});
  conv.AddFloatInput({1, 1, 1, 1}, {2});
  conv.AddFloatInput({1}, {-1});
  conv.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  ASSERT_TRUE(conv.Run().ok());
  EXPECT_EQ(conv.Output(), (std::vector<float>{-7, 3}));
}

}  // namespace
}  // namespace tfa::runtime
