#include "runtime/kernels/cpu/int32_arithmetic.h"

#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<int32_t> RunBinary(const std::string& op, std::vector<int32_t> shape_a,
                               const std::vector<int32_t>& a, std::vector<int32_t> shape_b,
                               const std::vector<int32_t>& b, std::vector<int32_t> shape_out,
                               Activation activation = Activation::kNone) {
  KernelRunner k(op);
  k.options().fused_activation = activation;
  k.AddInt32Input(std::move(shape_a), a);
  k.AddInt32Input(std::move(shape_b), b);
  k.AddOutput(TensorType::kInt32, std::move(shape_out));
  EXPECT_TRUE(k.Run().ok());
  return k.Output<int32_t>();
}

TEST(Int32ArithmeticTest, AddSubMulSameShape) {
  EXPECT_EQ(RunBinary("ADD", {3}, {1, -2, 30}, {3}, {4, 5, -6}, {3}),
            (std::vector<int32_t>{5, 3, 24}));
  EXPECT_EQ(RunBinary("SUB", {3}, {1, -2, 30}, {3}, {4, 5, -6}, {3}),
            (std::vector<int32_t>{-3, -7, 36}));
  EXPECT_EQ(RunBinary("MUL", {3}, {1, -2, 30}, {3}, {4, 5, -6}, {3}),
            (std::vector<int32_t>{4, -10, -180}));
}

TEST(Int32ArithmeticTest, Broadcasts) {
  EXPECT_EQ(RunBinary("ADD", {2, 1}, {10, 20}, {3}, {1, 2, 3}, {2, 3}),
            (std::vector<int32_t>{11, 12, 13, 21, 22, 23}));
  EXPECT_EQ(RunBinary("ADD", {1, 2, 2}, {1, 2, 3, 4}, {}, {100}, {1, 2, 2}),
            (std::vector<int32_t>{101, 102, 103, 104}));
}

TEST(Int32ArithmeticTest, FusedActivationClampsAndOverflowWraps) {
  EXPECT_EQ(RunBinary("ADD", {3}, {-5, 3, 9}, {1}, {1}, {3}, Activation::kRelu6),
            (std::vector<int32_t>{0, 4, 6}));
  const int32_t max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(RunBinary("ADD", {1}, {max}, {1}, {1}, {1}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::lowest()}));
}

TEST(Int32ArithmeticTest, FloatInputsStillReachTheFloatKernel) {
  KernelRunner k("ADD");
  k.AddFloatInput({2}, {0.5f, 1});
  k.AddFloatInput({2}, {0.25f, 2});
  k.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0.75f, 3}));
}

TEST(Int32ArithmeticTest, MixedTypesAreRefused) {
  KernelRunner k("ADD");
  k.AddInt32Input({1}, {1});
  k.AddFloatInput({1}, {1});
  k.AddOutput(TensorType::kInt32, {1});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "the runtime has no float32 kernel for this op's input 1 (it has int32)");
}

// Upstream's sub_test.cc Int64SubOpModel cases, and the same operands through ADD and MUL.
TEST(Int32ArithmeticTest, Int64AddSubMul) {
  auto run = [](const std::string& op, Activation activation) {
    KernelRunner k(op);
    k.options().fused_activation = activation;
    k.AddInput<int64_t>(TensorType::kInt64, {1, 2, 2, 1}, {-20, 2, 7, 8});
    k.AddInput<int64_t>(TensorType::kInt64, {1, 2, 2, 1}, {1, 2, 3, 5});
    k.AddOutput(TensorType::kInt64, {1, 2, 2, 1});
    EXPECT_TRUE(k.Run().ok());
    return k.Output<int64_t>();
  };
  EXPECT_EQ(run("SUB", Activation::kNone), (std::vector<int64_t>{-21, 0, 4, 3}));
  EXPECT_EQ(run("SUB", Activation::kReluN1To1), (std::vector<int64_t>{-1, 0, 1, 1}));
  EXPECT_EQ(run("ADD", Activation::kNone), (std::vector<int64_t>{-19, 4, 10, 13}));
  EXPECT_EQ(run("MUL", Activation::kNone), (std::vector<int64_t>{-20, 4, 21, 40}));
}

TEST(Int32ArithmeticTest, Int64BroadcastsAScalar) {
  KernelRunner k("SUB");
  k.AddInput<int64_t>(TensorType::kInt64, {2, 3}, {-20, 2, 7, 8, 11, 20});
  k.AddInput<int64_t>(TensorType::kInt64, {}, {1});
  k.AddOutput(TensorType::kInt64, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{-21, 1, 6, 7, 10, 19}));
}

// Upstream's div_test.cc IntegerDivOpTest.NoActivation (facts copied): truncating division; a
// zero divisor is refused, as div.cc's Eval does.
TEST(Int32ArithmeticTest, Int32DivTruncatesAndRefusesZero) {
  EXPECT_EQ(
      RunBinary("DIV", {1, 2, 2, 1}, {-2, 2, -15, 8}, {1, 2, 2, 1}, {5, -2, -3, 5}, {1, 2, 2, 1}),
      (std::vector<int32_t>{0, -1, 5, 1}));
  KernelRunner k("DIV");
  k.AddInt32Input({2}, {1, 2});
  k.AddInt32Input({2}, {1, 0});
  k.AddOutput(TensorType::kInt32, {2});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "DIV by zero");
}

// squared_difference_test.cc IntegerSquaredDifferenceOpTest.IntegerType_SameShape (facts copied).
TEST(Int32ArithmeticTest, Int32SquaredDifference) {
  EXPECT_EQ(RunBinary("SQUARED_DIFFERENCE", {1, 2, 2, 1}, {-2, 2, -15, 8}, {1, 2, 2, 1},
                      {5, -2, -3, 5}, {1, 2, 2, 1}),
            (std::vector<int32_t>{49, 16, 144, 9}));
}

}  // namespace
}  // namespace tfa::runtime
