#include "runtime/kernels/cpu/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(CastTest, FloatToInt32TruncatesTowardZero) {
  KernelRunner k("CAST");
  k.AddFloatInput({5}, {-2.75f, -0.5f, 0.5f, 2.75f, 1e6f});
  k.AddOutput(TensorType::kInt32, {5});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{-2, 0, 0, 2, 1000000}));
}

TEST(CastTest, FloatOutsideInt32GivesTheLowestInt32) {
  KernelRunner k("CAST");
  k.AddFloatInput({3}, {3e9f, -3e9f, std::nanf("")});
  k.AddOutput(TensorType::kInt32, {3});
  ASSERT_TRUE(k.Run().ok());
  const int32_t lowest = std::numeric_limits<int32_t>::lowest();
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{lowest, lowest, lowest}));
}

TEST(CastTest, Int32ToFloatAndBool) {
  KernelRunner to_float("CAST");
  to_float.AddInt32Input({3}, {-7, 0, 16777217});
  to_float.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(to_float.Run().ok());
  EXPECT_EQ(to_float.Output(), (std::vector<float>{-7, 0, 16777216}));

  KernelRunner to_bool("CAST");
  to_bool.AddInt32Input({3}, {-7, 0, 2});
  to_bool.AddOutput(TensorType::kBool, {3});
  ASSERT_TRUE(to_bool.Run().ok());
  EXPECT_EQ(to_bool.Output<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));
}

TEST(CastTest, StringIsRefused) {
  KernelRunner k("CAST");
  k.AddInput<uint8_t>(TensorType::kString, {1}, {0});
  k.AddOutput(TensorType::kInt32, {1});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot cast string to int32");
}

// Upstream's cast_test.cc CastFloatToUInt16, CastUInt16ToFloat, CastUInt32ToInt32 and
// CastInt32ToUInt32 (facts copied).
TEST(CastTest, UnsignedSixteenAndThirtyTwoBitUpstreamCases) {
  KernelRunner to_u16("CAST");
  to_u16.AddFloatInput({3, 2}, {100.f, 1.0f, 0.f, 0.4f, 1.999f, 1.1f});
  to_u16.AddOutput(TensorType::kUInt16, {3, 2});
  ASSERT_TRUE(to_u16.Run().ok());
  EXPECT_EQ(to_u16.Output<uint16_t>(), (std::vector<uint16_t>{100, 1, 0, 0, 1, 1}));

  KernelRunner from_u16("CAST");
  from_u16.AddInput<uint16_t>(TensorType::kUInt16, {3, 2}, {123, 0, 1, 2, 3, 4});
  from_u16.AddOutput(TensorType::kFloat32, {3, 2});
  ASSERT_TRUE(from_u16.Run().ok());
  EXPECT_EQ(from_u16.Output<float>(), (std::vector<float>{123, 0, 1, 2, 3, 4}));

  KernelRunner from_u32("CAST");
  from_u32.AddInput<uint32_t>(TensorType::kUInt32, {2, 3}, {100, 200, 300, 400, 500, 600});
  from_u32.AddOutput(TensorType::kInt32, {2, 3});
  ASSERT_TRUE(from_u32.Run().ok());
  EXPECT_EQ(from_u32.Output<int32_t>(), (std::vector<int32_t>{100, 200, 300, 400, 500, 600}));

  KernelRunner to_u32("CAST");
  to_u32.AddInt32Input({2, 3}, {100, 200, 300, 400, 500, 600});
  to_u32.AddOutput(TensorType::kUInt32, {2, 3});
  ASSERT_TRUE(to_u32.Run().ok());
  EXPECT_EQ(to_u32.Output<uint32_t>(), (std::vector<uint32_t>{100, 200, 300, 400, 500, 600}));
}

// float16 through float: 1, -2, 65504 (the largest half) and the smallest subnormal in; out,
// round to nearest even (1 + 2^-11 ties down to 1, 1 + 3 * 2^-11 up), 65520 overflows to
// infinity, NaN stays a quiet NaN; float64 converts exactly.
TEST(CastTest, Float16AndFloat64) {
  KernelRunner from_half("CAST");
  from_half.AddInput<uint16_t>(TensorType::kFloat16, {4}, {0x3c00, 0xc000, 0x7bff, 0x0001});
  from_half.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(from_half.Run().ok());
  EXPECT_EQ(from_half.Output<float>(),
            (std::vector<float>{1.0f, -2.0f, 65504.0f, std::ldexp(1.0f, -24)}));

  KernelRunner to_half("CAST");
  to_half.AddFloatInput({5}, {1.0f + std::ldexp(1.0f, -11), 1.0f + 3 * std::ldexp(1.0f, -11),
                              65520.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()});
  to_half.AddOutput(TensorType::kFloat16, {5});
  ASSERT_TRUE(to_half.Run().ok());
  EXPECT_EQ(to_half.Output<uint16_t>(),
            (std::vector<uint16_t>{0x3c00, 0x3c02, 0x7c00, 0x8000, 0x7e00}));

  KernelRunner to_double("CAST");
  to_double.AddInt32Input({2}, {-7, 16777217});
  to_double.AddOutput(TensorType::kFloat64, {2});
  ASSERT_TRUE(to_double.Run().ok());
  EXPECT_EQ(to_double.Output<double>(), (std::vector<double>{-7.0, 16777217.0}));
}

}  // namespace
}  // namespace tfa::runtime
