#include "libanalysis/tflm/tflm_kernels.h"

#include <gtest/gtest.h>

#include <string>

#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"

namespace tfa::tflm {
namespace {

Model LoadTflmModel(const std::string& name) {
  auto model = LoadModelFile(
      testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_" + name + ".tflite"));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

KernelRequests RequestsOf(const Model& model, size_t node, Target target = Target::kHost64) {
  auto requests = RequestsOfNode(target, model.subgraphs[0], model.subgraphs[0].nodes[node]);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  return requests.ok() ? std::move(requests).value() : KernelRequests{};
}

// conv_common.cc ConvPrepare: a multiplier and a shift per output channel, no scratch.
TEST(TflmKernels, ConvAsksForItsPerChannelArrays) {
  const Model model = LoadTflmModel("testing_test_conv_model");
  const KernelRequests conv = RequestsOf(model, 2);  // 32 output channels
  EXPECT_EQ(conv.builtin_options.size, 28u);
  EXPECT_EQ(conv.op_data, 72u);
  EXPECT_EQ(conv.persistent_buffers, (std::vector<uint64_t>{128, 128}));
  EXPECT_TRUE(conv.scratch_buffers.empty());
  EXPECT_EQ(RequestsOf(model, 2, Target::kMcu32).op_data, 56u);
}

// svdf_common.cc: the int8 kernel's two int32 scratch buffers (filters, then units).
TEST(TflmKernels, Int8SvdfAsksForTwoScratchBuffers) {
  const KernelRequests svdf = RequestsOf(LoadTflmModel("models_keyword_scrambled"), 1);
  EXPECT_EQ(svdf.scratch_buffers, (std::vector<uint64_t>{256, 256}));
  EXPECT_EQ(svdf.op_data, 36u);
  EXPECT_EQ(svdf.builtin_options.size, 12u);
}

// transpose_conv.cc: a 16x8 kernel accumulates into an int64 per output element.
TEST(TflmKernels, Int16TransposeConvScratchIsAnInt64PerOutputElement) {
  const KernelRequests transpose =
      RequestsOf(LoadTflmModel("integration_tests_seanet_transpose_conv_transpose_conv0"), 0);
  EXPECT_EQ(transpose.scratch_buffers, (std::vector<uint64_t>{3 * 12 * 64 * 8}));
  EXPECT_EQ(transpose.persistent_buffers, (std::vector<uint64_t>{256, 256}));
}

// depthwise_conv_common.cc: channels along dimension 3 of the filter.
TEST(TflmKernels, DepthwiseChannelsAreTheFiltersLastDimension) {
  const KernelRequests depthwise =
      RequestsOf(LoadTflmModel("examples_micro_speech_models_micro_speech_quantized"), 1);
  EXPECT_EQ(depthwise.persistent_buffers, (std::vector<uint64_t>{32, 32}));
}

// concatenation.cc: ConcatenationParams as user data and no Prepare buffers, int8 included
// (TFLM 90b983c2b3f1 measures none for palm_detection's int8 CONCATENATIONs).
TEST(TflmKernels, ConcatenationAsksOnlyForItsParams) {
  Model model = LoadTflmModel("testing_test_conv_model");
  Subgraph& graph = model.subgraphs[0];
  Node concatenation = graph.nodes[3];
  concatenation.op = "CONCATENATION";
  concatenation.inputs = {0, 0, 0};
  concatenation.outputs = {0};
  graph.tensors[0].type = TensorType::kInt8;
  auto requests = RequestsOfNode(Target::kMcu32, graph, concatenation);
  ASSERT_TRUE(requests.ok()) << requests.status().message();
  EXPECT_EQ(requests.value().op_data, 24u);  // ConcatenationParams on a 32-bit target
  EXPECT_TRUE(requests.value().persistent_buffers.empty());
  requests = RequestsOfNode(Target::kHost64, graph, concatenation);
  ASSERT_TRUE(requests.ok());
  EXPECT_EQ(requests.value().op_data, 40u);
}

// pad.h OpData: PadParams (two counts, ten paddings, the resizing category) and a zero point,
// 56 bytes on both targets; palm_detection's PADs replay exactly with it in TFLM's four builds.
TEST(TflmKernels, PadAsksForItsParams) {
  Model model = LoadTflmModel("testing_test_conv_model");
  Node pad = model.subgraphs[0].nodes[3];
  pad.op = "PAD";
  for (Target target : {Target::kHost64, Target::kMcu32}) {
    auto requests = RequestsOfNode(target, model.subgraphs[0], pad);
    ASSERT_TRUE(requests.ok()) << requests.status().message();
    EXPECT_EQ(requests.value().op_data, 56u);
    EXPECT_EQ(requests.value().builtin_options.size, 0u);
  }
}

TEST(TflmKernels, ResolverMethodsAndSources) {
  EXPECT_EQ(ResolverMethod("DEPTHWISE_CONV_2D"), "AddDepthwiseConv2D");
  EXPECT_EQ(ResolverMethod("UNIDIRECTIONAL_SEQUENCE_LSTM"), "AddUnidirectionalSequenceLSTM");
  EXPECT_FALSE(ResolverMethod("LSTM").has_value());
  EXPECT_EQ(KernelSource("SVDF"), "svdf.h, svdf_common.cc");
  EXPECT_FALSE(KernelSource("MIRROR_PAD").has_value());
}

TEST(TflmKernels, AnOpTflmRegistersButNotModelledIsSaidSo) {
  Model model = LoadTflmModel("testing_test_conv_model");
  model.subgraphs[0].nodes[3].op = "MIRROR_PAD";
  auto requests = RequestsOfNode(Target::kHost64, model.subgraphs[0], model.subgraphs[0].nodes[3]);
  ASSERT_FALSE(requests.ok());
  EXPECT_NE(requests.status().message().find("MIRROR_PAD kernel is not modelled yet"),
            std::string::npos);
}

}  // namespace
}  // namespace tfa::tflm
