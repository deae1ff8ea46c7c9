#include "runtime/kernels/cpu/densify.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(DensifyTest, CsrRows) {
  // [[0, 5, 0], [7, 0, 8]]: rows dense, columns CSR.
  Sparsity s;
  s.traversal_order = {0, 1};
  s.dimensions = {{true, 2, {}, {}}, {false, 0, {0, 1, 3}, {1, 0, 2}}};
  KernelRunner k("DENSIFY");
  RuntimeTensor& in = k.AddFloatInput({2, 3}, {5, 7, 8});
  in.sparsity = &s;
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 5, 0, 7, 0, 8}));
}

TEST(DensifyTest, BlockedColumns) {
  // A 2x4 matrix in 1x2 blocks: block (0,1) = [1,2], block (1,0) = [3,4].
  Sparsity s;
  s.traversal_order = {0, 1, 2};
  s.block_map = {1};
  s.dimensions = {{true, 2, {}, {}}, {false, 0, {0, 1, 2}, {1, 0}}, {true, 2, {}, {}}};
  KernelRunner k("DENSIFY");
  RuntimeTensor& in = k.AddFloatInput({2, 4}, {1, 2, 3, 4});
  in.sparsity = &s;
  k.AddOutput(TensorType::kFloat32, {2, 4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 0, 1, 2, 3, 4, 0, 0}));
}

}  // namespace
}  // namespace tfa::runtime
