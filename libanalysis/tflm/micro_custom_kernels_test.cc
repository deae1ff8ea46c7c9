#include "libanalysis/tflm/micro_custom_kernels.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/tflm/kernel_prepare_checks.h"
#include "tests/support/custom_op_graph.h"
#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::CustomOpGraph;
using testing::Graph;
using testing::Op;
using T = TensorType;

const Build kHost{Target::kHost64};
const Build kMcu{Target::kMcu32};

std::vector<uint8_t> DetectionOptions(int max_detections, int num_classes) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", max_detections);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Int("num_classes", num_classes);
    fbb.Float("nms_score_threshold", 0.5f);
    fbb.Float("nms_iou_threshold", 0.6f);
    fbb.Float("y_scale", 10.0f);
    fbb.Float("x_scale", 10.0f);
    fbb.Float("h_scale", 5.0f);
    fbb.Float("w_scale", 5.0f);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// An SSD head of 10 boxes and 3 class scores each (background and 2 classes).
Subgraph Detection(std::vector<uint8_t> options, int32_t box_rank = 3) {
  std::vector<int32_t> boxes = {1, 10, 4};
  if (box_rank == 2) boxes = {10, 4};
  return CustomOpGraph(
      "TFLite_Detection_PostProcess",
      {ArenaTensor(boxes), ArenaTensor({1, 10, 3}), ArenaTensor({10, 4}), ArenaTensor({1, 3, 4}),
       ArenaTensor({1, 3}), ArenaTensor({1, 3}), ArenaTensor({1})},
      {0, 1, 2}, {3, 4, 5, 6}, std::move(options));
}

Subgraph CircularBuffer(std::vector<int32_t> in, std::vector<int32_t> out, T type = T::kInt8) {
  return CustomOpGraph("CIRCULAR_BUFFER",
                       {ArenaTensor(std::move(in), type), ArenaTensor(std::move(out), type)}, {0},
                       {1}, {});
}

std::string FailureOf(const Subgraph& graph) {
  return PrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

TEST(TflmCustomKernels, ResolverNamesTheCustomOpsMicroMutableOpResolverAdds) {
  EXPECT_EQ(ResolverMethod("CIRCULAR_BUFFER"), "AddCircularBuffer");
  EXPECT_EQ(ResolverMethod("TFLite_Detection_PostProcess"), "AddDetectionPostprocess");
  EXPECT_EQ(ResolverMethod("ethos-u"), "AddEthosU");
  EXPECT_EQ(KernelSource("CIRCULAR_BUFFER"), "circular_buffer.cc");
  EXPECT_FALSE(KernelSource("ethos-u").has_value());
}

// detection_postprocess.cc: OpData of 112 bytes on every build (no pointer, no 8-byte member),
// and Prepare's eleven scratch requests from the box count, the class scores and the options.
TEST(TflmCustomKernels, DetectionPostProcessAsksForItsElevenScratchBuffers) {
  const Subgraph graph = Detection(DetectionOptions(3, 2));
  for (const Build& build : {kHost, kMcu}) {
    auto requests = RequestsOfNode(build, graph, graph.nodes[0]);
    ASSERT_TRUE(requests.ok()) << requests.status().message();
    EXPECT_EQ(requests->op_data, 112u);
    EXPECT_EQ(requests->scratch_buffers,
              (std::vector<uint64_t>{10, 160, 120, 40, 40, 120, 120, 40, 120, 120, 120}));
    EXPECT_TRUE(requests->persistent_buffers.empty());
  }
  // More classes than detections: the shared buffer follows the classes.
  const Subgraph many = Detection(DetectionOptions(2, 7));
  auto requests = RequestsOfNode(kHost, many, many.nodes[0]);
  ASSERT_TRUE(requests.ok());
  EXPECT_EQ(requests->scratch_buffers[9], 7u * 10 * 4);
  EXPECT_EQ(requests->scratch_buffers[10], 2u * 10 * 4);
}

TEST(TflmCustomKernels, DetectionPostProcessRefusesWhatItsPrepareRefuses) {
  EXPECT_EQ(FailureOf(Detection(DetectionOptions(3, 2))), "passes");
  EXPECT_EQ(FailureOf(Detection(DetectionOptions(3, 2), 2)),
            "NumDimensions(input_box_encodings) != 3 (2 != 3) (detection_postprocess.cc)");
  Subgraph quantized = Detection(DetectionOptions(3, 2));
  quantized.tensors[0].type = T::kUInt8;
  EXPECT_EQ(FailureOf(quantized),
            "Invoke returns kTfLiteError (detection_postprocess.cc: box encodings are UINT8; "
            "TFLM's kernel decodes FLOAT32 only (Prepare passes, every Invoke fails))");
  const Subgraph no_options = Detection({});
  auto requests = RequestsOfNode(kHost, no_options, no_options.nodes[0]);
  ASSERT_FALSE(requests.ok());
  EXPECT_EQ(requests.status().message(),
            "TFLite_Detection_PostProcess's custom options are missing; TFLM's Init reads them as "
            "a flexbuffer map without a check");
}

// circular_buffer.cc: OpData {cycles_until_run, cycles_max}; Prepare checks the shapes and int8.
TEST(TflmCustomKernels, CircularBufferKeepsEightBytesAndTakesInt8Only) {
  const Subgraph graph = CircularBuffer({1, 1, 1, 96}, {1, 5, 1, 96});
  auto requests = RequestsOfNode(kMcu, graph, graph.nodes[0]);
  ASSERT_TRUE(requests.ok());
  EXPECT_EQ(requests->op_data, 8u);
  EXPECT_TRUE(requests->scratch_buffers.empty());
  EXPECT_EQ(FailureOf(graph), "passes");
  EXPECT_EQ(FailureOf(CircularBuffer({1, 2, 1, 96}, {1, 5, 1, 96})),
            "1 != input->dims->data[1] (1 != 2) (circular_buffer.cc)");
  EXPECT_EQ(FailureOf(CircularBuffer({1, 1, 1, 96}, {1, 5, 1, 96}, T::kFloat32)),
            "input->type != kTfLiteInt8 (FLOAT32 != INT8) (circular_buffer.cc: the op takes int8 "
            "only)");
}

TEST(TflmCustomKernels, EthosUIsRefusedAsTheReferenceBuildRefusesIt) {
  const Subgraph graph = CustomOpGraph(
      "ethos-u", {ArenaTensor({1, 16}, T::kInt8), ArenaTensor({1, 16}, T::kInt8)}, {0}, {1}, {});
  auto requests = RequestsOfNode(kHost, graph, graph.nodes[0]);
  ASSERT_FALSE(requests.ok());
  EXPECT_NE(requests.status().message().find("AddEthosU registers one only in an Ethos-U build"),
            std::string::npos);
}

}  // namespace
}  // namespace tfa::tflm
