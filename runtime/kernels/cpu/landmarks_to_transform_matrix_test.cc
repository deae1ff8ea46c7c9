#include "runtime/kernels/cpu/landmarks_to_transform_matrix.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Crop {
  std::vector<int32_t> subset;
  int32_t left = 0, right = 1;
  float target_rotation = 0;
  int32_t output_height = 0, output_width = 0;
  float scale_x = 1, scale_y = 1;
};

std::vector<uint8_t> Options(const Crop& crop) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.TypedVector("subset_idxs", [&] {
      for (int32_t i : crop.subset) fbb.Int(i);
    });
    fbb.Int("left_rotation_idx", crop.left);
    fbb.Int("right_rotation_idx", crop.right);
    fbb.Float("target_rotation_radians", crop.target_rotation);
    fbb.Int("output_height", crop.output_height);
    fbb.Int("output_width", crop.output_width);
    fbb.Float("scale_x", crop.scale_x);
    fbb.Float("scale_y", crop.scale_y);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Runs the op on x, y, z landmarks; the options bytes live in `options`.
Result<std::vector<float>> RunOp(const std::vector<float>& landmarks, const Crop& crop,
                               std::vector<uint8_t>& options, int32_t version = 2) {
  KernelRunner k("Landmarks2TransformMatrix");
  k.set_version(version);
  options = Options(crop);
  k.node_data().custom_options = options;
  k.AddFloatInput({1, static_cast<int32_t>(landmarks.size() / 3), 3}, landmarks);
  k.AddOutput(TensorType::kFloat32, {1, 4, 4});
  TFA_RETURN_IF_ERROR(k.Run());
  return k.Output();
}

// Landmarks 0 and 1 lie on the x axis (no rotation); 2 and 3 span the box (10, 20)-(30, 60).
const std::vector<float> kLevel = {0, 0, 0, 1, 0, 0, 10, 20, 5, 30, 60, -5};

TEST(LandmarksToTransformMatrixTest, CropOfTheOutputSizeAtTheOriginIsTheIdentity) {
  std::vector<uint8_t> options;
  const std::vector<float> landmarks = {0, 0, 0, 1, 0, 0, 0, 0, 0, 8, 4, 0};
  auto m = RunOp(landmarks, {.subset = {2, 3}, .output_height = 4, .output_width = 8}, options);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(*m, (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(LandmarksToTransformMatrixTest, LevelBoxGivesScaleAndTranslation) {
  // Box 20 x 40 centred on (20, 40) over a 10 x 20 output: scale 2, output (0, 0) -> (10, 20).
  std::vector<uint8_t> options;
  auto m = RunOp(kLevel, {.subset = {2, 3}, .output_height = 20, .output_width = 10}, options);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(*m, (std::vector<float>{2, 0, 0, 10, 0, 2, 0, 20, 0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(LandmarksToTransformMatrixTest, ScaleOptionsWidenTheCropAroundItsCentre) {
  // scale_x 1.5: x scale 1.5 * 20 / 10 = 3, x shift 20 - 3 * 5 = 5; an odd subset count repeats
  // its last index upstream, which leaves the box unchanged.
  std::vector<uint8_t> options;
  auto m = RunOp(kLevel,
               {.subset = {2, 3, 2}, .output_height = 20, .output_width = 10, .scale_x = 1.5f},
               options);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(*m, (std::vector<float>{3, 0, 0, 5, 0, 2, 0, 20, 0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(LandmarksToTransformMatrixTest, VerticalLandmarkLineTurnsTheCropAQuarter) {
  // Left (0, 0) to right (0, 1) points along +y: the rotation to level is -pi/2. The box of
  // (0, 0) and (2, 4) in the turned frame is 4 wide and 2 high, centred on (1, 2). The output's
  // +x axis runs along the input's +y, its +y along the input's -x:
  // output (0, 0) -> (2, 0), output (4, 2) -> (0, 4).
  std::vector<uint8_t> options;
  const std::vector<float> landmarks = {0, 0, 0, 0, 1, 0, 2, 4, 0};
  auto m = RunOp(landmarks, {.subset = {0, 2}, .output_height = 2, .output_width = 4}, options);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::vector<float> expected = {0, -1, 0, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR((*m)[i], expected[i], 1e-6) << i;
}

TEST(LandmarksToTransformMatrixTest, TargetRotationIsAddedToTheLevellingRotation) {
  // The landmark line is level; a target of pi/2 turns the crop the other way: output +x runs
  // along the input's -y. Box of (10, 20) and (30, 60): 40 x 20 in the turned frame.
  std::vector<uint8_t> options;
  auto m = RunOp(kLevel,
               {.subset = {2, 3}, .target_rotation = 1.5707963705062866f, .output_height = 20,
                .output_width = 40},
               options);
  ASSERT_TRUE(m.ok()) << m.status().message();
  // Output (0, 0) -> (10, 60), output (40, 20) -> (30, 20).
  const std::vector<float> expected = {0, 1, 0, 10, -1, 0, 0, 60, 0, 0, 1, 0, 0, 0, 0, 1};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR((*m)[i], expected[i], 1e-5) << i;
}

TEST(LandmarksToTransformMatrixTest, IndicesBeyondTheLandmarksAreErrors) {
  std::vector<uint8_t> options;
  EXPECT_EQ(RunOp(kLevel, {.subset = {2, 7}, .output_height = 2, .output_width = 2}, options)
                .status()
                .message(),
            "subset_idxs entry 7 is not a landmark (input holds 4)");
  EXPECT_EQ(RunOp(kLevel, {.subset = {2, 3}, .left = -1, .output_height = 2, .output_width = 2},
                options)
                .status()
                .message(),
            "left_rotation_idx -1 is not a landmark (input holds 4)");
  EXPECT_EQ(RunOp(kLevel, {.subset = {}, .output_height = 2, .output_width = 2}, options)
                .status()
                .message(),
            "subset_idxs is empty");
  EXPECT_EQ(RunOp(kLevel, {.subset = {2, 3}, .output_height = 0, .output_width = 2}, options)
                .status()
                .message(),
            "output_height and output_width must be positive");
}

TEST(LandmarksToTransformMatrixTest, MissingOptionsAndOtherVersionsAreErrors) {
  KernelRunner k("Landmarks2TransformMatrix");
  k.set_version(2);
  k.AddFloatInput({1, 4, 3}, kLevel);
  k.AddOutput(TensorType::kFloat32, {1, 4, 4});
  EXPECT_EQ(k.Run().message(), "custom options are empty, expected a flexbuffer map");
  std::vector<uint8_t> options;
  EXPECT_EQ(
      RunOp(kLevel, {.subset = {2, 3}, .output_height = 2, .output_width = 2}, options, 1)
          .status()
          .message(),
      "version 1 is not supported (mediapipe registers version 2)");
}

}  // namespace
}  // namespace tfa::runtime
