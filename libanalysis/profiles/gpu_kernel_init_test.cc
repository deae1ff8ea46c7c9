// The GPU delegate kernel's init checks (model_builder.cc BuildModelEnforceIO and the parsers'
// Parse), on graphs shaped as the external models upstream's GPU delegate takes back
// (/work/shared/oracle/external/*.gpu.json "delegate_kernels_init" build_status).
#include "libanalysis/profiles/gpu_kernel_init.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

using testing::RuleTestGraph;

// The delegate kernel over `nodes` of `g` with the partition's inputs and outputs.
Node Kernel(std::vector<int32_t> nodes, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  Node kernel;
  kernel.op = "gpu";
  kernel.kind = NodeKind::kDelegateKernel;
  kernel.replaces = std::move(nodes);
  kernel.inputs = std::move(inputs);
  kernel.outputs = std::move(outputs);
  return kernel;
}

Quantization PerTensor() {
  Quantization q;
  q.scale = {0.5f};
  q.zero_point = {0};
  return q;
}

// micro_speech_quantized: the FULLY_CONNECTED reads the depthwise output [1,25,20,8] (8
// channels) with weights [4,4000]; IsSupported takes all four nodes, Parse refuses.
TEST(GpuKernelInit, FullyConnectedWeightsWiderThanTheInputChannelsFailAsUpstream) {
  RuleTestGraph g;
  const int32_t in = g.Tensor(TensorType::kInt8, {1, 1960}, PerTensor());
  const int32_t shape = g.Constant(TensorType::kInt32, {4});
  const int32_t reshaped = g.Tensor(TensorType::kInt8, {1, 49, 40, 1}, PerTensor());
  const int32_t dw_weights = g.Constant(TensorType::kInt8, {1, 10, 8, 8}, PerTensor());
  const int32_t dw_bias = g.Constant(TensorType::kInt32, {8}, PerTensor());
  const int32_t dw_out = g.Tensor(TensorType::kInt8, {1, 25, 20, 8}, PerTensor());
  const int32_t fc_weights = g.Constant(TensorType::kInt8, {4, 4000}, PerTensor());
  const int32_t fc_bias = g.Constant(TensorType::kInt32, {4}, PerTensor());
  const int32_t fc_out = g.Tensor(TensorType::kInt8, {1, 4}, PerTensor());
  const int32_t out = g.Tensor(TensorType::kInt8, {1, 4}, PerTensor());
  g.Op("RESHAPE", {{in, shape}, {reshaped}});
  g.Op("DEPTHWISE_CONV_2D", {{reshaped, dw_weights, dw_bias}, {dw_out}});
  g.Op("FULLY_CONNECTED", {{dw_out, fc_weights, fc_bias}, {fc_out}});
  g.Op("SOFTMAX", {{fc_out}, {out}});
  const Node kernel =
      Kernel({0, 1, 2, 3}, {in, shape, dw_weights, dw_bias, fc_weights, fc_bias}, {out});
  EXPECT_EQ(GpuKernelInitError(g.subgraph(), kernel, /*allow_quant_ops=*/true),
            std::optional<std::string>(
                "FULLY_CONNECTED: Amount of input channels should match weights width"));
}

TEST(GpuKernelInit, FullyConnectedWhoseWeightsMatchTheInputChannelsBuilds) {
  RuleTestGraph g;
  const int32_t in = g.Tensor(TensorType::kFloat32, {1, 25, 20, 8});
  const int32_t weights = g.Constant(TensorType::kFloat32, {4, 8});
  const int32_t out = g.Tensor(TensorType::kFloat32, {1, 25, 20, 4});
  g.Op("FULLY_CONNECTED", {{in, weights, -1}, {out}});
  EXPECT_FALSE(GpuKernelInitError(g.subgraph(), Kernel({0}, {in, weights}, {out}), true));
}

// qwen_fc_blockwise_quantized: INT4 blockwise weights cannot be copied as float data.
TEST(GpuKernelInit, Int4WeightsAreNotReadableAsFloatData) {
  RuleTestGraph g;
  const int32_t in = g.Tensor(TensorType::kFloat32, {1, 1, 1024});
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 32;
  const int32_t weights = g.Constant(TensorType::kInt4, {1024, 1024}, blockwise);
  const int32_t out = g.Tensor(TensorType::kFloat32, {1, 1, 1024});
  g.Constant(TensorType::kFloat16, {1024, 32});
  g.Op("FULLY_CONNECTED", {{in, weights}, {out}});
  EXPECT_EQ(
      GpuKernelInitError(g.subgraph(), Kernel({0}, {in, weights}, {out}), true),
      std::optional<std::string>("FULLY_CONNECTED: Unsupported data type for float32 tensor"));
}

// multi_subgraphs_while: the body's ADD reads the scalar "arg2", a partition input; values need
// rank 1 to 4, so the precreated inputs fail before any parser runs (no op name).
TEST(GpuKernelInit, AScalarPartitionInputHasBadDims) {
  RuleTestGraph g;
  const int32_t a = g.Tensor(TensorType::kFloat32, {});
  const int32_t b = g.Tensor(TensorType::kFloat32, {});
  const int32_t out = g.Tensor(TensorType::kFloat32, {});
  g.Op("ADD", {{a, b}, {out}});
  Subgraph graph = g.subgraph();
  graph.tensors[static_cast<size_t>(a)].name = "arg2";
  EXPECT_EQ(GpuKernelInitError(graph, Kernel({0}, {a, b}, {out}), true),
            std::optional<std::string>("Tensor \"arg2\" has bad input dims size: 0."));
}

// PopulateQuantParams: a non-constant quantized value needs one scale.
TEST(GpuKernelInit, PerChannelQuantizedValuesFailWithQuantizedOpsAllowed) {
  RuleTestGraph g;
  Quantization per_channel;
  per_channel.scale = {0.5f, 0.25f};
  per_channel.zero_point = {0, 0};
  per_channel.quantized_dimension = 1;
  const int32_t in = g.Tensor(TensorType::kInt8, {1, 2}, per_channel);
  const int32_t out = g.Tensor(TensorType::kInt8, {1, 2}, PerTensor());
  g.Op("RELU", {{in}, {out}});
  Subgraph graph = g.subgraph();
  graph.tensors[static_cast<size_t>(in)].name = "x";
  EXPECT_EQ(GpuKernelInitError(graph, Kernel({0}, {in}, {out}), true),
            std::optional<std::string>("Non-constant per-channel quantized tensor: x"));
  // Without quantized ops the value is not converted (and the delegate would not take it).
  EXPECT_FALSE(GpuKernelInitError(graph, Kernel({0}, {in}, {out}), false));
}

// The convolution parsers copy their constant weights as float data too.
TEST(GpuKernelInit, ConvolutionWithInt4WeightsFails) {
  RuleTestGraph g;
  const int32_t in = g.Tensor(TensorType::kFloat32, {1, 8, 8, 4});
  const int32_t weights = g.Constant(TensorType::kInt4, {2, 3, 3, 4});
  const int32_t bias = g.Constant(TensorType::kFloat32, {2});
  const int32_t out = g.Tensor(TensorType::kFloat32, {1, 8, 8, 2});
  g.Op("CONV_2D", {{in, weights, bias}, {out}});
  EXPECT_EQ(GpuKernelInitError(g.subgraph(), Kernel({0}, {in, weights, bias}, {out}), true),
            std::optional<std::string>("CONV_2D: Unsupported data type for float32 tensor"));
}

// The full LSTM kernel runs batch 1 only (lstm_parser.cc ParseLSTMAttributes reads the cell state
// first and refuses a batch); IsSupported does not look.
TEST(GpuKernelInit, FullLstmOfBatchTwoFailsAtInit) {
  for (int32_t batch : {1, 2}) {
    RuleTestGraph g;
    std::vector<int32_t> in(24, -1);
    in[0] = g.Tensor(TensorType::kFloat32, {batch, 3});
    for (size_t k = 1; k <= 4; ++k) in[k] = g.Constant(TensorType::kFloat32, {5, 3});
    for (size_t k = 5; k <= 8; ++k) in[k] = g.Constant(TensorType::kFloat32, {5, 5});
    for (size_t k = 12; k <= 15; ++k) in[k] = g.Constant(TensorType::kFloat32, {5});
    in[18] = g.Tensor(TensorType::kFloat32, {batch, 5});
    in[19] = g.Tensor(TensorType::kFloat32, {batch, 5});
    const int32_t out = g.Tensor(TensorType::kFloat32, {batch, 5});
    g.Op("LSTM", {in, {out}}).options.Mutable().fused_activation = Activation::kTanh;
    const Node kernel = Kernel({0}, {in[0], in[18], in[19]}, {out});
    const auto error = GpuKernelInitError(g.subgraph(), kernel, true);
    if (batch == 1) {
      EXPECT_FALSE(error) << *error;
    } else {
      EXPECT_EQ(error,
                std::optional<std::string>("LSTM: Batched execution is not supported for LSTM"));
    }
  }
}

// The basic kernel's gate activations hold four gates: a depth that is not a multiple of 4 fails.
TEST(GpuKernelInit, BasicLstmGateDepthMustBeAMultipleOfFour) {
  for (int32_t depth : {16, 18}) {
    RuleTestGraph g;
    const int32_t input = g.Tensor(TensorType::kFloat32, {1, 3});
    const int32_t activ = g.Tensor(TensorType::kFloat32, {1, 4});
    const int32_t weights = g.Constant(TensorType::kFloat32, {depth, 7});
    const int32_t bias = g.Constant(TensorType::kFloat32, {depth});
    const int32_t state = g.Tensor(TensorType::kFloat32, {1, 4});
    const int32_t out = g.Tensor(TensorType::kFloat32, {1, 4});
    const int32_t new_state = g.Tensor(TensorType::kFloat32, {1, 4});
    const int32_t concat = g.Tensor(TensorType::kFloat32, {1, 7});
    const int32_t gates = g.Tensor(TensorType::kFloat32, {1, depth});
    OpOptions& o =
        g.Op("LSTM", {{input, activ, weights, bias, state}, {out, new_state, concat, gates}})
            .options.Mutable();
    o.lstm_basic_kernel = true;
    o.fused_activation = Activation::kTanh;
    const Node kernel =
        Kernel({0}, {input, activ, weights, bias, state}, {out, new_state, concat, gates});
    const auto error = GpuKernelInitError(g.subgraph(), kernel, true);
    if (depth == 16) {
      EXPECT_FALSE(error) << *error;
    } else {
      EXPECT_EQ(error, std::optional<std::string>(
                           "LSTM: BasicLSTM activation depth must be a multiple of 4."));
    }
  }
}

}  // namespace
}  // namespace tfa
