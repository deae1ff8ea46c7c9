#include "libanalysis/tflm/kernel_prepare_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::Graph;
using testing::Op;
using T = TensorType;

Tensor Quantized(Tensor tensor, std::vector<float> scales, std::vector<int64_t> zero_points) {
  tensor.quantization.Mutable() = Quantization{};
  tensor.quantization.Mutable().scale = std::move(scales);
  tensor.quantization.Mutable().zero_point = std::move(zero_points);
  return tensor;
}

// input, filter, bias, output of a one-node CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED.
Subgraph WeightedOp(const std::string& op, T input, T filter, T output,
                    std::vector<int32_t> filter_shape = {8, 3, 3, 4}) {
  return Graph(
      {Quantized(ArenaTensor({1, 8, 8, 4}, input), {0.5f}, {0}),
       Quantized(Constant(std::move(filter_shape), filter), {0.25f}, {0}), Constant({8}, T::kInt32),
       Quantized(ArenaTensor({1, 8, 8, 8}, output), {0.5f}, {0})},
      {Op(op, {0, 1, 2}, {3})}, {0}, {3});
}

std::string FailureOf(const Subgraph& graph) {
  return PrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

// conv_common.cc ConvPrepare: uint8 (the old quantization scheme) is hybrid to TFLM.
TEST(TflmPrepareChecks, Uint8ConvIsRefusedAsHybrid) {
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kUInt8, T::kUInt8, T::kUInt8)),
            "Hybrid models are not supported on TFLite Micro. (conv_common.cc: input UINT8, "
            "filter UINT8)");
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kFloat32, T::kInt8, T::kFloat32)),
            "Hybrid models are not supported on TFLite Micro. (conv_common.cc: input FLOAT32, "
            "filter INT8)");
}

TEST(TflmPrepareChecks, ConvTypesTflmRunsPass) {
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kInt8, T::kInt8, T::kInt8)), "passes");
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kInt8, T::kInt4, T::kInt8)), "passes");
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kInt16, T::kInt8, T::kInt16)), "passes");
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kFloat32, T::kFloat32, T::kFloat32)), "passes");
}

// The TF_LITE_ENSURE_EQ line prints TfLiteType values: kTfLiteInt8 9, kTfLiteInt16 7.
TEST(TflmPrepareChecks, ConvOutputOfAnotherTypeIsRefused) {
  EXPECT_EQ(FailureOf(WeightedOp("CONV_2D", T::kInt8, T::kInt8, T::kInt16)),
            "input->type != output->type (9 != 7) (conv_common.cc: input INT8, output INT16)");
}

// depthwise_conv_common.cc: a filter of the input's own type passes Prepare (uint8 included).
TEST(TflmPrepareChecks, DepthwiseRefusesOnlyMixedTypes) {
  EXPECT_EQ(
      FailureOf(WeightedOp("DEPTHWISE_CONV_2D", T::kUInt8, T::kUInt8, T::kUInt8, {1, 3, 3, 8})),
      "passes");
  EXPECT_EQ(
      FailureOf(WeightedOp("DEPTHWISE_CONV_2D", T::kFloat32, T::kInt8, T::kFloat32, {1, 3, 3, 8})),
      "Hybrid models are not supported on TFLite Micro. (depthwise_conv_common.cc: input "
      "FLOAT32, filter INT8)");
}

// fully_connected.cc FullyConnectedPrepare's own MicroPrintf line.
TEST(TflmPrepareChecks, FullyConnectedWithFloatInputAndInt4WeightsIsRefused) {
  EXPECT_EQ(FailureOf(WeightedOp("FULLY_CONNECTED", T::kFloat32, T::kInt4, T::kFloat32, {8, 4})),
            "Input type: FLOAT32 with filter type: INT4 not supported. (fully_connected.cc)");
  EXPECT_EQ(FailureOf(WeightedOp("FULLY_CONNECTED", T::kInt16, T::kInt4, T::kInt16, {8, 4})),
            "Input type: INT16 with filter type: INT4 not supported. (fully_connected.cc)");
  EXPECT_EQ(FailureOf(WeightedOp("FULLY_CONNECTED", T::kInt8, T::kInt4, T::kInt8, {8, 4})),
            "passes");
}

// fully_connected_common.cc: per-channel weights take an int8 input and int8 weights, one scale
// per output channel.
TEST(TflmPrepareChecks, PerChannelFullyConnectedTakesInt8AndAScalePerChannel) {
  auto per_channel = [](T input, T filter, size_t scales) {
    Subgraph graph = WeightedOp("FULLY_CONNECTED", input, filter, input, {8, 4});
    graph.tensors[1] = Quantized(Constant({8, 4}, filter), std::vector<float>(scales, 0.25f),
                                 std::vector<int64_t>(scales, 0));
    return graph;
  };
  EXPECT_EQ(FailureOf(per_channel(T::kInt8, T::kInt8, 8)), "passes");
  EXPECT_EQ(FailureOf(per_channel(T::kInt16, T::kInt8, 8)),
            "input->type == kTfLiteInt8 && filter->type != kTfLiteInt4 was not true. "
            "(fully_connected_common.cc: per-channel weights with input INT16, filter INT8)");
  EXPECT_EQ(FailureOf(per_channel(T::kInt8, T::kInt4, 8)),
            "input->type == kTfLiteInt8 && filter->type != kTfLiteInt4 was not true. "
            "(fully_connected_common.cc: per-channel weights with input INT8, filter INT4)");
  EXPECT_EQ(FailureOf(per_channel(T::kInt8, T::kInt8, 4)),
            "per_channel_quantization_size != "
            "filter->dims->data[affine_quantization->quantized_dimension] (4 != 8) "
            "(fully_connected_common.cc)");
  EXPECT_EQ(FailureOf(per_channel(T::kFloat32, T::kFloat32, 8)), "passes");
}

// svdf_common.cc PrepareSvdf: the output must hold num_filters / rank units.
TEST(TflmPrepareChecks, SvdfOutputOfTheWrongWidthIsRefused) {
  Tensor state = ArenaTensor({1, 12 * 10}, T::kInt16);
  state.is_variable = true;
  Subgraph graph = Graph(
      {ArenaTensor({1, 16}, T::kInt8), Constant({12, 16}, T::kInt8), Constant({12, 10}, T::kInt16),
       Constant({6}, T::kInt32), state, ArenaTensor({1, 4}, T::kInt8)},
      {Op("SVDF", {0, 1, 2, 3, 4}, {5})}, {0}, {5});
  graph.nodes[0].options.Mutable().svdf_rank = 2;
  EXPECT_EQ(FailureOf(graph),
            "output->dims->data[1] != num_units (4 != 6) (svdf_common.cc: num_units = "
            "weights_feature's 12 filters / rank 2)");
  graph.tensors[5].shape = {1, 6};
  EXPECT_EQ(FailureOf(graph), "passes");
}

// dequantize_common.cc: the float16 weights of a converter's fp16 model.
TEST(TflmPrepareChecks, Float16DequantizeIsRefused) {
  const Subgraph graph = Graph({Constant({8}, T::kFloat16), ArenaTensor({8}, T::kFloat32)},
                               {Op("DEQUANTIZE", {0}, {1})}, {}, {1});
  EXPECT_EQ(FailureOf(graph),
            "input->type == kTfLiteInt8 || input->type == kTfLiteInt16 || input->type == "
            "kTfLiteUInt8 was not true. (dequantize_common.cc: input FLOAT16)");
}

// softmax_common.cc: an int8 softmax writes int8 with scale 1/256 and zero point -128.
TEST(TflmPrepareChecks, Int8SoftmaxNeedsItsFixedOutputQuantization) {
  const auto softmax = [](float scale, int64_t zero_point) {
    return Graph({Quantized(ArenaTensor({1, 4}, T::kInt8), {0.1f}, {0}),
                  Quantized(ArenaTensor({1, 4}, T::kInt8), {scale}, {zero_point})},
                 {Op("SOFTMAX", {0}, {1})}, {0}, {1});
  };
  EXPECT_EQ(FailureOf(softmax(1.0f / 256, -128)), "passes");
  EXPECT_EQ(FailureOf(softmax(1.0f / 256, 0)),
            "output->params.zero_point != -128 (0 != -128) (softmax_common.cc)");
}

// The NumInputs / NumOutputs checks every kernel starts with, one helper for all of them.
TEST(TflmPrepareChecks, AnInputCountTheKernelDoesNotTakeIsRefused) {
  const Subgraph graph = Graph({ArenaTensor({4}), ArenaTensor({4}), ArenaTensor({4})},
                               {Op("LOG_SOFTMAX", {0, 1}, {2})}, {0, 1}, {2});
  EXPECT_EQ(FailureOf(graph), "NumInputs(node) != 1 (2 != 1) (log_softmax.cc)");
}

// batch_matmul.cc: float32 input with int8 weights (hybrid) is refused, ranks 2 to 5 only.
TEST(TflmPrepareChecks, BatchMatMulOfMixedTypesIsRefused) {
  const auto batch_matmul = [](T lhs, T rhs, std::vector<int32_t> lhs_shape) {
    return Graph(
        {ArenaTensor(std::move(lhs_shape), lhs), Constant({4, 3}, rhs), ArenaTensor({2, 3}, lhs)},
        {Op("BATCH_MATMUL", {0, 1}, {2})}, {0}, {2});
  };
  EXPECT_EQ(FailureOf(batch_matmul(T::kFloat32, T::kFloat32, {2, 4})), "passes");
  EXPECT_EQ(FailureOf(batch_matmul(T::kFloat32, T::kInt8, {2, 4})),
            "lhs_data->type == rhs_data->type was not true. (batch_matmul.cc: lhs FLOAT32, rhs "
            "INT8)");
  EXPECT_EQ(FailureOf(batch_matmul(T::kFloat32, T::kFloat32, {4})),
            "lhs_rank >= 2 was not true. (batch_matmul.cc)");
  EXPECT_EQ(FailureOf(batch_matmul(T::kFloat32, T::kFloat32, {2, 5})),
            "accum_dim_lhs != accum_dim_rhs (5 != 4) (batch_matmul.cc)");
}

// elementwise.cc GenericPrepare: SIN evaluates float32 only; RSQRT float32 and int8.
TEST(TflmPrepareChecks, ElementwiseOpsRefuseTypesTheyDoNotEvaluate) {
  const auto unary = [](const char* op, T type) {
    return Graph({ArenaTensor({4}, type), ArenaTensor({4}, type)}, {Op(op, {0}, {1})}, {0}, {1});
  };
  EXPECT_EQ(FailureOf(unary("SIN", T::kFloat32)), "passes");
  EXPECT_EQ(FailureOf(unary("SIN", T::kInt8)),
            "Input data type INT8 (9) is not supported. (elementwise.cc)");
  EXPECT_EQ(FailureOf(unary("RSQRT", T::kInt16)),
            "Input data type INT16 (7) is not supported. (elementwise.cc)");
}

// log_softmax.cc: an int8 output has TFLM's fixed scale 16/256 and zero point 127.
TEST(TflmPrepareChecks, Int8LogSoftmaxNeedsItsFixedOutputQuantization) {
  const auto log_softmax = [](float scale, int64_t zero_point) {
    return Graph({Quantized(ArenaTensor({1, 4}, T::kInt8), {0.1f}, {0}),
                  Quantized(ArenaTensor({1, 4}, T::kInt8), {scale}, {zero_point})},
                 {Op("LOG_SOFTMAX", {0}, {1})}, {0}, {1});
  };
  EXPECT_EQ(FailureOf(log_softmax(16.0f / 256, 127)), "passes");
  EXPECT_EQ(FailureOf(log_softmax(1.0f / 256, 127)),
            "output->params.scale == kOutputScale was not true. (log_softmax.cc)");
}

// mirror_pad.cc: one row of the padding matrix per input dimension.
TEST(TflmPrepareChecks, MirrorPadMatrixMustCoverEveryDimension) {
  const Subgraph graph =
      Graph({ArenaTensor({1, 4, 4, 2}), Constant({3, 2}), ArenaTensor({1, 6, 6, 2})},
            {Op("MIRROR_PAD", {0, 1}, {2})}, {0}, {2});
  EXPECT_EQ(FailureOf(graph),
            "SizeOfDimension(padding_matrix, 0) != NumDimensions(input_tensor) (3 != 4) "
            "(mirror_pad.cc)");
}

TEST(TflmPrepareChecks, OpsWithoutModelledChecksPass) {
  const Subgraph graph =
      Graph({ArenaTensor({4}), ArenaTensor({4})}, {Op("RESHAPE", {0}, {1})}, {0}, {1});
  EXPECT_EQ(FailureOf(graph), "passes");
}

// ceil.cc / round.cc / exp.cc: float32 only, the output of the input's type and shape.
TEST(TflmPrepareChecks, FloatUnaryKernelsRefuseOtherTypesAndShapes) {
  const Subgraph int8_ceil = Graph({ArenaTensor({4}, T::kInt8), ArenaTensor({4}, T::kInt8)},
                                   {Op("CEIL", {0}, {1})}, {0}, {1});
  EXPECT_EQ(FailureOf(int8_ceil), "input->type != kTfLiteFloat32 (INT8 != FLOAT32) (ceil.cc)");
  const Subgraph reshaped_exp =
      Graph({ArenaTensor({4}, T::kFloat32), ArenaTensor({2, 2}, T::kFloat32)},
            {Op("EXP", {0}, {1})}, {0}, {1});
  EXPECT_EQ(FailureOf(reshaped_exp), "output->dims->size != input->dims->size (2 != 1) (exp.cc)");
  const Subgraph round = Graph({ArenaTensor({4}, T::kFloat32), ArenaTensor({4}, T::kFloat32)},
                               {Op("ROUND", {0}, {1})}, {0}, {1});
  EXPECT_EQ(FailureOf(round), "passes");
}

// select.cc SelectPrepare: a bool condition and shapes that broadcast.
TEST(TflmPrepareChecks, SelectV2NeedsABoolConditionAndBroadcastableShapes) {
  auto select = [](T condition, std::vector<int32_t> y_shape) {
    return Graph({ArenaTensor({2, 3}, condition), ArenaTensor({2, 3}, T::kFloat32),
                  ArenaTensor(std::move(y_shape), T::kFloat32), ArenaTensor({2, 3}, T::kFloat32)},
                 {Op("SELECT_V2", {0, 1, 2}, {3})}, {0, 1, 2}, {3});
  };
  EXPECT_EQ(FailureOf(select(T::kBool, {1, 3})), "passes");
  EXPECT_EQ(FailureOf(select(T::kInt8, {2, 3})),
            "input_condition->type != kTfLiteBool (INT8 != BOOL) (select.cc)");
  EXPECT_EQ(FailureOf(select(T::kBool, {2, 2})),
            "Given shapes are not broadcastable. (select.cc, kernel_util.cc)");
}

// depth_to_space.cc: the channels must split into block_size^2.
TEST(TflmPrepareChecks, DepthToSpaceChannelsMustDivide) {
  Subgraph graph =
      Graph({ArenaTensor({1, 2, 2, 6}, T::kFloat32), ArenaTensor({1, 4, 4, 1}, T::kFloat32)},
            {Op("DEPTH_TO_SPACE", {0}, {1})}, {0}, {1});
  graph.nodes[0].options.Mutable().block_size = 2;
  EXPECT_EQ(FailureOf(graph),
            "input_channels != output_channels * block_size * block_size (6 != 4) "
            "(depth_to_space.cc)");
}

// cumsum.cc: float32 or int8 with one int32 axis.
TEST(TflmPrepareChecks, CumsumRefusesInt16) {
  const Subgraph graph =
      Graph({ArenaTensor({4}, T::kInt16), Constant({1}, T::kInt32), ArenaTensor({4}, T::kInt16)},
            {Op("CUMSUM", {0, 1}, {2})}, {0}, {2});
  EXPECT_EQ(FailureOf(graph),
            "input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true. "
            "(cumsum.cc: input INT16)");
}

// l2_pool_2d.cc: float32 only.
TEST(TflmPrepareChecks, L2PoolIsFloatOnly) {
  const Subgraph graph =
      Graph({ArenaTensor({1, 4, 4, 2}, T::kInt8), ArenaTensor({1, 2, 2, 2}, T::kInt8)},
            {Op("L2_POOL_2D", {0}, {1})}, {0}, {1});
  EXPECT_EQ(FailureOf(graph), "input->type != kTfLiteFloat32 (INT8 != FLOAT32) (l2_pool_2d.cc)");
}

// strided_slice_common.cc CheckOutputSize: an output that is not the slice is refused.
TEST(TflmPrepareChecks, StridedSliceOutputMustBeTheSlice) {
  auto slice = [](std::vector<int32_t> output_shape) {
    Subgraph graph;
    graph.tensors = {ArenaTensor({1, 8, 4}), Constant({3}), Constant({3}), Constant({3}),
                     ArenaTensor(std::move(output_shape))};
    graph.tensors[1].int_values = std::vector<int64_t>{0, 2, 0};
    graph.tensors[2].int_values = std::vector<int64_t>{1, 6, 4};
    graph.tensors[3].int_values = std::vector<int64_t>{1, 2, 1};
    graph.nodes = {Op("STRIDED_SLICE", {0, 1, 2, 3}, {4})};
    graph.inputs = {0};
    graph.outputs = {4};
    return graph;
  };
  EXPECT_EQ(FailureOf(slice({1, 2, 4})), "passes");
  EXPECT_EQ(FailureOf(slice({1, 3, 4})),
            "output_shape->data[shape_size] != dim_shape (3 != 2) (strided_slice.cc)");
}

Subgraph SigmoidOp(const std::string& op, T type, float out_scale, int64_t out_zero_point) {
  return Graph({Quantized(ArenaTensor({1, 8}, type), {1.0f / 4096}, {0}),
                Quantized(ArenaTensor({1, 8}, type), {out_scale}, {out_zero_point})},
               {Op(op, {0}, {1})}, {0}, {1});
}

// tanh.cc and logistic_common.cc: int16 needs zero points 0 and an output scale of 2^-15 (its
// log2 within 1e-3); LOGISTIC's int8 output zero point -128.
TEST(TflmPrepareChecks, Int16SigmoidsNeedUpstreamsFixedQuantization) {
  EXPECT_EQ(FailureOf(SigmoidOp("TANH", T::kInt16, 1.0f / 32768, 0)), "passes");
  EXPECT_EQ(FailureOf(SigmoidOp("LOGISTIC", T::kInt16, 1.0f / 32768, 0)), "passes");
  EXPECT_EQ(FailureOf(SigmoidOp("LOGISTIC", T::kInt16, 1.0f / 16384, 0)),
            "output_scale_log2_rounded != -kOutputFractionalBits (-14 != -15) "
            "(logistic_common.cc)");
  EXPECT_EQ(FailureOf(SigmoidOp("TANH", T::kInt16, 1.0f / 32768, 4)),
            "output->params.zero_point != 0 (4 != 0) (tanh.cc)");
  EXPECT_EQ(FailureOf(SigmoidOp("TANH", T::kInt16, 0.3f / 32768, 0)),
            "CheckedLog2(output->params.scale, &output_scale_log2_rounded) was not true. "
            "(tanh.cc)");
  EXPECT_EQ(FailureOf(SigmoidOp("LOGISTIC", T::kInt8, 1.0f / 256, -128)), "passes");
  EXPECT_EQ(FailureOf(SigmoidOp("LOGISTIC", T::kInt8, 1.0f / 256, 0)),
            "output->params.zero_point != std::numeric_limits<int8_t>::min() (0 != -128) "
            "(logistic_common.cc)");
}

// mul_common.cc CalculateOpDataMul: int16 MUL (16x8) needs zero points 0; mixed input types fail.
TEST(TflmPrepareChecks, Int16MulNeedsZeroPointsZero) {
  auto mul = [](int64_t zero_point, T second) {
    return Graph({Quantized(ArenaTensor({1, 4}, T::kInt16), {0.5f}, {0}),
                  Quantized(ArenaTensor({1, 4}, second), {0.5f}, {zero_point}),
                  Quantized(ArenaTensor({1, 4}, T::kInt16), {0.5f}, {0})},
                 {Op("MUL", {0, 1}, {2})}, {0, 1}, {2});
  };
  EXPECT_EQ(FailureOf(mul(0, T::kInt16)), "passes");
  EXPECT_EQ(FailureOf(mul(3, T::kInt16)), "data->input2_zero_point != 0 (3 != 0) (mul_common.cc)");
  EXPECT_EQ(FailureOf(mul(0, T::kInt8)),
            "input1->type != input2->type (INT16 != INT8) (mul_common.cc)");
}

}  // namespace
}  // namespace tfa::tflm
