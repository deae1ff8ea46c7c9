#include "runtime/kernels/cpu/fully_connected.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/model_data.h"

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

// One input row and enough work for two threads: they split the units (the output columns).
TEST(FullyConnectedTest, TwoThreadsSplitTheUnitsOfOneRow) {
  constexpr int32_t kIn = 256, kUnits = 256;
  const KernelThreadPool pool(2);
  KernelRunner k("FULLY_CONNECTED");
  k.set_thread_pool(&pool);
  std::vector<float> weights(kIn * kUnits);
  for (int32_t u = 0; u < kUnits; ++u) {
    for (int32_t i = 0; i < kIn; ++i) weights[static_cast<size_t>(u * kIn + i)] = (u % 3) * 0.5f;
  }
  k.AddFloatInput({1, kIn}, std::vector<float>(kIn, 1.0f));
  k.AddFloatInput({kUnits, kIn}, weights);
  k.AddFloatInput({kUnits}, std::vector<float>(kUnits, 1.0f));
  k.AddOutput(TensorType::kFloat32, {1, kUnits});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> out = k.Output();
  ASSERT_EQ(out.size(), 256u);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 129.0f);
  EXPECT_EQ(out[2], 257.0f);
  EXPECT_EQ(out[127], 129.0f);
  EXPECT_EQ(out[128], 257.0f);
  EXPECT_EQ(out[255], 1.0f);
}

// Weights stored sparse (no DENSIFY before the node) are refused, float and hybrid alike,
// rather than read as dense.
TEST(FullyConnectedTest, SparseWeightsAreRefused) {
  const Sparsity sparsity;
  for (const TensorType weight_type : {TensorType::kFloat32, TensorType::kInt8}) {
    KernelRunner k("FULLY_CONNECTED");
    Quantization q{{0.5f}, {0}, 0};
    k.AddFloatInput({1, 2}, {1, 2});
    RuntimeTensor& w = weight_type == TensorType::kFloat32
                           ? k.AddFloatInput({2, 2}, {1, 0, 0, 1})
                           : k.AddInput(TensorType::kInt8, {2, 2}, std::vector<int8_t>{1, 0, 0, 1});
    w.quantization = weight_type == TensorType::kInt8 ? &q : nullptr;
    w.is_constant = true;
    w.sparsity = &sparsity;
    k.AddOutput(TensorType::kFloat32, {1, 2});
    EXPECT_EQ(k.Run().message(),
              "sparse weights are not supported (upstream's sparse FULLY_CONNECTED paths are not "
              "modelled)");
  }
}

}  // namespace
}  // namespace tfa::runtime
