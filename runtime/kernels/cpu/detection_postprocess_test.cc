#include "runtime/kernels/cpu/detection_postprocess.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <deque>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<uint8_t> Options(bool regular) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", 2);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Int("detections_per_class", 2);
    fbb.Bool("use_regular_nms", regular);
    fbb.Float("nms_score_threshold", 0.1f);
    fbb.Float("nms_iou_threshold", 0.5f);
    fbb.Int("num_classes", 1);
    fbb.Float("y_scale", 10);
    fbb.Float("x_scale", 10);
    fbb.Float("h_scale", 5);
    fbb.Float("w_scale", 5);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Three anchors: two identical unit boxes centred at (0.5, 0.5) and one at (5, 5). Zero
// encodings decode to the anchors' corners. The first two overlap fully, so NMS keeps the
// higher score (0.9), then the far box (0.3).
void AddInputs(KernelRunner& k) {
  k.AddFloatInput({1, 3, 4}, std::vector<float>(12, 0.0f));
  k.AddFloatInput({1, 3, 2}, {0.0f, 0.8f, 0.0f, 0.9f, 0.0f, 0.3f});
  k.AddFloatInput({3, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1, 5, 5, 1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 2, 4});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1});
}

TEST(DetectionPostProcessTest, FastAndRegularNmsKeepTheBestOfOverlappingBoxes) {
  for (bool regular : {false, true}) {
    KernelRunner k("TFLite_Detection_PostProcess");
    const std::vector<uint8_t> options = Options(regular);
    k.node_data().custom_options = options;
    AddInputs(k);
    ASSERT_TRUE(k.Run().ok());
    EXPECT_EQ(k.Output(0), (std::vector<float>{0, 0, 1, 1, 4.5f, 4.5f, 5.5f, 5.5f})) << regular;
    EXPECT_EQ(k.Output(1), (std::vector<float>{0, 0})) << regular;
    EXPECT_EQ(k.Output(2), (std::vector<float>{0.9f, 0.3f})) << regular;
    EXPECT_EQ(k.Output(3), (std::vector<float>{2})) << regular;
  }
}

// The same boxes with uint8 inputs: upstream dequantizes the encodings, the anchors (in the
// encodings' type) and the class predictions, each as (float(q) - zero_point) * scale.
TEST(DetectionPostProcessTest, Uint8InputsAreDequantizedFirst) {
  for (bool regular : {false, true}) {
    KernelRunner k("TFLite_Detection_PostProcess");
    const std::vector<uint8_t> options = Options(regular);
    k.node_data().custom_options = options;
    std::deque<Quantization> q;
    auto quantized = [&](std::vector<int32_t> shape, std::vector<uint8_t> values, float scale,
                         int64_t zero_point) {
      RuntimeTensor& t = k.AddInput(TensorType::kUInt8, std::move(shape), values);
      t.quantization = &q.emplace_back(Quantization{{scale}, {zero_point}});
    };
    quantized({1, 3, 4}, std::vector<uint8_t>(12, 128), 0.1f, 128);
    quantized({1, 3, 2}, {0, 80, 0, 90, 0, 30}, 0.01f, 0);
    quantized({3, 4}, {1, 1, 2, 2, 1, 1, 2, 2, 10, 10, 2, 2}, 0.5f, 0);
    k.AddOutput(TensorType::kFloat32, {1, 2, 4});
    k.AddOutput(TensorType::kFloat32, {1, 2});
    k.AddOutput(TensorType::kFloat32, {1, 2});
    k.AddOutput(TensorType::kFloat32, {1});
    ASSERT_TRUE(k.Run().ok());
    EXPECT_EQ(k.Output(0), (std::vector<float>{0, 0, 1, 1, 4.5f, 4.5f, 5.5f, 5.5f})) << regular;
    EXPECT_EQ(k.Output(1), (std::vector<float>{0, 0})) << regular;
    EXPECT_EQ(k.Output(2), (std::vector<float>{90 * 0.01f, 30 * 0.01f})) << regular;
    EXPECT_EQ(k.Output(3), (std::vector<float>{2})) << regular;
  }
}

TEST(DetectionPostProcessTest, Uint8EncodingsWithFloatAnchorsAreRefused) {
  KernelRunner k("TFLite_Detection_PostProcess");
  const std::vector<uint8_t> options = Options(false);
  k.node_data().custom_options = options;
  Quantization q{{0.1f}, {0}};
  k.AddInput(TensorType::kUInt8, {1, 3, 4}, std::vector<uint8_t>(12, 0)).quantization = &q;
  k.AddFloatInput({1, 3, 2}, {0.0f, 0.8f, 0.0f, 0.9f, 0.0f, 0.3f});
  k.AddFloatInput({3, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1, 5, 5, 1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 2, 4});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1});
  EXPECT_FALSE(k.Run().ok());
}

TEST(DetectionPostProcessTest, RefusesMissingOptions) {
  KernelRunner k("TFLite_Detection_PostProcess");
  flexbuffers::Builder fbb;
  fbb.Map([&] { fbb.Int("max_detections", 2); });
  fbb.Finish();
  const std::vector<uint8_t> options = fbb.GetBuffer();
  k.node_data().custom_options = options;
  AddInputs(k);
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
