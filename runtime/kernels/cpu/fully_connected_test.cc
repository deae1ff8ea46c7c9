#include "runtime/kernels/cpu/fully_connected.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(FullyConnectedTest, FlattensTheInputAndAddsBias) {
  KernelRunner k("FULLY_CONNECTED");
  k.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});  // two rows of in_dim 2
  k.AddFloatInput({3, 2}, {1, 0, 0, 1, 1, 1});
  k.AddFloatInput({3}, {0, 0, 10});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 13, 3, 4, 17}));
}

TEST(FullyConnectedTest, KeepNumDimsAndRelu) {
  KernelRunner k("FULLY_CONNECTED");
  k.options().keep_num_dims = true;
  k.options().fused_activation = Activation::kRelu;
  k.AddFloatInput({1, 2, 2}, {1, 2, 3, 4});
  k.AddFloatInput({1, 2}, {-1, 1});
  k.AddAbsentInput();
  k.AddOutput(TensorType::kFloat32, {1, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 1}));
}

}  // namespace
}  // namespace tfa::runtime
