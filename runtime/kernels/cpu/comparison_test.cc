#include "runtime/kernels/cpu/comparison.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ComparisonTest, LessBroadcastsAScalar) {
  KernelRunner k("LESS");
  k.AddInt32Input({4}, {-1, 2, 3, 7});
  k.AddInt32Input({}, {3});
  k.AddOutput(TensorType::kBool, {4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 0}));
}

TEST(ComparisonTest, FloatOrderingsAndEquality) {
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {
      {"LESS", {1, 0, 0}},          {"LESS_EQUAL", {1, 1, 0}}, {"GREATER", {0, 0, 1}},
      {"GREATER_EQUAL", {0, 1, 1}}, {"EQUAL", {0, 1, 0}},      {"NOT_EQUAL", {1, 0, 1}}};
  for (const auto& [op, expected] : cases) {
    KernelRunner k(op);
    k.AddFloatInput({3}, {1.0f, 2.0f, 3.0f});
    k.AddFloatInput({3}, {2.0f, 2.0f, 2.0f});
    k.AddOutput(TensorType::kBool, {3});
    ASSERT_TRUE(k.Run().ok()) << op;
    EXPECT_EQ(k.Output<uint8_t>(), expected) << op;
  }
}

TEST(ComparisonTest, MixedTypesAreRefused) {
  KernelRunner k("LESS");
  k.AddFloatInput({1}, {1.0f});
  k.AddInt32Input({1}, {1});
  k.AddOutput(TensorType::kBool, {1});
  EXPECT_FALSE(k.Run().ok());
}

std::vector<uint8_t> RunQuantized(const std::string& op, const testing::QuantizedValues& a,
                                  const testing::QuantizedValues& b,
                                  std::vector<int32_t> out_shape) {
  testing::QuantizedRunner r(op);
  r.AddInput(a);
  r.AddInput(b);
  r.runner().AddOutput(TensorType::kBool, std::move(out_shape));
  EXPECT_TRUE(r.runner().Run().ok()) << op;
  return r.runner().Output<uint8_t>();
}

// Upstream's comparisons_test.cc quantized cases (facts copied): uint8 over [-1, 128] (scale
// 129 / 255, zero point 2), int8 over [-127, 127] (scale 254 / 255), and uint8 operands with
// different scales, which upstream rescales before comparing.
TEST(ComparisonTest, QuantizedUpstreamCases) {
  const float u_scale = 129.0f / 255, i_scale = 254.0f / 255;
  auto u8 = [&](std::vector<int32_t> shape, const std::vector<float>& v) {
    return testing::QuantizedValues{TensorType::kUInt8, std::move(shape),
                                    testing::Quantize(v, u_scale, 2, TensorType::kUInt8),
                                    testing::PerTensor(u_scale, 2)};
  };
  auto i8 = [&](std::vector<int32_t> shape, const std::vector<float>& v) {
    return testing::QuantizedValues{TensorType::kInt8, std::move(shape),
                                    testing::Quantize(v, i_scale, -1, TensorType::kInt8),
                                    testing::PerTensor(i_scale, -1)};
  };
  EXPECT_EQ(RunQuantized("EQUAL", u8({1, 2, 2, 1}, {1, 9, 7, 3}), u8({1, 2, 2, 1}, {1, 2, 7, 5}),
                         {1, 2, 2, 1}),
            (std::vector<uint8_t>{1, 0, 1, 0}));
  EXPECT_EQ(RunQuantized("LESS_EQUAL", u8({1, 2, 2, 1}, {1, 9, 7, 3}),
                         u8({1, 2, 2, 1}, {1, 2, 6, 5}), {1, 2, 2, 1}),
            (std::vector<uint8_t>{1, 0, 0, 1}));
  EXPECT_EQ(RunQuantized("GREATER", i8({2, 3}, {20, -2, -71, 8, 11, 20}), i8({}, {8}), {2, 3}),
            (std::vector<uint8_t>{1, 0, 0, 0, 1, 1}));
  EXPECT_EQ(RunQuantized("NOT_EQUAL", i8({2, 3}, {-20, 2, 7, -8, 11, 20}), i8({}, {2}), {2, 3}),
            (std::vector<uint8_t>{1, 0, 1, 1, 1, 1}));
  // GreaterQuantizedSmallRange: [0, 1] against [0, 2].
  const float s1 = 1.0f / 255, s2 = 2.0f / 255;
  EXPECT_EQ(RunQuantized("GREATER",
                         {TensorType::kUInt8,
                          {4},
                          testing::Quantize({1.0f, 0.5f, 0.35f, 0.1f}, s1, 0, TensorType::kUInt8),
                          testing::PerTensor(s1, 0)},
                         {TensorType::kUInt8,
                          {4},
                          testing::Quantize({1.01f, 0.25f, 0.3f, 0.4f}, s2, 0, TensorType::kUInt8),
                          testing::PerTensor(s2, 0)},
                         {4}),
            (std::vector<uint8_t>{0, 1, 1, 0}));
}

// EQUAL rescales quantized int16 (5 == 5, 10 != 10.25 in real values); the orderings compare
// int16 as stored, whatever the scales.
TEST(ComparisonTest, Int16EqualityRescalesOrderingsDoNot) {
  EXPECT_EQ(RunQuantized("EQUAL", {TensorType::kInt16, {2}, {10, 20}, testing::PerTensor(0.5f, 0)},
                         {TensorType::kInt16, {2}, {20, 41}, testing::PerTensor(0.25f, 0)}, {2}),
            (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(RunQuantized("LESS", {TensorType::kInt16, {2}, {10, 20}, testing::PerTensor(0.5f, 0)},
                         {TensorType::kInt16, {2}, {20, 41}, testing::PerTensor(0.25f, 0)}, {2}),
            (std::vector<uint8_t>{1, 1}));
}

TEST(ComparisonTest, BoolEqualityButNoOrdering) {
  KernelRunner equal("NOT_EQUAL");
  equal.AddInput<uint8_t>(TensorType::kBool, {3}, {1, 0, 1});
  equal.AddInput<uint8_t>(TensorType::kBool, {}, {1});
  equal.AddOutput(TensorType::kBool, {3});
  ASSERT_TRUE(equal.Run().ok());
  EXPECT_EQ(equal.Output<uint8_t>(), (std::vector<uint8_t>{0, 1, 0}));

  KernelRunner less("LESS");
  less.AddInput<uint8_t>(TensorType::kBool, {1}, {1});
  less.AddInput<uint8_t>(TensorType::kBool, {1}, {1});
  less.AddOutput(TensorType::kBool, {1});
  const Status status = less.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "comparison of bool is not supported");
}

}  // namespace
}  // namespace tfa::runtime
