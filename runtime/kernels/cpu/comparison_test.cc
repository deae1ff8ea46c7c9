#include "runtime/kernels/cpu/comparison.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

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

}  // namespace
}  // namespace tfa::runtime
