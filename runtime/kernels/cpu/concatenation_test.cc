#include "runtime/kernels/cpu/concatenation.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ConcatenationTest, InnerAxisInterleavesRows) {
  KernelRunner k("CONCATENATION");
  k.options().axis = -1;
  k.AddFloatInput({2, 1}, {1, 2});
  k.AddFloatInput({2, 2}, {3, 4, 5, 6});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatenationTest, OuterAxisAppends) {
  KernelRunner k("CONCATENATION");
  k.options().axis = 0;
  k.AddInt32Input({1, 2}, {1, 2});
  k.AddInt32Input({1, 2}, {3, 4});
  k.AddOutput(TensorType::kInt32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
}

// concatenation.cc copies int16 without rescaling (scales may differ) but needs zero points 0,
// and refuses element types outside its list.
TEST(ConcatenationTest, Int16CopiesAndChecksZeroPoints) {
  Quantization a, b, out;
  a.scale = {0.5f};
  a.zero_point = {0};
  b.scale = {0.25f};
  b.zero_point = {0};
  out.scale = {0.5f};
  out.zero_point = {0};
  KernelRunner k("CONCATENATION");
  k.options().axis = 0;
  k.AddInput<int16_t>(TensorType::kInt16, {1}, {-300}).quantization = &a;
  k.AddInput<int16_t>(TensorType::kInt16, {2}, {7, 30000}).quantization = &b;
  k.AddOutput(TensorType::kInt16, {3}).quantization = &out;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{-300, 7, 30000}));

  b.zero_point = {1};
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "input 1 int16 zero point must be 0");

  KernelRunner f64("CONCATENATION");
  f64.AddInput<double>(TensorType::kFloat64, {1}, {1.0});
  f64.AddOutput(TensorType::kFloat64, {1});
  EXPECT_FALSE(f64.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
