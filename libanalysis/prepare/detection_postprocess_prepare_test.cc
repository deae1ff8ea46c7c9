// TFLite_Detection_PostProcess's Prepare through the replay: outputs sized from the flexbuffer
// options and the two Init tensors sized from the inputs, as
// tflite/kernels/detection_postprocess.cc does; malformed options are an error naming the node.
#include "libanalysis/prepare/detection_postprocess_prepare.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/prepare/kernel_prepare.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

std::vector<uint8_t> Options(int max_detections, int max_classes_per_detection, int num_classes) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", max_detections);
    fbb.Int("max_classes_per_detection", max_classes_per_detection);
    fbb.Int("num_classes", num_classes);
    fbb.Float("nms_score_threshold", 0.3f);
    fbb.Float("nms_iou_threshold", 0.6f);
    fbb.Float("y_scale", 10.0f);
    fbb.Float("x_scale", 10.0f);
    fbb.Float("h_scale", 5.0f);
    fbb.Float("w_scale", 5.0f);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Box encodings [1, 32, 4], class predictions [1, 32, 3], anchors [32, 4]; the model's outputs
// say 10 detections.
Subgraph PostProcess(std::vector<uint8_t> custom_options) {
  Subgraph g;
  const int32_t boxes = AddTensor(g, TensorType::kFloat32, {1, 32, 4});
  const int32_t scores = AddTensor(g, TensorType::kFloat32, {1, 32, 3});
  const int32_t anchors = AddConstant(g, TensorType::kFloat32, {32, 4});
  std::vector<int32_t> outs;
  for (std::vector<int32_t> shape : {std::vector<int32_t>{1, 10, 4}, {1, 10}, {1, 10}, {1}}) {
    outs.push_back(AddTensor(g, TensorType::kFloat32, shape));
  }
  AddNode(g, "TFLite_Detection_PostProcess", {boxes, scores, anchors}, outs, NodeKind::kCustom)
      .options.Mutable()
      .custom_options = std::move(custom_options);
  return g;
}

TEST(DetectionPostProcessPrepareTest, OutputsComeFromTheOptionsAndTemporariesFromTheInputs) {
  const Subgraph g = PostProcess(Options(10, 2, 3));
  EXPECT_EQ(KernelInitTensorCount(g.nodes[0]), 2);
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  // 10 detections x 2 classes each: boxes [1, 20, 4], classes and scores [1, 20], count [1].
  EXPECT_EQ(p.tensors[3].shape, (std::vector<int32_t>{1, 20, 4}));
  EXPECT_EQ(p.tensors[3].bytes, 320u);
  EXPECT_EQ(p.tensors[4].bytes, 80u);
  EXPECT_EQ(p.tensors[5].bytes, 80u);
  EXPECT_EQ(p.tensors[6].bytes, 4u);
  // Decoded boxes [32, 4] and scores [32, 3], float32, in the Init tensors 7 and 8.
  EXPECT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{7, 8}));
  EXPECT_EQ(p.tensors[7].bytes, 512u);
  EXPECT_EQ(p.tensors[8].bytes, 384u);
  EXPECT_TRUE(prepared->assumptions.empty());
}

TEST(DetectionPostProcessPrepareTest, AbsentDetectionsPerClassDefaultsToOneHundred) {
  auto options = ParseDetectionPostProcessOptions(Options(5, 1, 2));
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->max_detections, 5);
  EXPECT_EQ(options->max_classes_per_detection, 1);
  EXPECT_EQ(options->detections_per_class, 100);
  EXPECT_EQ(options->num_classes, 2);
}

TEST(DetectionPostProcessPrepareTest, BytesThatAreNoFlexbufferAreAnErrorNamingTheNode) {
  auto prepared = ReplayKernelPrepare(PostProcess({1, 2, 3, 4, 5}));
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.status().message(),
            "node 0: TFLite_Detection_PostProcess: custom options are not a valid "
            "flexbuffer (5 bytes)");
}

TEST(DetectionPostProcessPrepareTest, UpstreamsChecksOnTheOptionsAreErrors) {
  auto no_classes = ReplayKernelPrepare(PostProcess(Options(10, 1, 0)));
  ASSERT_FALSE(no_classes.ok());
  EXPECT_EQ(no_classes.status().message(),
            "node 0: TFLite_Detection_PostProcess: num_classes must be positive");
  auto overflow = ReplayKernelPrepare(PostProcess(Options(1 << 20, 1 << 12, 1)));
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.status().message(),
            "node 0: TFLite_Detection_PostProcess: max_detections * "
            "max_classes_per_detection overflows int32");
}

}  // namespace
}  // namespace tfa
