#include "libanalysis/tflm/cmsis_nn_prepare_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "libanalysis/tflm/kernel_prepare_checks.h"
#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::Graph;
using testing::Op;
using T = TensorType;

Tensor Quantized(Tensor tensor, int64_t zero_point = 0, size_t scales = 1) {
  tensor.quantization.Mutable().scale.assign(scales, 0.5f);
  tensor.quantization.Mutable().zero_point.assign(scales, zero_point);
  return tensor;
}

std::string PortFailure(const Subgraph& graph) {
  return CmsisNnPrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

std::string ReferenceFailure(const Subgraph& graph) {
  return PrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

// transpose_conv.cc refuses an int16 input over an int16 filter in Prepare; the reference kernel
// only in Eval.
TEST(CmsisNnPrepareChecks, TransposeConvRefusesMixedTypesInPrepare) {
  const Subgraph graph =
      Graph({Constant({4}, T::kInt32), Quantized(Constant({8, 3, 3, 4}, T::kInt16)),
             Quantized(ArenaTensor({1, 4, 4, 4}, T::kInt16)),
             Quantized(ArenaTensor({1, 8, 8, 8}, T::kInt16))},
            {Op("TRANSPOSE_CONV", {0, 1, 2}, {3})}, {2}, {3});
  EXPECT_EQ(ReferenceFailure(graph), "passes");
  EXPECT_EQ(PortFailure(graph),
            "Hybrid models are not supported on TFLite Micro. (cmsis_nn/transpose_conv.cc: input "
            "INT16, filter INT16)");
}

// CMSIS-NN's batch matmul takes ranks up to 4; the reference kernel up to 5.
TEST(CmsisNnPrepareChecks, BatchMatMulOfRankFiveIsRefused) {
  const Subgraph graph = Graph(
      {ArenaTensor({1, 1, 2, 4, 8}), ArenaTensor({1, 1, 2, 8, 6}), ArenaTensor({1, 1, 2, 4, 6})},
      {Op("BATCH_MATMUL", {0, 1}, {2})}, {0, 1}, {2});
  EXPECT_EQ(ReferenceFailure(graph), "passes");
  EXPECT_EQ(PortFailure(graph), "lhs_rank <= 4 was not true. (cmsis_nn/batch_matmul.cc)");
}

// depthwise_conv.cc runs int16 over int8 weights, which the reference kernel refuses as hybrid,
// and holds its input and output zero points to 0.
TEST(CmsisNnPrepareChecks, Int16DepthwiseRunsWithZeroPointsOfZero) {
  const auto graph = [](int64_t zero_point) {
    return Graph({Quantized(ArenaTensor({1, 8, 8, 4}, T::kInt16), zero_point),
                  Quantized(Constant({1, 3, 3, 4}, T::kInt8)),
                  Quantized(ArenaTensor({1, 8, 8, 4}, T::kInt16))},
                 {Op("DEPTHWISE_CONV_2D", {0, 1}, {2})}, {0}, {2});
  };
  EXPECT_NE(ReferenceFailure(graph(0)), "passes");
  EXPECT_EQ(PortFailure(graph(0)), "passes");
  EXPECT_EQ(PortFailure(graph(3)),
            "input->params.zero_point != 0 (3 != 0) (cmsis_nn/depthwise_conv.cc)");
}

// CalculateOpDataFullyConnected takes per-channel weights for an int8 input only.
TEST(CmsisNnPrepareChecks, PerChannelFullyConnectedNeedsAnInt8Input) {
  const auto graph = [](T type) {
    return Graph({Quantized(ArenaTensor({1, 8}, type)), Quantized(Constant({6, 8}, T::kInt8), 0, 6),
                  Quantized(ArenaTensor({1, 6}, type))},
                 {Op("FULLY_CONNECTED", {0, 1}, {2})}, {0}, {2});
  };
  EXPECT_EQ(PortFailure(graph(T::kInt8)), "passes");
  EXPECT_EQ(PortFailure(graph(T::kInt16)),
            "input->type == kTfLiteInt8 && filter->type != kTfLiteInt4 was not true. "
            "(fully_connected_common.cc: per-channel input INT16, filter INT8)");
}

// softmax.cc checks the types it runs together before CalculateSoftmaxParams.
TEST(CmsisNnPrepareChecks, SoftmaxTypesTogether) {
  const auto graph = [](T input, T output) {
    return Graph({Quantized(ArenaTensor({1, 10}, input)), Quantized(ArenaTensor({1, 10}, output))},
                 {Op("SOFTMAX", {0}, {1})}, {0}, {1});
  };
  EXPECT_EQ(PortFailure(graph(T::kInt16, T::kInt8)),
            "Input and output data types are not supported together. (cmsis_nn/softmax.cc: "
            "input INT16, output INT8)");
  // The reference checks follow: an int8 output needs TFLM's fixed scale and zero point.
  EXPECT_EQ(PortFailure(graph(T::kInt8, T::kInt8)), ReferenceFailure(graph(T::kInt8, T::kInt8)));
}

// unidirectional_sequence_lstm.cc: CMSIS-NN's kernel sums need constant weights.
TEST(CmsisNnPrepareChecks, LstmWeightsMustBeConstant) {
  std::vector<Tensor> tensors = {Quantized(ArenaTensor({2, 3, 5}, T::kInt8))};
  for (int i = 0; i < 4; ++i) tensors.push_back(Quantized(Constant({4, 5}, T::kInt8)));
  for (int i = 0; i < 4; ++i) tensors.push_back(Quantized(Constant({4, 4}, T::kInt8)));
  for (int i = 0; i < 4; ++i) tensors.push_back(Constant({4}, T::kInt32));
  tensors.push_back(Quantized(ArenaTensor({2, 4}, T::kInt8)));
  tensors.push_back(Quantized(ArenaTensor({2, 4}, T::kInt16)));
  tensors.push_back(Quantized(ArenaTensor({2, 3, 4}, T::kInt8)));
  tensors[13].is_variable = true;
  tensors[14].is_variable = true;
  tensors[6] = Quantized(ArenaTensor({4, 4}, T::kInt8));  // a recurrent weight computed at run time
  std::vector<int32_t> inputs = {0, 1,  2,  3,  4,  5,  6,  7,  8,  -1, -1, -1,
                                 9, 10, 11, 12, -1, -1, 13, 14, -1, -1, -1, -1};
  const Subgraph graph =
      Graph(std::move(tensors), {Op("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, {15})}, {0}, {15});
  EXPECT_EQ(ReferenceFailure(graph), "passes");
  EXPECT_EQ(PortFailure(graph),
            "IsConstantTensor(lstm_tensors.GetInternalTensor(i)) was not true. "
            "(cmsis_nn/unidirectional_sequence_lstm.cc: input 6 is not constant)");
}

// Ops whose port keeps the reference Prepare, or whose port checks are not modelled apart, read
// the reference kernel's lines.
TEST(CmsisNnPrepareChecks, OtherOpsReadTheReferenceChecks) {
  const Subgraph graph =
      Graph({ArenaTensor({1, 8, 8, 4}, T::kUInt8), Constant({8, 3, 3, 4}, T::kUInt8),
             ArenaTensor({1, 8, 8, 8}, T::kUInt8)},
            {Op("CONV_2D", {0, 1}, {2})}, {0}, {2});
  EXPECT_EQ(PortFailure(graph), ReferenceFailure(graph));
  EXPECT_NE(PortFailure(graph), "passes");
}

}  // namespace
}  // namespace tfa::tflm
