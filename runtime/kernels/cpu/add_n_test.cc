#include "runtime/kernels/cpu/add_n.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Figures of upstream's add_n_test.cc.
TEST(AddNTest, FloatAndInt32) {
  KernelRunner f("ADD_N");
  f.AddFloatInput({1, 2, 2, 1}, {-2.0f, 0.2f, 0.7f, 0.8f});
  f.AddFloatInput({1, 2, 2, 1}, {0.1f, 0.2f, 0.3f, 0.5f});
  f.AddFloatInput({1, 2, 2, 1}, {0.5f, 0.1f, 0.1f, 0.2f});
  f.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
  ASSERT_TRUE(f.Run().ok());
  const std::vector<float> expected = {-1.4f, 0.5f, 1.1f, 1.5f};
  const auto out = f.Output();
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-6) << i;
  KernelRunner i("ADD_N");
  i.AddInt32Input({1, 2, 2, 1}, {-20, 2, 7, 8});
  i.AddInt32Input({1, 2, 2, 1}, {1, 2, 3, 5});
  i.AddInt32Input({1, 2, 2, 1}, {10, -5, 10, -2});
  i.AddOutput(TensorType::kInt32, {1, 2, 2, 1});
  ASSERT_TRUE(i.Run().ok());
  EXPECT_EQ(i.Output<int32_t>(), (std::vector<int32_t>{-9, -1, 20, 11}));
}

TEST(AddNTest, ShapesMustMatch) {
  KernelRunner k("ADD_N");
  k.AddFloatInput({2}, {1, 2});
  k.AddFloatInput({1}, {1});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_EQ(k.Run().message(), "input 1 has shape [1], input 0 [2]");
}

}  // namespace
}  // namespace tfa::runtime
