#include "libanalysis/tflm/cmsis_nn_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "tests/support/small_graphs.h"
#include "tests/support/test_paths.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::Graph;
using testing::Op;
using T = TensorType;

Model LoadTflmModel(const std::string& name) {
  auto model = LoadModelFile(
      testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_" + name + ".tflite"));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

Build CmsisNn(CmsisNnCpu cpu) {
  Build build{Target::kMcu32};
  build.cmsis_nn = cpu;
  return build;
}

KernelRequests RequestsOf(const Model& model, size_t node, const Build& build) {
  auto requests = RequestsOfNode(build, model.subgraphs[0], model.subgraphs[0].nodes[node]);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  return requests.ok() ? std::move(requests).value() : KernelRequests{};
}

KernelRequests HandRequests(const Subgraph& graph, const Node& node, const Build& build) {
  auto requests = RequestsOfNode(build, graph, node);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  return requests.ok() ? std::move(requests).value() : KernelRequests{};
}

KernelRequests HandRequests(const Subgraph& graph, const Node& node, CmsisNnCpu cpu) {
  return HandRequests(graph, node, CmsisNn(cpu));
}

Tensor Quantized(Tensor tensor, size_t scales = 1) {
  tensor.quantization.Mutable().scale.assign(scales, 0.5f);
  tensor.quantization.Mutable().zero_point.assign(scales, 0);
  return tensor;
}

// conv.cc: OpData {OpDataConv, buffer_idx} (56 + 4 bytes), the reference's per-channel arrays,
// and arm_convolve_wrapper_s8's im2col for 3x3x16 columns.
TEST(CmsisNnKernels, ConvAsksForTheWrappersBuffer) {
  const Model model = LoadTflmModel("testing_test_conv_model");
  const KernelRequests reference = RequestsOf(model, 2, Target::kMcu32);
  EXPECT_EQ(reference.op_data, 56u);
  for (CmsisNnCpu cpu : {CmsisNnCpu::kPlainC, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests conv = RequestsOf(model, 2, CmsisNn(cpu));
    EXPECT_EQ(conv.op_data, 60u);
    EXPECT_EQ(conv.persistent_buffers, (std::vector<uint64_t>{128, 128}));
    EXPECT_EQ(conv.scratch_buffers, (std::vector<uint64_t>{576}));
  }
  // The first convolution: 3x3x1 columns, 48 bytes on DSP, 64 on MVE.
  EXPECT_EQ(RequestsOf(model, 1, CmsisNn(CmsisNnCpu::kCortexM7)).scratch_buffers,
            (std::vector<uint64_t>{48}));
  EXPECT_EQ(RequestsOf(model, 1, CmsisNn(CmsisNnCpu::kCortexM85)).scratch_buffers,
            (std::vector<uint64_t>{64}));
}

// fully_connected.cc: seven more fields of OpData; MVE's kernel sums, one int32 per output, in
// a persistent buffer rather than a scratch one.
TEST(CmsisNnKernels, FullyConnectedKernelSumsArePersistentOnMve) {
  const Model model = LoadTflmModel("testing_test_conv_model");
  const KernelRequests dsp = RequestsOf(model, 5, CmsisNn(CmsisNnCpu::kCortexM4));
  EXPECT_EQ(dsp.op_data, 48u + 28u);
  EXPECT_TRUE(dsp.persistent_buffers.empty());
  EXPECT_TRUE(dsp.scratch_buffers.empty());
  const KernelRequests mve = RequestsOf(model, 5, CmsisNn(CmsisNnCpu::kCortexM55));
  EXPECT_EQ(mve.persistent_buffers, (std::vector<uint64_t>{40}));
  EXPECT_TRUE(mve.scratch_buffers.empty());
}

// pooling.cc and softmax.cc: their OpData grows (a buffer index; num_rows and row_size).
TEST(CmsisNnKernels, PoolingAndSoftmaxOpData) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  EXPECT_EQ(RequestsOf(conv, 3, CmsisNn(CmsisNnCpu::kCortexM4)).op_data, 36u);
  const Model speech = LoadTflmModel("examples_micro_speech_models_micro_speech_quantized");
  EXPECT_EQ(RequestsOf(speech, 3, Target::kMcu32).op_data, 56u);
  EXPECT_EQ(RequestsOf(speech, 3, CmsisNn(CmsisNnCpu::kCortexM4)).op_data, 64u);
}

// depthwise_conv.cc: a channel multiplier of 8 (1 channel in, 8 out) runs the kernel that needs
// no buffer on every core.
TEST(CmsisNnKernels, DepthwiseWithAChannelMultiplierNeedsNoBuffer) {
  const Model speech = LoadTflmModel("examples_micro_speech_models_micro_speech_quantized");
  for (CmsisNnCpu cpu : {CmsisNnCpu::kCortexM0, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests depthwise = RequestsOf(speech, 1, CmsisNn(cpu));
    EXPECT_EQ(depthwise.op_data, 60u);
    EXPECT_EQ(depthwise.persistent_buffers, (std::vector<uint64_t>{32, 32}));
    EXPECT_TRUE(depthwise.scratch_buffers.empty());
  }
}

// svdf.cc: CmsisNnOpDataSvdf (nine ints and a pointer), the reference's two scratch buffers,
// and on MVE a kernel sum per feature row.
TEST(CmsisNnKernels, SvdfKernelSumsOnMve) {
  const Model keyword = LoadTflmModel("models_keyword_scrambled");
  const KernelRequests dsp = RequestsOf(keyword, 1, CmsisNn(CmsisNnCpu::kCortexM33));
  EXPECT_EQ(dsp.op_data, 40u);
  EXPECT_EQ(dsp.scratch_buffers, (std::vector<uint64_t>{256, 256}));
  EXPECT_TRUE(dsp.persistent_buffers.empty());
  const KernelRequests mve = RequestsOf(keyword, 1, CmsisNn(CmsisNnCpu::kCortexM55));
  EXPECT_EQ(mve.persistent_buffers, (std::vector<uint64_t>{256}));
}

TEST(CmsisNnKernels, EveryReplacedKernelNamesItsPortFile) {
  EXPECT_EQ(CmsisNnKernelSource("CONV_2D"), "conv.cc");
  EXPECT_EQ(CmsisNnKernelSource("TRANSPOSE_CONV"), "transpose_conv.cc");
  EXPECT_EQ(CmsisNnKernelSource("PADV2"), "pad.cc");
  EXPECT_FALSE(CmsisNnKernelSource("RESHAPE"));
}

// pooling.cc: an int8 or int16 average pool sums an int32 per channel on DSP (7 x 32 output: 128
// bytes).
TEST(CmsisNnKernels, AveragePoolBuffer) {
  Subgraph graph;
  for (TensorType type : {TensorType::kInt8, TensorType::kInt8, TensorType::kInt16}) {
    Tensor tensor;
    tensor.type = type;
    tensor.shape = graph.tensors.size() == 1 ? Dims{1, 7, 7, 32} : Dims{1, 14, 14, 32};
    graph.tensors.push_back(tensor);
  }
  Node pool;
  pool.op = "AVERAGE_POOL_2D";
  pool.inputs = {0};
  pool.outputs = {1};
  const KernelRequests dsp = HandRequests(graph, pool, CmsisNnCpu::kCortexM4);
  EXPECT_EQ(dsp.op_data, 36u);
  EXPECT_EQ(dsp.scratch_buffers, (std::vector<uint64_t>{128}));
  EXPECT_TRUE(HandRequests(graph, pool, CmsisNnCpu::kCortexM85).scratch_buffers.empty());
  pool.inputs = {2};
  EXPECT_EQ(HandRequests(graph, pool, CmsisNnCpu::kCortexM4).scratch_buffers,
            (std::vector<uint64_t>{128}));
  EXPECT_TRUE(HandRequests(graph, pool, CmsisNnCpu::kCortexM55).scratch_buffers.empty());
}

// Ops the port does not replace keep the reference kernel's requests.
TEST(CmsisNnKernels, OtherOpsKeepTheReferenceKernel) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  for (size_t node : {size_t{0}, size_t{4}, size_t{6}}) {  // QUANTIZE, RESHAPE, DEQUANTIZE
    const KernelRequests reference = RequestsOf(conv, node, Target::kMcu32);
    const KernelRequests cmsis = RequestsOf(conv, node, CmsisNn(CmsisNnCpu::kCortexM4));
    EXPECT_EQ(cmsis.op_data, reference.op_data);
    EXPECT_EQ(cmsis.persistent_buffers, reference.persistent_buffers);
    EXPECT_EQ(cmsis.scratch_buffers, reference.scratch_buffers);
  }
}

// The whole replay: the predicted arena of a CMSIS-NN build against the reference kernels'.
TEST(CmsisNnKernels, ReplayOfTheConvModel) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  auto reference = ReplayMicroAllocator(conv, Target::kMcu32);
  auto m4 = ReplayMicroAllocator(conv, CmsisNn(CmsisNnCpu::kCortexM4));
  ASSERT_TRUE(reference.ok() && m4.ok());
  EXPECT_EQ(m4->cmsis_nn, CmsisNnCpu::kCortexM4);
  EXPECT_EQ(m4->scratch_buffer_count, 2u);
  EXPECT_EQ(reference->scratch_buffer_count, 0u);
  EXPECT_EQ(m4->head, 8320u);  // conv 2's input and output (7,744) and its 576-byte im2col
  EXPECT_EQ(m4->tail, 1500u);  // 1,452 + the bigger OpData and the scratch handles
}

// A TRANSPOSE_CONV of a 1x4x4xC input to 1x8x8x8 through a 3x3 filter at stride 2: output
// shape, filter, input, bias; output.
Subgraph TransposeConv(T type, int32_t input_depth) {
  Subgraph graph =
      Graph({Constant({4}, T::kInt32), Quantized(Constant({8, 3, 3, input_depth}, T::kInt8)),
             Quantized(ArenaTensor({1, 4, 4, input_depth}, type)),
             Constant({8}, type == T::kInt16 ? T::kInt64 : T::kInt32),
             Quantized(ArenaTensor({1, 8, 8, 8}, type))},
            {Op("TRANSPOSE_CONV", {0, 1, 2, 3}, {4})}, {2}, {4});
  graph.nodes[0].options.Mutable().stride_w = 2;
  graph.nodes[0].options.Mutable().stride_h = 2;
  return graph;
}

// transpose_conv.cc: a third buffer index in OpData, the reference's per-channel arrays, and
// arm_transpose_conv_s8's two buffers. 32 input channels: the reverse convolution's 3x3x32
// columns (2 x 288 x 2 bytes; MVE 4 x 288) and the reversed filter (32 x 3 x 3 x 8).
TEST(CmsisNnKernels, TransposeConvAsksForBothOfCmsisNnsBuffers) {
  const Subgraph graph = TransposeConv(T::kInt8, 32);
  const KernelRequests reference = HandRequests(graph, graph.nodes[0], Target::kMcu32);
  EXPECT_EQ(reference.op_data, 72u);
  EXPECT_EQ(reference.scratch_buffers, (std::vector<uint64_t>{8 * 8 * 8 * 4}));
  for (CmsisNnCpu cpu : {CmsisNnCpu::kPlainC, CmsisNnCpu::kCortexM4}) {
    const KernelRequests port = HandRequests(graph, graph.nodes[0], cpu);
    EXPECT_EQ(port.op_data, 76u);
    EXPECT_EQ(port.persistent_buffers, (std::vector<uint64_t>{32, 32}));
    EXPECT_EQ(port.scratch_buffers, (std::vector<uint64_t>{1152, 2304}));
  }
  EXPECT_EQ(HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM55).scratch_buffers,
            (std::vector<uint64_t>{1152, 2304}));
}

// 16 input channels: the rolling rows, (3 x 2 + 3) x 8 int32s over 3 rows, and a reverse buffer
// of 0 bytes that the port still requests. int16 keeps the reference's int64 accumulators.
TEST(CmsisNnKernels, TransposeConvRollingRowsAndInt16) {
  const Subgraph graph = TransposeConv(T::kInt8, 16);
  EXPECT_EQ(HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM7).scratch_buffers,
            (std::vector<uint64_t>{864, 0}));
  const Subgraph int16 = TransposeConv(T::kInt16, 16);
  const KernelRequests reference = HandRequests(int16, int16.nodes[0], Target::kMcu32);
  const KernelRequests port = HandRequests(int16, int16.nodes[0], CmsisNnCpu::kCortexM7);
  EXPECT_EQ(port.scratch_buffers, (std::vector<uint64_t>{8 * 8 * 8 * 8}));
  EXPECT_EQ(port.scratch_buffers, reference.scratch_buffers);
  EXPECT_EQ(port.op_data, reference.op_data + 4);
}

// BATCH_MATMUL of 1x4x8 by 1x8x6 (rhs transposed in Prepare).
Subgraph BatchMatMul(T type) {
  return Graph({Quantized(ArenaTensor({1, 4, 8}, type)), Quantized(ArenaTensor({1, 8, 6}, type)),
                Quantized(ArenaTensor({1, 4, 6}, type))},
               {Op("BATCH_MATMUL", {0, 1}, {2})}, {0, 1}, {2});
}

// batch_matmul.cc: OpData grows by cmsis_nn_dims and a buffer index (16 -> 36); the quantization
// data comes after the transposed rhs (eval tensor 12, dims 16, data 48) and the output's dims;
// MVE's kernel sums, an int32 per output column, as scratch.
TEST(CmsisNnKernels, BatchMatMulOrderAndKernelSums) {
  const Subgraph graph = BatchMatMul(T::kInt8);
  const KernelRequests reference = HandRequests(graph, graph.nodes[0], Target::kMcu32);
  EXPECT_EQ(reference.op_data, 16u);
  EXPECT_EQ(reference.persistent_buffers, (std::vector<uint64_t>{28, 12, 16, 48, 16}));
  const KernelRequests dsp = HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM33);
  EXPECT_EQ(dsp.op_data, 36u);
  EXPECT_EQ(dsp.persistent_buffers, (std::vector<uint64_t>{12, 16, 48, 16, 28}));
  EXPECT_TRUE(dsp.scratch_buffers.empty());
  EXPECT_EQ(HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM85).scratch_buffers,
            (std::vector<uint64_t>{24}));
  const Subgraph int16 = BatchMatMul(T::kInt16);
  const KernelRequests int16_mve = HandRequests(int16, int16.nodes[0], CmsisNnCpu::kCortexM85);
  EXPECT_EQ(int16_mve.persistent_buffers, (std::vector<uint64_t>{12, 16, 96, 16, 28}));
  EXPECT_TRUE(int16_mve.scratch_buffers.empty());
  const Subgraph float32 = BatchMatMul(T::kFloat32);
  EXPECT_EQ(HandRequests(float32, float32.nodes[0], CmsisNnCpu::kCortexM85).persistent_buffers,
            HandRequests(float32, float32.nodes[0], Target::kMcu32).persistent_buffers);
}

// A batch-major UNIDIRECTIONAL_SEQUENCE_LSTM: batch 2, 3 steps, 5 inputs, 4 state units, no
// peepholes, projection or layer norm; `input` the activations' type, int16 cell state.
Subgraph SequenceLstm(T input, T bias) {
  std::vector<Tensor> tensors = {Quantized(ArenaTensor({2, 3, 5}, input))};
  for (int i = 0; i < 4; ++i) tensors.push_back(Quantized(Constant({4, 5}, T::kInt8)));
  for (int i = 0; i < 4; ++i) tensors.push_back(Quantized(Constant({4, 4}, T::kInt8)));
  for (int i = 0; i < 4; ++i) tensors.push_back(Constant({4}, bias));
  Tensor output_state = Quantized(ArenaTensor({2, 4}, input));
  output_state.is_variable = true;
  Tensor cell_state = Quantized(ArenaTensor({2, 4}, T::kInt16));
  cell_state.is_variable = true;
  tensors.push_back(output_state);
  tensors.push_back(cell_state);
  tensors.push_back(Quantized(ArenaTensor({2, 3, 4}, input)));
  const int32_t weights = 1, biases = 9, states = 13, output = 15;
  std::vector<int32_t> inputs = {0};
  for (int i = 0; i < 8; ++i) inputs.push_back(weights + i);
  for (int i = 0; i < 3; ++i) inputs.push_back(-1);  // peepholes
  for (int i = 0; i < 4; ++i) inputs.push_back(biases + i);
  inputs.insert(inputs.end(), {-1, -1, states, states + 1, -1, -1, -1, -1});
  return Graph(std::move(tensors), {Op("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, {output})}, {0},
               {output});
}

// unidirectional_sequence_lstm.cc: OpData gains cmsis_nn_lstm_params (220 bytes, the sum 8-
// aligned); eight kernel sums of an int32 (int8 input) or int64 (int16 input) per state unit;
// three scratch buffers of batch x state int16s instead of four. Float keeps the reference's.
TEST(CmsisNnKernels, SequenceLstmKernelSums) {
  const Subgraph int8 = SequenceLstm(T::kInt8, T::kInt32);
  const KernelRequests reference = HandRequests(int8, int8.nodes[0], Target::kMcu32);
  EXPECT_EQ(reference.scratch_buffers, (std::vector<uint64_t>{16, 16, 16, 16}));
  for (CmsisNnCpu cpu : {CmsisNnCpu::kPlainC, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests port = HandRequests(int8, int8.nodes[0], cpu);
    EXPECT_EQ(port.op_data, (reference.op_data + 220 + 7) / 8 * 8);
    EXPECT_EQ(port.persistent_buffers, std::vector<uint64_t>(8, 16));
    EXPECT_EQ(port.scratch_buffers, (std::vector<uint64_t>{16, 16, 16}));
  }
  const Subgraph int16 = SequenceLstm(T::kInt16, T::kInt64);
  EXPECT_EQ(HandRequests(int16, int16.nodes[0], CmsisNnCpu::kCortexM4).persistent_buffers,
            std::vector<uint64_t>(8, 32));
}

// depthwise_conv.cc: an int4 filter asks for arm_depthwise_conv_wrapper_s4's buffer (16 channels
// x 9 taps x 2 bytes on every path, the 3x3 filter included), not the reference's unpacked copy.
TEST(CmsisNnKernels, Int4DepthwiseAsksForTheS4WrappersBuffer) {
  const Subgraph graph =
      Graph({Quantized(ArenaTensor({1, 8, 8, 16}, T::kInt8)),
             Quantized(Constant({1, 3, 3, 16}, T::kInt4)), Constant({16}, T::kInt32),
             Quantized(ArenaTensor({1, 8, 8, 16}, T::kInt8))},
            {Op("DEPTHWISE_CONV_2D", {0, 1, 2}, {3})}, {0}, {3});
  Node node = graph.nodes[0];
  node.options.Mutable().padding = Padding::kSame;
  EXPECT_EQ(HandRequests(graph, node, Target::kMcu32).scratch_buffers,
            (std::vector<uint64_t>{144}));
  for (CmsisNnCpu cpu : {CmsisNnCpu::kPlainC, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests port = HandRequests(graph, node, cpu);
    EXPECT_EQ(port.persistent_buffers, (std::vector<uint64_t>{64, 64}));
    EXPECT_EQ(port.scratch_buffers, (std::vector<uint64_t>{288}));
  }
}

// fully_connected.cc with six per-channel scales: CalculateOpDataFullyConnected's multiplier and
// shift arrays first, then MVE's kernel sums; a rank-3 output over a depth of 8 adds the 1x1
// convolution's arrays.
TEST(CmsisNnKernels, PerChannelFullyConnected) {
  const Subgraph graph = Graph(
      {Quantized(ArenaTensor({1, 8}, T::kInt8)), Quantized(Constant({6, 8}, T::kInt8), 6),
       Constant({6}, T::kInt32), Quantized(ArenaTensor({1, 6}, T::kInt8)),
       Quantized(ArenaTensor({1, 2, 6}, T::kInt8))},
      {Op("FULLY_CONNECTED", {0, 1, 2}, {3}), Op("FULLY_CONNECTED", {0, 1, 2}, {4})}, {0}, {3, 4});
  EXPECT_EQ(HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM4).persistent_buffers,
            (std::vector<uint64_t>{24, 24}));
  EXPECT_EQ(HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM55).persistent_buffers,
            (std::vector<uint64_t>{24, 24, 24}));
  EXPECT_EQ(HandRequests(graph, graph.nodes[1], CmsisNnCpu::kCortexM55).persistent_buffers,
            (std::vector<uint64_t>{24, 24, 24, 24}));
}

// softmax.cc: an int16 SOFTMAX gets CalculateSoftmaxParams' two 513-entry lookup tables.
TEST(CmsisNnKernels, Int16SoftmaxLookupTables) {
  const Subgraph graph = Graph(
      {Quantized(ArenaTensor({1, 10}, T::kInt16)), Quantized(ArenaTensor({1, 10}, T::kInt16))},
      {Op("SOFTMAX", {0}, {1})}, {0}, {1});
  const KernelRequests port = HandRequests(graph, graph.nodes[0], CmsisNnCpu::kCortexM55);
  EXPECT_EQ(port.op_data, 64u);
  EXPECT_EQ(port.persistent_buffers, (std::vector<uint64_t>{1026, 1026}));
}

// MAXIMUM, MINIMUM, PAD, PADV2 and TRANSPOSE keep the reference kernels' Init and Prepare.
TEST(CmsisNnKernels, ElementwiseAndDataMovementKeepTheReferenceRequests) {
  const Subgraph graph =
      Graph({ArenaTensor({1, 4, 4, 8}, T::kInt8), ArenaTensor({1, 4, 4, 8}, T::kInt8),
             Constant({4, 2}, T::kInt32), ArenaTensor({1, 6, 6, 8}, T::kInt8),
             Constant({4}, T::kInt32), ArenaTensor({1, 8, 4, 4}, T::kInt8)},
            {Op("MAXIMUM", {0, 1}, {1}), Op("MINIMUM", {0, 1}, {1}), Op("PAD", {0, 2}, {3}),
             Op("PADV2", {0, 2}, {3}), Op("TRANSPOSE", {0, 4}, {5})},
            {0}, {5});
  for (const Node& node : std::as_const(graph).nodes) {
    const KernelRequests reference = HandRequests(graph, node, Target::kMcu32);
    const KernelRequests port = HandRequests(graph, node, CmsisNnCpu::kCortexM55);
    EXPECT_EQ(port.op_data, reference.op_data) << node.op;
    EXPECT_EQ(port.persistent_buffers, reference.persistent_buffers) << node.op;
    EXPECT_EQ(port.scratch_buffers, reference.scratch_buffers) << node.op;
  }
}

}  // namespace
}  // namespace tfa::tflm
