#include "runtime/kernels/cpu/matrix_diag.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> RunMatrixDiag(TensorType type, std::vector<int32_t> shape,
                             const std::vector<T>& values) {
  std::vector<int32_t> out_shape = shape;
  out_shape.push_back(shape.back());
  KernelRunner k("MATRIX_DIAG");
  k.AddInput<T>(type, std::move(shape), values);
  k.AddOutput(type, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

// Figures of upstream's matrix_diag_test.cc: ThreeByThreeDiag for each type, Int32TestTwoDimDiag,
// DegenerateCase.
TEST(MatrixDiagTest, UpstreamFigures) {
  EXPECT_EQ(RunMatrixDiag<int32_t>(TensorType::kInt32, {3}, {1, 2, 3}),
            (std::vector<int32_t>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
  EXPECT_EQ(RunMatrixDiag<float>(TensorType::kFloat32, {3}, {1, 2, 3}),
            (std::vector<float>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
  EXPECT_EQ(RunMatrixDiag<int16_t>(TensorType::kInt16, {3}, {1, 2, 3}),
            (std::vector<int16_t>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
  EXPECT_EQ(RunMatrixDiag<int8_t>(TensorType::kInt8, {3}, {1, 2, 3}),
            (std::vector<int8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
  EXPECT_EQ(RunMatrixDiag<uint8_t>(TensorType::kUInt8, {3}, {1, 2, 3}),
            (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
  EXPECT_EQ(RunMatrixDiag<int32_t>(TensorType::kInt32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}),
            (std::vector<int32_t>{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4,
                                  5, 0, 0, 0, 0, 6, 0, 0, 0, 0, 7, 0, 0, 0, 0, 8}));
  EXPECT_EQ(RunMatrixDiag<uint8_t>(TensorType::kUInt8, {1}, {1}), (std::vector<uint8_t>{1}));
}

TEST(MatrixDiagTest, ABoolDiagonalIsAnError) {
  KernelRunner k("MATRIX_DIAG");
  k.AddInput<uint8_t>(TensorType::kBool, {2}, {1, 0});
  k.AddOutput(TensorType::kBool, {2, 2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
