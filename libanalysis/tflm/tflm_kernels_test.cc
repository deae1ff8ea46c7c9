#include "libanalysis/tflm/tflm_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

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

Model LoadExternal(const std::string& name) {
  auto model = LoadModelFile(testing::OraclePath("external/" + name + ".tflite"));
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

// batch_matmul.cc: the right-hand operand is transposed into a TfLiteEvalTensor, its dims and
// its data (adj_y false), then ReshapeOutputTensor copies the output's dims; 464 bytes of tail on
// a 64-bit host, as TFLM 90b983c2b3f1 measures on this model.
TEST(TflmKernels, BatchMatMulTransposesItsRightHandOperand) {
  const Model model =
      LoadExternal("LiteRT__litert_js_packages_core_testdata_delegate_compatibility_test");
  auto host = RequestsOfNode(Target::kHost64, model.subgraphs[0], model.subgraphs[0].nodes[0]);
  ASSERT_TRUE(host.ok()) << host.status().message();
  EXPECT_EQ(host.value().builtin_options.size, 3u);
  EXPECT_EQ(host.value().op_data, 32u);
  EXPECT_EQ(host.value().persistent_buffers, (std::vector<uint64_t>{24, 12, 400, 12}));
  auto mcu = RequestsOfNode(Target::kMcu32, model.subgraphs[0], model.subgraphs[0].nodes[0]);
  ASSERT_TRUE(mcu.ok());
  EXPECT_EQ(mcu.value().op_data, 16u);
  EXPECT_EQ(mcu.value().persistent_buffers, (std::vector<uint64_t>{12, 12, 400, 12}));
}

// unidirectional_sequence_lstm.cc: OpDataLSTM (688 bytes where int64_t is 8-aligned, 672 under
// i386, TFLM's measured Init figures) and four batch x state scratch buffers of the int16 cell
// state.
TEST(TflmKernels, SequenceLstmOpDataAndItsFourScratchBuffers) {
  const Model model = LoadExternal("coral-test_data__keras_lstm_mnist_ptq");
  const Node& lstm = model.subgraphs[0].nodes[1];
  ASSERT_EQ(lstm.op, "UNIDIRECTIONAL_SEQUENCE_LSTM");
  for (const auto& [build, op_data] : {std::pair{Build{Target::kHost64}, 688u},
                                       std::pair{Build{Target::kMcu32, Abi::kAapcs}, 688u},
                                       std::pair{Build{Target::kMcu32, Abi::kI386}, 672u}}) {
    auto requests = RequestsOfNode(build, model.subgraphs[0], lstm);
    ASSERT_TRUE(requests.ok()) << requests.status().message();
    EXPECT_EQ(requests.value().op_data, op_data);
    EXPECT_EQ(requests.value().builtin_options.size, 16u);
    EXPECT_EQ(requests.value().scratch_buffers, (std::vector<uint64_t>{40, 40, 40, 40}));
  }
}

// reduce_common.cc: an int8 MEAN accumulates into an int32 per output element; REDUCE_MAX
// keeps an int per input dimension and per axis element.
TEST(TflmKernels, ReduceScratchBuffers) {
  Model model = LoadTflmModel("testing_test_conv_model");
  Subgraph& graph = model.subgraphs[0];
  Tensor input;
  input.type = TensorType::kInt8;
  input.shape = {1, 4, 4, 8};
  Tensor axis;
  axis.type = TensorType::kInt32;
  axis.shape = {2};
  Tensor output;
  output.type = TensorType::kInt8;
  output.shape = {1, 8};
  const int32_t first = static_cast<int32_t>(graph.tensors.size());
  graph.tensors.push_back(input);
  graph.tensors.push_back(axis);
  graph.tensors.push_back(output);
  Node mean;
  mean.op = "MEAN";
  mean.inputs = {first, first + 1};
  mean.outputs = {first + 2};
  auto requests = RequestsOfNode(Target::kHost64, graph, mean);
  ASSERT_TRUE(requests.ok()) << requests.status().message();
  EXPECT_EQ(requests.value().op_data, 40u);
  EXPECT_EQ(requests.value().builtin_options.size, 1u);
  EXPECT_EQ(requests.value().scratch_buffers, (std::vector<uint64_t>{8 * 4}));
  mean.op = "REDUCE_MAX";
  requests = RequestsOfNode(Target::kHost64, graph, mean);
  ASSERT_TRUE(requests.ok());
  EXPECT_EQ(requests.value().scratch_buffers, (std::vector<uint64_t>{4 * 4, 2 * 4}));
}

// StridedSliceParams and OpData of the ops that keep an ArithmeticParams (int64_t members: 8
// bytes more where they are 8-aligned).
TEST(TflmKernels, OpDataOfParamsStructs) {
  Model model = LoadTflmModel("testing_test_conv_model");
  Node node = model.subgraphs[0].nodes[3];
  const auto op_data = [&](const char* op, const Build& build) {
    node.op = op;
    auto requests = RequestsOfNode(build, model.subgraphs[0], node);
    EXPECT_TRUE(requests.ok()) << requests.status().message();
    return requests.ok() ? requests.value().op_data : 0;
  };
  EXPECT_EQ(op_data("STRIDED_SLICE", Target::kHost64), 84u);
  EXPECT_EQ(op_data("SQUARED_DIFFERENCE", Target::kHost64), 112u);
  EXPECT_EQ(op_data("SQUARED_DIFFERENCE", Build{Target::kMcu32, Abi::kAapcs}), 112u);
  EXPECT_EQ(op_data("SQUARED_DIFFERENCE", Build{Target::kMcu32, Abi::kI386}), 104u);
  EXPECT_EQ(op_data("RELU", Target::kHost64), 28u);
  EXPECT_EQ(op_data("HARD_SWISH", Target::kHost64), 20u);
  EXPECT_EQ(op_data("TRANSPOSE", Target::kHost64), 0u);
}

TEST(TflmKernels, ResolverMethodsAndSources) {
  EXPECT_EQ(ResolverMethod("DEPTHWISE_CONV_2D"), "AddDepthwiseConv2D");
  EXPECT_EQ(ResolverMethod("UNIDIRECTIONAL_SEQUENCE_LSTM"), "AddUnidirectionalSequenceLSTM");
  EXPECT_FALSE(ResolverMethod("LSTM").has_value());
  EXPECT_EQ(KernelSource("SVDF"), "svdf.h, svdf_common.cc");
  EXPECT_EQ(KernelSource("MIRROR_PAD"), "mirror_pad.cc");
  EXPECT_EQ(KernelSource("CUMSUM"), "cumsum.cc");
  EXPECT_EQ(KernelSource("REVERSE_V2"), "reverse.cc");
}

// The kernels of issue 41's last batch: what each Init and Prepare asks for.
TEST(TflmKernels, LastBatchOfReferenceKernels) {
  Subgraph graph;
  Tensor int8;
  int8.type = TensorType::kInt8;
  int8.shape = {1, 4, 4, 8};
  Tensor float32 = int8;
  float32.type = TensorType::kFloat32;
  graph.tensors = {int8, float32};
  auto requests = [&](const std::string& op, int32_t input) {
    Node node;
    node.op = op;
    node.inputs = {input};
    node.outputs = {input};
    auto result = RequestsOfNode(Target::kMcu32, graph, node);
    EXPECT_TRUE(result.ok()) << op << ": " << result.status().message();
    return result.ok() ? std::move(result).value() : KernelRequests{};
  };
  EXPECT_EQ(requests("ELU", 0).op_data, 256u);  // int8_t table[256]
  EXPECT_EQ(requests("SELECT_V2", 1).op_data, 2u);
  EXPECT_EQ(requests("ARG_MAX", 1).builtin_options.size, 4u);
  EXPECT_EQ(requests("CUMSUM", 0).persistent_buffers, (std::vector<uint64_t>{36}));
  EXPECT_TRUE(requests("CUMSUM", 1).persistent_buffers.empty());
  EXPECT_EQ(requests("CUMSUM", 1).builtin_options.size, 2u);
  // The output's dims copied to the tail: a TfLiteIntArray of 4.
  EXPECT_EQ(requests("DEPTH_TO_SPACE", 1).persistent_buffers, (std::vector<uint64_t>{20}));
  EXPECT_EQ(requests("L2_POOL_2D", 1).persistent_buffers, (std::vector<uint64_t>{20}));
  EXPECT_EQ(requests("L2_POOL_2D", 1).op_data, 0u);
  EXPECT_EQ(requests("L2_POOL_2D", 1).builtin_options.size, 40u);
  for (const char* op : {"BROADCAST_TO", "BROADCAST_ARGS", "CEIL", "EXP", "FILL", "FLOOR",
                         "LOGICAL_AND", "LOGICAL_OR", "REVERSE_V2", "ROUND", "ZEROS_LIKE"}) {
    const KernelRequests none = requests(op, 1);
    EXPECT_EQ(none.op_data + none.builtin_options.size, 0u) << op;
    EXPECT_TRUE(none.persistent_buffers.empty() && none.scratch_buffers.empty()) << op;
  }
}

}  // namespace
}  // namespace tfa::tflm
