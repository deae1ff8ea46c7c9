#include "runtime/kernels/cpu/binary_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> RunBinary(const char* op, TensorType type, std::vector<int32_t> a_shape,
                         const std::vector<T>& a, std::vector<int32_t> b_shape,
                         const std::vector<T>& b) {
  KernelRunner k(op);
  k.AddInput(type, a_shape, a);
  k.AddInput(type, std::move(b_shape), b);
  k.AddOutput(type, a_shape);
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << op << ": " << status.message();
  return k.Output<T>();
}

// Figures of upstream's floor_div_test.cc.
TEST(FloorDivTest, IntegersRoundTowardMinusInfinity) {
  EXPECT_EQ(RunBinary<int32_t>("FLOOR_DIV", TensorType::kInt32, {1, 2, 2, 1}, {10, 9, 11, 3},
                               {1, 2, 2, 1}, {2, 2, 3, 4}),
            (std::vector<int32_t>{5, 4, 3, 0}));
  EXPECT_EQ(RunBinary<int32_t>("FLOOR_DIV", TensorType::kInt32, {1, 2, 2, 1}, {10, -9, -11, 7},
                               {1, 2, 2, 1}, {2, 2, -3, -4}),
            (std::vector<int32_t>{5, -5, 3, -2}));
  EXPECT_EQ(RunBinary<int32_t>("FLOOR_DIV", TensorType::kInt32, {1, 2, 2, 1}, {10, -9, -11, 7}, {1},
                               {-3}),
            (std::vector<int32_t>{-4, 3, 3, -3}));
  EXPECT_EQ(RunBinary<int16_t>("FLOOR_DIV", TensorType::kInt16, {1, 2, 2, 1}, {10, -9, -11, 7}, {1},
                               {-3}),
            (std::vector<int16_t>{-4, 3, 3, -3}));
}

TEST(FloorDivTest, Floats) {
  EXPECT_EQ(
      RunBinary<float>("FLOOR_DIV", TensorType::kFloat32, {1, 2, 2, 1},
                       {10.05f, 9.09f, 11.9f, 3.01f}, {1, 2, 2, 1}, {2.05f, 2.03f, 3.03f, 4.03f}),
      (std::vector<float>{4, 4, 3, 0}));
  EXPECT_EQ(RunBinary<float>("FLOOR_DIV", TensorType::kFloat32, {1, 2, 2, 1},
                             {10.03f, -9.9f, -11.0f, 7.0f}, {1}, {-3.3f}),
            (std::vector<float>{-4, 2, 3, -3}));
}

// floor_div.cc checks every divisor, a float one too.
TEST(FloorDivTest, AZeroDivisorIsAnError) {
  KernelRunner k("FLOOR_DIV");
  k.AddFloatInput({2}, {1, 2});
  k.AddFloatInput({2}, {1, 0});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_EQ(k.Run().message(), "division by 0");
}

// Figures of upstream's floor_mod_test.cc.
TEST(FloorModTest, TheRemainderTakesTheDivisorsSign) {
  EXPECT_EQ(RunBinary<int32_t>("FLOOR_MOD", TensorType::kInt32, {1, 2, 2, 1}, {10, 9, 11, 3},
                               {1, 2, 2, 1}, {2, 2, 3, 4}),
            (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(RunBinary<int32_t>("FLOOR_MOD", TensorType::kInt32, {1, 2, 2, 1}, {10, -9, -11, 7},
                               {1, 2, 2, 1}, {2, 2, -3, -4}),
            (std::vector<int32_t>{0, 1, -2, -1}));
  EXPECT_EQ(RunBinary<int16_t>("FLOOR_MOD", TensorType::kInt16, {1, 2, 2, 1}, {10, -9, -11, 7}, {1},
                               {-3}),
            (std::vector<int16_t>{-2, 0, -2, -2}));
  EXPECT_EQ(RunBinary<float>("FLOOR_MOD", TensorType::kFloat32, {1, 2, 2, 1}, {10, -9, -11, 7}, {1},
                             {-3}),
            (std::vector<float>{-2, 0, -2, -2}));
  EXPECT_EQ(RunBinary<int64_t>("FLOOR_MOD", TensorType::kInt64, {1, 2, 2, 1},
                               {10, -9, -11, (int64_t{1} << 34) + 9}, {1}, {-(int64_t{1} << 33)}),
            (std::vector<int64_t>{-8589934582, -9, -11, -8589934583}));
}

// floor_mod.cc checks integer divisors only: a float one gives fmod's NaN.
TEST(FloorModTest, OnlyAnIntegerZeroDivisorIsAnError) {
  KernelRunner k("FLOOR_MOD");
  k.AddInt32Input({1}, {3});
  k.AddInt32Input({1}, {0});
  k.AddOutput(TensorType::kInt32, {1});
  EXPECT_EQ(k.Run().message(), "division by 0");
  EXPECT_TRUE(
      std::isnan(RunBinary<float>("FLOOR_MOD", TensorType::kFloat32, {1}, {3}, {1}, {0.0f})[0]));
}

// Figures of upstream's pow_test.cc.
TEST(PowTest, IntegersAndFloats) {
  EXPECT_EQ(RunBinary<int32_t>("POW", TensorType::kInt32, {1, 2, 2, 1}, {12, 2, 7, 8}, {1, 2, 2, 1},
                               {1, 2, 3, 1}),
            (std::vector<int32_t>{12, 4, 343, 8}));
  EXPECT_EQ(RunBinary<int32_t>("POW", TensorType::kInt32, {1, 2, 2, 1}, {0, 2, -7, 8}, {1, 2, 2, 1},
                               {1, 2, 3, 0}),
            (std::vector<int32_t>{0, 4, -343, 1}));
  EXPECT_EQ(RunBinary<int32_t>("POW", TensorType::kInt32, {1, 2, 2, 1}, {12, 2, 7, 8}, {1}, {4}),
            (std::vector<int32_t>{20736, 16, 2401, 4096}));
  const auto pow =
      RunBinary<float>("POW", TensorType::kFloat32, {1, 2, 2, 1}, {0.3f, 0.4f, 0.7f, 5.8f},
                       {1, 2, 2, 1}, {0.5f, -2.7f, 3.1f, -3.2f});
  const std::vector<float> expected = {0.5477226f, 11.869653f, 0.33098164f, 0.003606f};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(pow[i], expected[i], 1e-3) << i;
}

TEST(PowTest, ANegativeIntegerExponentIsAnError) {
  KernelRunner k("POW");
  k.AddInt32Input({2}, {2, 2});
  k.AddInt32Input({2}, {1, -1});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_EQ(k.Run().message(), "an integer to a negative integer power is not supported");
}

}  // namespace
}  // namespace tfa::runtime
