// The figures of upstream's tflite/kernels/stablehlo_add_test.cc, stablehlo_multiply_test.cc,
// stablehlo_min_max_test.cc, stablehlo_and_test.cc and stablehlo_shift_left_test.cc, then what
// upstream's code computes beyond them (wrapping, bool, float16, NaN) and what is refused.
#include "runtime/kernels/cpu/stablehlo_elementwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> Compute(const std::string& op, TensorType type, const std::vector<int32_t>& shape,
                       const std::vector<T>& a, const std::vector<T>& b) {
  KernelRunner k(op);
  k.AddInput(type, shape, a);
  k.AddInput(type, shape, b);
  k.AddOutput(type, shape);
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << op << ": " << status.message();
  return k.Output<T>();
}

std::vector<float> ComputeFloat(const std::string& op, const std::vector<float>& a,
                                const std::vector<float>& b) {
  return Compute<float>(op, TensorType::kFloat32, {1, 2, 2, 1}, a, b);
}

TEST(StablehloElementwiseTest, UpstreamsFloatFigures) {
  const std::vector<float> add =
      ComputeFloat("STABLEHLO_ADD", {-2.0f, 0.2f, 0.7f, 0.8f}, {0.1f, 0.2f, 0.3f, 0.5f});
  const std::vector<float> add_expected = {-1.9f, 0.4f, 1.0f, 1.3f};
  for (size_t i = 0; i < add.size(); ++i) EXPECT_FLOAT_EQ(add[i], add_expected[i]) << i;

  const std::vector<float> a = {1.2f, 2.5f, -1.2f, 1};
  const std::vector<float> b = {0.1f, 3, 2, 0.5f};
  const std::vector<float> product = ComputeFloat("STABLEHLO_MULTIPLY", a, b);
  const std::vector<float> product_expected = {0.12f, 7.5f, -2.4f, 0.5f};
  for (size_t i = 0; i < product.size(); ++i) EXPECT_NEAR(product[i], product_expected[i], 1e-6);

  EXPECT_EQ(ComputeFloat("STABLEHLO_MAXIMUM", a, b), (std::vector<float>{1.2f, 3, 2, 1}));
  EXPECT_EQ(ComputeFloat("STABLEHLO_MINIMUM", a, b), (std::vector<float>{0.1f, 2.5f, -1.2f, 0.5f}));
}

TEST(StablehloElementwiseTest, UpstreamsAndFigures) {
  EXPECT_EQ(Compute<int32_t>("STABLEHLO_AND", TensorType::kInt32, {1, 2, 2, 1}, {2, 3, 7, 8},
                             {4, 5, 7, 1}),
            (std::vector<int32_t>{0, 1, 7, 0}));
  EXPECT_EQ(Compute<int8_t>("STABLEHLO_AND", TensorType::kInt8, {1, 3, 1}, {7, -8, -8}, {0, 7, -8}),
            (std::vector<int8_t>{0, 0, -8}));
  EXPECT_EQ(Compute<int16_t>("STABLEHLO_AND", TensorType::kInt16, {1, 1, 3},
                             {32767, -32768, -32768}, {32767, -32768, -32768}),
            (std::vector<int16_t>{32767, -32768, -32768}));
  EXPECT_EQ(Compute<uint8_t>("STABLEHLO_AND", TensorType::kBool, {2, 1, 2, 1}, {0, 0, 1, 1},
                             {0, 1, 0, 1}),
            (std::vector<uint8_t>{0, 0, 0, 1}));
}

TEST(StablehloElementwiseTest, UpstreamsShiftLeftFigures) {
  EXPECT_EQ(
      Compute<int32_t>("STABLEHLO_SHIFT_LEFT", TensorType::kInt32, {3}, {-1, 0, 1}, {1, 2, 3}),
      (std::vector<int32_t>{-2, 0, 8}));
  EXPECT_EQ(Compute<int16_t>("STABLEHLO_SHIFT_LEFT", TensorType::kInt16, {2, 2}, {-5, -5, 0, 6},
                             {0, 2, 0, 2}),
            (std::vector<int16_t>{-5, -20, 0, 24}));
  EXPECT_EQ(Compute<int8_t>("STABLEHLO_SHIFT_LEFT", TensorType::kInt8, {2, 2}, {2, -2, -2, -4},
                            {0, 1, 0, 5}),
            (std::vector<int8_t>{2, -4, -2, -128}));
}

// Upstream narrows `a + b` and `a * b` back to the type: integers wrap.
TEST(StablehloElementwiseTest, IntegersWrap) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(Compute<int32_t>("STABLEHLO_ADD", TensorType::kInt32, {2}, {kMax, -5}, {1, 3}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -2}));
  EXPECT_EQ(Compute<int8_t>("STABLEHLO_MULTIPLY", TensorType::kInt8, {2}, {100, -3}, {3, 5}),
            (std::vector<int8_t>{44, -15}));
  EXPECT_EQ(Compute<uint16_t>("STABLEHLO_MULTIPLY", TensorType::kUInt16, {1}, {65535}, {65535}),
            (std::vector<uint16_t>{1}));
  EXPECT_EQ(Compute<int64_t>("STABLEHLO_ADD", TensorType::kInt64, {1}, {40}, {2}),
            (std::vector<int64_t>{42}));
}

TEST(StablehloElementwiseTest, BoolAddIsOrAndMultiplyIsAnd) {
  const std::vector<uint8_t> a = {0, 0, 1, 1};
  const std::vector<uint8_t> b = {0, 1, 0, 1};
  EXPECT_EQ(Compute<uint8_t>("STABLEHLO_ADD", TensorType::kBool, {4}, a, b),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Compute<uint8_t>("STABLEHLO_MULTIPLY", TensorType::kBool, {4}, a, b),
            (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(Compute<uint8_t>("STABLEHLO_MAXIMUM", TensorType::kBool, {4}, a, b),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Compute<uint8_t>("STABLEHLO_MINIMUM", TensorType::kBool, {4}, a, b),
            (std::vector<uint8_t>{0, 0, 0, 1}));
}

// Each float16 result is rounded to half: 1 + 2^-11 is a tie and rounds to even, back to 1.
TEST(StablehloElementwiseTest, Float16RoundsEachResult) {
  constexpr uint16_t kOne = 0x3c00, kTwoAndAHalf = 0x4100, kTwoToMinus11 = 0x1000,
                     kQuarter = 0x3400, kTwoAndThreeQuarters = 0x4180;
  EXPECT_EQ(Compute<uint16_t>("STABLEHLO_ADD", TensorType::kFloat16, {2}, {kOne, kTwoAndAHalf},
                              {kTwoToMinus11, kQuarter}),
            (std::vector<uint16_t>{kOne, kTwoAndThreeQuarters}));
}

// std::max / std::min keep the first argument unless the comparison picks the second, so a NaN
// survives MAXIMUM only as the first input.
TEST(StablehloElementwiseTest, NanFollowsStdMaxAndMin) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> max =
      Compute<float>("STABLEHLO_MAXIMUM", TensorType::kFloat32, {2}, {nan, 1.0f}, {1.0f, nan});
  EXPECT_TRUE(std::isnan(max[0]));
  EXPECT_EQ(max[1], 1.0f);
  const std::vector<float> min =
      Compute<float>("STABLEHLO_MINIMUM", TensorType::kFloat32, {2}, {nan, 1.0f}, {1.0f, nan});
  EXPECT_TRUE(std::isnan(min[0]));
  EXPECT_EQ(min[1], 1.0f);
}

Status RunWith(const std::string& op, TensorType a_type, std::vector<int32_t> a_shape,
               TensorType b_type, std::vector<int32_t> b_shape, TensorType out_type) {
  KernelRunner k(op);
  const auto count = [](const std::vector<int32_t>& shape) {
    size_t n = 1;
    for (int32_t d : shape) n *= static_cast<size_t>(d);
    return n;
  };
  k.AddInput(a_type, a_shape, std::vector<int32_t>(count(a_shape), 40));
  k.AddInput(b_type, b_shape, std::vector<int32_t>(count(b_shape), 40));
  k.AddOutput(out_type, a_shape);
  return k.Run();
}

TEST(StablehloElementwiseTest, RefusesWhatUpstreamRefusesOrReadsPast) {
  constexpr TensorType i32 = TensorType::kInt32;
  EXPECT_FALSE(RunWith("STABLEHLO_ADD", i32, {2, 2}, i32, {1, 2}, i32).ok());  // no broadcasting
  EXPECT_FALSE(RunWith("STABLEHLO_ADD", i32, {2}, TensorType::kFloat32, {2}, i32).ok());
  EXPECT_FALSE(RunWith("STABLEHLO_AND", TensorType::kFloat32, {2}, TensorType::kFloat32, {2},
                       TensorType::kFloat32)
                   .ok());
  EXPECT_FALSE(RunWith("STABLEHLO_SHIFT_LEFT", i32, {4}, i32, {2}, i32).ok());
  EXPECT_FALSE(RunWith("STABLEHLO_SHIFT_LEFT", TensorType::kInt64, {2}, TensorType::kInt64, {2},
                       TensorType::kInt64)
                   .ok());
  // A shift of 40 is undefined in upstream's C++: refused when met.
  const Status shift = RunWith("STABLEHLO_SHIFT_LEFT", i32, {2}, i32, {2}, i32);
  EXPECT_FALSE(shift.ok());
  EXPECT_NE(shift.message().find("outside [0, 31]"), std::string::npos) << shift.message();
}

}  // namespace
}  // namespace tfa::runtime
