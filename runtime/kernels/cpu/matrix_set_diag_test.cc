// The figures of upstream's tflite/kernels/matrix_set_diag_test.cc.
#include "runtime/kernels/cpu/matrix_set_diag.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> Compute(TensorType type, std::vector<int32_t> shape, const std::vector<T>& input,
                       std::vector<int32_t> diagonal_shape, const std::vector<T>& diagonal) {
  KernelRunner k("MATRIX_SET_DIAG");
  k.AddInput(type, shape, input);
  k.AddInput(type, std::move(diagonal_shape), diagonal);
  k.AddOutput(type, std::move(shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

template <typename T>
void ExpectThreeByThree(TensorType type) {
  EXPECT_EQ(Compute<T>(type, {3, 3}, {7, 1, 2, 3, 8, 4, 5, 6, 9}, {3}, {0, 4, 2}),
            (std::vector<T>{0, 1, 2, 3, 4, 4, 5, 6, 2}))
      << TensorTypeName(type);
}

TEST(MatrixSetDiagTest, ThreeByThreeDiagScatter) {
  ExpectThreeByThree<int32_t>(TensorType::kInt32);
  ExpectThreeByThree<float>(TensorType::kFloat32);
  ExpectThreeByThree<int16_t>(TensorType::kInt16);
  ExpectThreeByThree<int8_t>(TensorType::kInt8);
  ExpectThreeByThree<uint8_t>(TensorType::kUInt8);
}

TEST(MatrixSetDiagTest, MoreColumnsThanRows) {
  EXPECT_EQ(Compute<int32_t>(TensorType::kInt32, {2, 3}, {0, 0, 0, 9, 9, 9}, {2}, {1, 1}),
            (std::vector<int32_t>{1, 0, 0, 9, 1, 9}));
}

TEST(MatrixSetDiagTest, TwoDimDiag) {
  std::vector<int32_t> input(16, 5);
  input.resize(32, 1);
  EXPECT_EQ(
      Compute<int32_t>(TensorType::kInt32, {2, 4, 4}, input, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}),
      (std::vector<int32_t>{1, 5, 5, 5, 5, 2, 5, 5, 5, 5, 3, 5, 5, 5, 5, 4,
                            5, 1, 1, 1, 1, 6, 1, 1, 1, 1, 7, 1, 1, 1, 1, 8}));
}

// Upstream reads past a short diagonal, and any type but its six as float32.
TEST(MatrixSetDiagTest, RefusesWhatUpstreamWouldMisread) {
  KernelRunner short_diagonal("MATRIX_SET_DIAG");
  short_diagonal.AddInt32Input({3, 3}, std::vector<int32_t>(9));
  short_diagonal.AddInt32Input({2}, {1, 2});
  short_diagonal.AddOutput(TensorType::kInt32, {3, 3});
  EXPECT_FALSE(short_diagonal.Run().ok());

  KernelRunner boolean("MATRIX_SET_DIAG");
  boolean.AddInput<uint8_t>(TensorType::kBool, {2, 2}, {0, 1, 1, 0});
  boolean.AddInput<uint8_t>(TensorType::kBool, {2}, {1, 1});
  boolean.AddOutput(TensorType::kBool, {2, 2});
  EXPECT_FALSE(boolean.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
