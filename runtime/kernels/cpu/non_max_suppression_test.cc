// The figures of upstream's tflite/kernels/non_max_suppression_test.cc.
#include "runtime/kernels/cpu/non_max_suppression.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

const std::vector<float> kBoxes = {
    1, 1,     0, 0,      // box 0
    0, 0.1f,  1, 1.1f,   // box 1
    0, .9f,   1, -0.1f,  // box 2
    0, 10,    1, 11,     // box 3
    1, 10.1f, 0, 11.1f,  // box 4
    1, 101,   0, 100     // box 5
};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

struct Selection {
  std::vector<int32_t> indices;
  std::vector<float> scores;  // soft NMS only
  int32_t count = -1;
};

// One Invoke: V4 (sigma < 0) or V5. `constant`: max_output_size is a model constant, else the
// interpreter sized the selections from its value.
Selection Compute(int32_t max_output_size, float score_threshold, float sigma = -1,
                  bool constant = true) {
  const bool soft = sigma >= 0;
  KernelRunner k(soft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4");
  k.AddFloatInput({6, 4}, kBoxes);
  k.AddFloatInput({6}, kScores);
  k.AddInt32Input({}, {max_output_size}).is_constant = constant;
  k.AddFloatInput({}, {0.5f}).is_constant = true;
  k.AddFloatInput({}, {score_threshold});
  if (soft) k.AddFloatInput({}, {sigma}).is_constant = true;
  k.AddOutput(TensorType::kInt32, {max_output_size});
  if (soft) k.AddOutput(TensorType::kFloat32, {max_output_size});
  k.AddOutput(TensorType::kInt32, {});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  Selection s;
  s.indices = k.Output<int32_t>(0);
  if (soft) s.scores = k.Output<float>(1);
  s.count = k.Output<int32_t>(soft ? 2 : 1).at(0);
  return s;
}

TEST(NonMaxSuppressionTest, V4Output) {
  Selection s = Compute(6, 0.4f);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3, 0, 0, 0, 0, 0}));
  // Nothing selected: the indices are zeroed.
  s = Compute(6, 0.99f);
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{0, 0, 0, 0, 0, 0}));
}

TEST(NonMaxSuppressionTest, V4DynamicOutput) {
  Selection s = Compute(1, 0.4f, -1, false);
  EXPECT_EQ(s.count, 1);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3}));
  s = Compute(2, 0.4f, -1, false);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3, 0}));
  s = Compute(2, 0.99f, -1, false);
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{0, 0}));
}

TEST(NonMaxSuppressionTest, V4OutputWithZeroMaxOutput) {
  const Selection s = Compute(0, 0.4f);
  EXPECT_EQ(s.count, 0);
  EXPECT_TRUE(s.indices.empty());
}

// Soft NMS with sigma 0.5: box 5's score 0.3 survives decaying, boxes 1, 2 and 4 do not.
TEST(NonMaxSuppressionTest, V5Output) {
  Selection s = Compute(6, 0.0f, 0.5f);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3, 0, 5, 0, 0, 0}));
  const std::vector<float> scores = {0.95f, 0.9f, 0.3f, 0, 0, 0};
  for (size_t i = 0; i < scores.size(); ++i) EXPECT_FLOAT_EQ(s.scores[i], scores[i]) << i;
  s = Compute(6, 0.99f, 0.5f);
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(s.scores, (std::vector<float>{0, 0, 0, 0, 0, 0}));
}

TEST(NonMaxSuppressionTest, V5DynamicOutput) {
  Selection s = Compute(2, 0.0f, 0.5f, false);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3, 0}));
  EXPECT_FLOAT_EQ(s.scores[0], 0.95f);
  EXPECT_FLOAT_EQ(s.scores[1], 0.9f);
  s = Compute(1, 0.0f, 0.5f, false);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3}));
  EXPECT_FLOAT_EQ(s.scores[0], 0.95f);
  s = Compute(3, 0.0f, 0.5f, false);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{3, 0, 5}));
  EXPECT_FLOAT_EQ(s.scores[2], 0.3f);
  s = Compute(3, 0.99f, 0.5f, false);
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.indices, (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(s.scores, (std::vector<float>{0, 0, 0}));
}

// Upstream's Prepare: boxes [n, 4], an int32 scalar max_output_size; Eval: sigma >= 0.
TEST(NonMaxSuppressionTest, RefusesWhatUpstreamRefuses) {
  KernelRunner boxes("NON_MAX_SUPPRESSION_V4");
  boxes.AddFloatInput({6, 3}, std::vector<float>(18));
  boxes.AddFloatInput({6}, kScores);
  boxes.AddInt32Input({}, {2}).is_constant = true;
  boxes.AddFloatInput({}, {0.5f});
  boxes.AddFloatInput({}, {0.1f});
  boxes.AddOutput(TensorType::kInt32, {2});
  boxes.AddOutput(TensorType::kInt32, {});
  EXPECT_EQ(boxes.Run().message(), "boxes [6,3] are not [n,4]");

  KernelRunner sigma("NON_MAX_SUPPRESSION_V5");
  sigma.AddFloatInput({6, 4}, kBoxes);
  sigma.AddFloatInput({6}, kScores);
  sigma.AddInt32Input({}, {2}).is_constant = true;
  sigma.AddFloatInput({}, {0.5f});
  sigma.AddFloatInput({}, {0.1f});
  sigma.AddFloatInput({}, {-1.0f});
  sigma.AddOutput(TensorType::kInt32, {2});
  sigma.AddOutput(TensorType::kFloat32, {2});
  sigma.AddOutput(TensorType::kInt32, {});
  EXPECT_FALSE(sigma.Run().ok());

  KernelRunner negative("NON_MAX_SUPPRESSION_V4");
  negative.AddFloatInput({6, 4}, kBoxes);
  negative.AddFloatInput({6}, kScores);
  negative.AddInt32Input({}, {-1}).is_constant = true;
  negative.AddFloatInput({}, {0.5f});
  negative.AddFloatInput({}, {0.1f});
  negative.AddOutput(TensorType::kInt32, {0});
  negative.AddOutput(TensorType::kInt32, {});
  EXPECT_EQ(negative.Run().message(), "max_output_size -1 is negative");
}

}  // namespace
}  // namespace tfa::runtime
