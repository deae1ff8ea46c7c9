#include "runtime/kernels/cpu/transform_landmarks.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

const std::vector<float> kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

Result<std::vector<float>> RunOp(std::vector<int32_t> shape, const std::vector<float>& landmarks,
                               const std::vector<float>& matrix, int32_t version = 2) {
  KernelRunner k("TransformLandmarks");
  k.set_version(version);
  k.AddFloatInput(shape, landmarks);
  k.AddFloatInput({1, 4, 4}, matrix);
  k.AddOutput(TensorType::kFloat32, shape);
  TFA_RETURN_IF_ERROR(k.Run());
  return k.Output();
}

TEST(TransformLandmarksTest, IdentityKeepsTheLandmarks) {
  const std::vector<float> landmarks = {1, 2, -3, 4.5f, 0, 0};
  auto out = RunOp({1, 3, 2}, landmarks, kIdentity);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, landmarks);
}

TEST(TransformLandmarksTest, ScaleAndTranslationUseTheLastColumn) {
  // x' = 2x + 10, y' = 3y - 1; the z column (m2, m6) multiplies z = 0 and changes nothing.
  const std::vector<float> matrix = {2, 0, 100, 10, 0, 3, 100, -1, 0, 0, 1, 0, 0, 0, 0, 1};
  auto out = RunOp({1, 2, 2}, {1, 2, -1, 0.5f}, matrix);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, (std::vector<float>{12, 5, 8, 0.5f}));
}

TEST(TransformLandmarksTest, RotationTurnsXyAndCopiesZ) {
  // A quarter turn: (x, y) -> (-y, x); the third coordinate passes through.
  const std::vector<float> matrix = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  auto out = RunOp({1, 2, 3}, {1, 2, 7, -3, 0.5f, -8}, matrix);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, (std::vector<float>{-2, 1, 7, -0.5f, -3, -8}));
}

TEST(TransformLandmarksTest, ShapesAndVersionsItDoesNotHaveAreErrors) {
  EXPECT_EQ(RunOp({1, 1, 4}, {1, 2, 3, 4}, kIdentity).status().message(),
            "landmarks have 4 coordinates, expected 2 or 3");
  EXPECT_EQ(RunOp({1, 1, 1, 2}, {1, 2}, kIdentity).status().message(),
            "landmarks has shape [1,1,1,2], expected rank 3");
  EXPECT_EQ(RunOp({1, 1, 2}, {1, 2}, kIdentity, 1).status().message(),
            "version 1 is not supported (mediapipe registers version 2)");
  KernelRunner k("TransformLandmarks");
  k.set_version(2);
  k.AddFloatInput({1, 2, 2}, {1, 2, 3, 4});
  k.AddFloatInput({1, 4, 4}, kIdentity);
  k.AddOutput(TensorType::kFloat32, {1, 1, 2});
  EXPECT_EQ(k.Run().message(), "output shape [1,1,2] differs from the computed [1,2,2]");
}

}  // namespace
}  // namespace tfa::runtime
