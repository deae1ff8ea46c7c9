#include "runtime/kernels/cpu/integer_maximum_minimum.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;

template <typename T>
std::vector<T> RunBinary(const char* op, TensorType type, std::vector<int32_t> a_shape,
                         const std::vector<T>& a, std::vector<int32_t> b_shape,
                         const std::vector<T>& b, std::vector<int32_t> out_shape) {
  KernelRunner k(op);
  k.AddInput(type, std::move(a_shape), a);
  k.AddInput(type, std::move(b_shape), b);
  k.AddOutput(type, std::move(out_shape));
  EXPECT_TRUE(k.Run().ok());
  return k.Output<T>();
}

// [2, 3] against [3]: the row repeats.
TEST(IntegerMaximumMinimumTest, Int8BroadcastsARow) {
  const std::vector<int8_t> a = {-128, 5, 127, 0, -7, 3}, b = {-1, 5, 100};
  EXPECT_EQ(RunBinary<int8_t>("MAXIMUM", TensorType::kInt8, {2, 3}, a, {3}, b, {2, 3}),
            (std::vector<int8_t>{-1, 5, 127, 0, 5, 100}));
  EXPECT_EQ(RunBinary<int8_t>("MINIMUM", TensorType::kInt8, {2, 3}, a, {3}, b, {2, 3}),
            (std::vector<int8_t>{-128, 5, 100, -1, -7, 3}));
}

TEST(IntegerMaximumMinimumTest, Uint8SameShape) {
  const std::vector<uint8_t> a = {0, 200, 17}, b = {255, 3, 17};
  EXPECT_EQ(RunBinary<uint8_t>("MAXIMUM", TensorType::kUInt8, {3}, a, {3}, b, {3}),
            (std::vector<uint8_t>{255, 200, 17}));
  EXPECT_EQ(RunBinary<uint8_t>("MINIMUM", TensorType::kUInt8, {3}, a, {3}, b, {3}),
            (std::vector<uint8_t>{0, 3, 17}));
}

// A one-element operand against [2, 2] (the int16 ReLU-like pattern max(x, 0)).
TEST(IntegerMaximumMinimumTest, Int16AgainstOneElement) {
  const std::vector<int16_t> a = {-32768, 100, 32767, -5}, zero = {0};
  EXPECT_EQ(RunBinary<int16_t>("MAXIMUM", TensorType::kInt16, {2, 2}, a, {1}, zero, {2, 2}),
            (std::vector<int16_t>{0, 100, 32767, 0}));
  EXPECT_EQ(RunBinary<int16_t>("MINIMUM", TensorType::kInt16, {2, 2}, a, {1}, zero, {2, 2}),
            (std::vector<int16_t>{-32768, 0, 0, -5}));
}

// [2, 1] against [1, 2]: both operands broadcast.
TEST(IntegerMaximumMinimumTest, Int32AndInt64BroadcastBothWays) {
  EXPECT_EQ(
      RunBinary<int32_t>("MAXIMUM", TensorType::kInt32, {2, 1}, {1, 10}, {1, 2}, {5, -3}, {2, 2}),
      (std::vector<int32_t>{5, 1, 10, 10}));
  EXPECT_EQ(RunBinary<int64_t>("MINIMUM", TensorType::kInt64, {2, 1}, {int64_t{1} << 40, -2},
                               {1, 2}, {5, int64_t{1} << 41}, {2, 2}),
            (std::vector<int64_t>{5, int64_t{1} << 40, -2, -2}));
}

// Upstream compares stored values whatever the inputs' quantization: 15 at scale 0.5 (7.5)
// beats 10 at scale 1 (10.0).
TEST(IntegerMaximumMinimumTest, StoredValuesAreComparedAsTheyAre) {
  KernelRunner k("MAXIMUM");
  const Quantization unit = PerTensor(1.0f, 0), half = PerTensor(0.5f, 0);
  k.AddInput(TensorType::kInt8, {1}, std::vector<int8_t>{10}).quantization = &unit;
  k.AddInput(TensorType::kInt8, {1}, std::vector<int8_t>{15}).quantization = &half;
  k.AddOutput(TensorType::kInt8, {1}).quantization = &unit;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{15}));
}

TEST(IntegerMaximumMinimumTest, MixedInputTypesAreRefused) {
  KernelRunner k("MINIMUM");
  k.AddInput(TensorType::kInt8, {1}, std::vector<int8_t>{1});
  k.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{1});
  k.AddOutput(TensorType::kInt8, {1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
