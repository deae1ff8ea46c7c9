#include "runtime/kernels/cpu/logical.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<uint8_t> RunLogical(const char* op, std::vector<int32_t> b_shape,
                                const std::vector<uint8_t>& b) {
  KernelRunner k(op);
  k.AddInput<uint8_t>(TensorType::kBool, {1, 1, 1, 4}, {1, 0, 0, 1});
  k.AddInput<uint8_t>(TensorType::kBool, std::move(b_shape), b);
  k.AddOutput(TensorType::kBool, {1, 1, 1, 4});
  EXPECT_TRUE(k.Run().ok()) << op;
  return k.Output<uint8_t>();
}

// Figures of upstream's logical_test.cc.
TEST(LogicalTest, OrAndAndBroadcast) {
  EXPECT_EQ(RunLogical("LOGICAL_OR", {1, 1, 1, 4}, {1, 0, 1, 0}),
            (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(RunLogical("LOGICAL_OR", {1, 1, 1, 1}, {0}), (std::vector<uint8_t>{1, 0, 0, 1}));
  EXPECT_EQ(RunLogical("LOGICAL_AND", {1, 1, 1, 4}, {1, 0, 1, 0}),
            (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(RunLogical("LOGICAL_AND", {1, 1, 1, 1}, {1}), (std::vector<uint8_t>{1, 0, 0, 1}));
}

// Figures of upstream's elementwise_test.cc LogicalNot.
TEST(LogicalTest, Not) {
  KernelRunner k("LOGICAL_NOT");
  k.AddInput<uint8_t>(TensorType::kBool, {1, 1, 4, 1}, {1, 0, 1, 0});
  k.AddOutput(TensorType::kBool, {1, 1, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<uint8_t>(), (std::vector<uint8_t>{0, 1, 0, 1}));
}

TEST(LogicalTest, NonBoolInputIsRefused) {
  KernelRunner k("LOGICAL_NOT");
  k.AddFloatInput({1}, {1});
  k.AddOutput(TensorType::kBool, {1});
  EXPECT_EQ(k.Run().message(),
            "the runtime has no float32 kernel for this op's input (it has bool)");
}

}  // namespace
}  // namespace tfa::runtime
