// One test (or more) per rule of xnnpack_rules.h, built from the conditions of upstream's XNNPACK
// delegate tests (google-ai-edge/LiteRT tflite/delegates/xnnpack/*_test.cc: the testers build a
// one-op model, delegate it and expect the op taken) and from the branches of the Visit*Node
// functions that refuse a node, with upstream's log line as the expected reason.
#include "libanalysis/profiles/xnnpack_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kF16 = TensorType::kFloat16;
constexpr TensorType kI8 = TensorType::kInt8;
constexpr TensorType kU8 = TensorType::kUInt8;
constexpr TensorType kI32 = TensorType::kInt32;
constexpr TensorType kI64 = TensorType::kInt64;

Quantization PerTensor(float scale, int64_t zero_point) { return {{scale}, {zero_point}, 0}; }
Quantization PerChannel(int channels, int32_t dimension) {
  return {std::vector<float>(static_cast<size_t>(channels), 0.5f),
          std::vector<int64_t>(static_cast<size_t>(channels), 0), dimension};
}

// The XNNPACK profile's verdicts on a graph built node by node.
class Graph : public testing::RuleTestGraph {
 public:
  std::vector<std::string> Verdicts(const testing::RuleOptions& options = {}) const {
    return RuleTestGraph::Verdicts("xnnpack", options);
  }
  std::string Verdict(const testing::RuleOptions& options = {}) const {
    return Verdicts(options).back();
  }
};

// Padding, strides and (for pools) the window of a convolution or pooling node.
void SetWindow(Node& node, Padding padding, int32_t stride, int32_t filter = 0) {
  node.options.Mutable().padding = padding;
  node.options.Mutable().stride_w = node.options.Mutable().stride_h = stride;
  node.options.Mutable().filter_w = node.options.Mutable().filter_h = filter;
}

// Conv2DTester: NHWC input, OHWI static filter, static bias.
Node& Conv(Graph& g, TensorType type = kF32) {
  const Quantization q = type == kF32 ? Quantization{} : PerTensor(0.5f, 0);
  const int32_t in = g.Tensor(type, {1, 8, 8, 3}, q);
  const int32_t filter = g.Constant(type, {4, 3, 3, 3}, q);
  const int32_t bias = g.Constant(type == kF32 ? kF32 : kI32, {4}, q);
  const int32_t out = g.Tensor(type, {1, 8, 8, 4}, q);
  Node& node = g.Op("CONV_2D", {{in, filter, bias}, {out}});
  node.options.Mutable().padding = Padding::kSame;
  return node;
}

TEST(XnnpackRulesTest, StaticUnpackTakesFp16AndInt8WeightsAndSparseWeights) {
  // conv_2d_test.cc FP16Weights / INT8ChannelWiseWeights / SparseWeights: the weights go through
  // DEQUANTIZE (or DENSIFY) first, and the delegate takes those nodes with the convolution.
  Graph g;
  const int32_t in = g.Tensor(kF32, {1, 8, 8, 3});
  const int32_t sparse = g.SparseConstant(kF16, {4, 3, 3, 3});
  const int32_t dense = g.Tensor(kF16, {4, 3, 3, 3});
  g.Op("DENSIFY", {{sparse}, {dense}});
  const int32_t filter = g.Tensor(kF32, {4, 3, 3, 3});
  g.Op("DEQUANTIZE", {{dense}, {filter}});
  const int32_t int8_bias = g.Constant(kI8, {4}, PerChannel(4, 0));
  const int32_t bias = g.Tensor(kF32, {4});
  g.Op("DEQUANTIZE", {{int8_bias}, {bias}});
  const int32_t out = g.Tensor(kF32, {1, 8, 8, 4});
  g.Op("CONV_2D", {{in, filter, bias}, {out}}).options.Mutable().padding = Padding::kSame;
  EXPECT_EQ(g.Verdicts(), (std::vector<std::string>{"", "", "", ""}));
}

TEST(XnnpackRulesTest, StaticUnpackNodeStaysWithAConsumerThatFailsItsVisit) {
  Graph g;
  const int32_t weights = g.Constant(kF16, {4, 3});
  const int32_t dequantized = g.Tensor(kF32, {4, 3});
  g.Op("DEQUANTIZE", {{weights}, {dequantized}});
  const int32_t out = g.Tensor(kF32, {4, 3});
  g.Op("GATHER", {{dequantized}, {out}});
  EXPECT_EQ(g.Verdicts(),
            (std::vector<std::string>{"unpacks static data for node 1, which stays on the CPU",
                                      "unsupported operator type GATHER in node #1"}));
}

TEST(XnnpackRulesTest, DensifyOfNonStaticDataHasNoVisit) {
  Graph g;
  const int32_t in = g.Tensor(kF32, {4});
  const int32_t out = g.Tensor(kF32, {4});
  g.Op("DENSIFY", {{in}, {out}});
  EXPECT_EQ(g.Verdict(), "unsupported operator type DENSIFY in node #0");
}

TEST(XnnpackRulesTest, UnaryNode) {
  // unary_elementwise tests: float32 ops of any rank up to 6.
  Graph ok;
  ok.Op("ABS", {{ok.Tensor(kF32, {1, 2, 3, 4})}, {ok.Tensor(kF32, {1, 2, 3, 4})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph int32;
  int32.Op("ABS", {{int32.Tensor(kI32, {4})}, {int32.Tensor(kI32, {4})}});
  EXPECT_EQ(int32.Verdict(),
            "CheckTensorFloatType: unsupported type INT32 in tensor #0 in node #0");

  Graph rank7;
  rank7.Op("SQRT", {{rank7.Tensor(kF32, {1, 1, 1, 1, 1, 1, 2})}, {rank7.Tensor(kF32, {2})}});
  EXPECT_EQ(rank7.Verdict(),
            "unsupported number of shape dimensions (7) in tensor #0 in SQRT node #0: at most 6 "
            "dimensions expected");

  // signed_dequantize_test.cc: a non-static per-tensor int8 DEQUANTIZE is an ordinary unary node.
  Graph dequantize;
  dequantize.Op("DEQUANTIZE", {{dequantize.Tensor(kI8, {4}, PerTensor(0.5f, 1))},
                               {dequantize.Tensor(kF32, {4})}});
  EXPECT_EQ(dequantize.Verdict(), "");

  Graph fp16;
  fp16.Op("DEQUANTIZE", {{fp16.Tensor(kF16, {4})}, {fp16.Tensor(kF32, {4})}});
  EXPECT_EQ(fp16.Verdict(),
            "CheckTensorQInt8OrQUInt8Type: unsupported type FLOAT16 in tensor #0 in node #0");

  Graph leaky;
  leaky.Op("LEAKY_RELU", {{leaky.Tensor(kF32, {4})}, {leaky.Tensor(kF32, {4})}})
      .options.Mutable()
      .alpha = 0;
  EXPECT_EQ(leaky.Verdict(), "unsupported alpha 0 in LEAKY_RELU node #0");

  Graph quantize;
  quantize.Op("QUANTIZE", {{quantize.Tensor(kI8, {4}, PerTensor(0.5f, 0))},
                           {quantize.Tensor(kU8, {4}, PerTensor(0.5f, 128))}});
  EXPECT_EQ(quantize.Verdict(),
            "unsupported combination of input type (INT8) and output type (UINT8) in QUANTIZE "
            "node #0");

  Graph elu;
  elu.Op("ELU", {{elu.Tensor(kU8, {4}, PerTensor(0.5f, 0))}, {elu.Tensor(kU8, {4})}});
  EXPECT_EQ(elu.Verdict(),
            "CheckTensorFloat32OrQInt8Type: unsupported type UINT8 in tensor #0 in node #0");

  // LOG is a float unary node (xnn_unary_log): upstream's XNNPACK takes yamnet's LOG between its
  // FULLY_CONNECTED and RESHAPE (oracle external/..._yamnet.xnnpack.json: partition
  // [10, 11, 12, 13, 14], 4 partitions).
  Graph log;
  log.Op("LOG", {{log.Tensor(kF32, {96, 64})}, {log.Tensor(kF32, {96, 64})}});
  EXPECT_EQ(log.Verdict(), "");
  Graph int_log;
  int_log.Op("LOG", {{int_log.Tensor(kI32, {4})}, {int_log.Tensor(kI32, {4})}});
  EXPECT_EQ(int_log.Verdict(),
            "CheckTensorFloatType: unsupported type INT32 in tensor #0 in node #0");
}

TEST(XnnpackRulesTest, BinaryNode) {
  // binary_elementwise_test.cc: float32 ADD with broadcasting and fused RELU6.
  Graph ok;
  ok.Op("ADD",
        {{ok.Tensor(kF32, {1, 2, 3, 4}), ok.Tensor(kF32, {4})}, {ok.Tensor(kF32, {1, 2, 3, 4})}})
      .options.Mutable()
      .fused_activation = Activation::kRelu6;
  EXPECT_EQ(ok.Verdict(), "");

  Graph mixed;
  mixed.Op("ADD", {{mixed.Tensor(kF32, {4}), mixed.Tensor(kI8, {4}, PerTensor(0.5f, 0))},
                   {mixed.Tensor(kF32, {4})}});
  EXPECT_EQ(mixed.Verdict(), "unsupported mixed types in ADD operator #0");

  Graph scale;
  scale.Op("ADD", {{scale.Tensor(kI8, {4}, PerTensor(1.0f / 2048, 0)),
                    scale.Tensor(kI8, {4}, PerTensor(1, 0))},
                   {scale.Tensor(kI8, {4}, PerTensor(1, 0))}});
  EXPECT_EQ(scale.Verdict(), "unsupported input-to-output scale in ADD node #0");

  Graph div;
  div.Op("DIV", {{div.Tensor(kI8, {4}, PerTensor(1, 0)), div.Tensor(kI8, {4}, PerTensor(1, 0))},
                 {div.Tensor(kI8, {4}, PerTensor(1, 0))}});
  EXPECT_EQ(div.Verdict(), "CheckTensorType: unsupported type INT8 in tensor #0 in node #0");

  // prelu_test.cc uses a static slope; a computed one is refused.
  Graph prelu;
  prelu.Op("PRELU",
           {{prelu.Tensor(kF32, {1, 4}), prelu.Tensor(kF32, {4})}, {prelu.Tensor(kF32, {1, 4})}});
  EXPECT_EQ(prelu.Verdict(),
            "invalid allocation type in tensor #1 in PRELU node #0: expected static read-only "
            "tensor");

  Graph tanh;
  tanh.Op("MUL", {{tanh.Tensor(kF32, {4}), tanh.Tensor(kF32, {4})}, {tanh.Tensor(kF32, {4})}})
      .options.Mutable()
      .fused_activation = Activation::kTanh;
  EXPECT_EQ(tanh.Verdict(), "unsupported fused activation (Tanh) in node #0");

  // Without TFLITE_XNNPACK_DELEGATE_FLAG_QS8 an int8 ADD is refused.
  Graph no_qs8;
  const Quantization q = PerTensor(0.5f, 0);
  no_qs8.Op("ADD", {{no_qs8.Tensor(kI8, {4}, q), no_qs8.Tensor(kI8, {4}, q)},
                    {no_qs8.Tensor(kI8, {4}, q)}});
  EXPECT_EQ(no_qs8.Verdict(), "");
  EXPECT_EQ(no_qs8.Verdict({{"qs8", "false"}}),
            "CheckTensorFloat32OrQUInt8Type: unsupported type INT8 in tensor #0 in node #0");
}

TEST(XnnpackRulesTest, PoolNodes) {
  // pool_2d_tester: 2x2 window, stride 2, SAME padding.
  Graph ok;
  Node& pool =
      ok.Op("MAX_POOL_2D", {{ok.Tensor(kF32, {1, 8, 8, 3})}, {ok.Tensor(kF32, {1, 4, 4, 3})}});
  SetWindow(pool, Padding::kSame, 2, 2);
  EXPECT_EQ(ok.Verdict(), "");

  Graph wide_stride;
  Node& strided = wide_stride.Op("MAX_POOL_2D", {{wide_stride.Tensor(kF32, {1, 8, 8, 3})},
                                                 {wide_stride.Tensor(kF32, {1, 4, 4, 3})}});
  SetWindow(strided, Padding::kSame, 1, 2);
  strided.options.Mutable().stride_w = 3;
  EXPECT_EQ(wide_stride.Verdict(),
            "unsupported width stride 3 exceeding filter width 2 in MAX_POOL_2D node #0");

  Graph one_by_one;
  Node& avg = one_by_one.Op("AVERAGE_POOL_2D", {{one_by_one.Tensor(kF32, {1, 8, 8, 3})},
                                                {one_by_one.Tensor(kF32, {1, 4, 4, 3})}});
  SetWindow(avg, Padding::kValid, 2, 1);
  // The stride test comes first, so a 1x1 window with stride 2 fails it, not the 1x1 test.
  EXPECT_EQ(one_by_one.Verdict(),
            "unsupported width stride 2 exceeding filter width 1 in AVERAGE_POOL_2D node #0");

  // The quantized pool tests cover MAX_POOL_2D only; AVERAGE_POOL_2D is float32.
  Graph int8_avg;
  Node& q = int8_avg.Op("AVERAGE_POOL_2D", {{int8_avg.Tensor(kI8, {1, 8, 8, 3}, PerTensor(1, 0))},
                                            {int8_avg.Tensor(kI8, {1, 4, 4, 3}, PerTensor(1, 0))}});
  SetWindow(q, Padding::kSame, 2, 2);
  EXPECT_EQ(int8_avg.Verdict(), "CheckTensorType: unsupported type INT8 in tensor #0 in node #0");
}

TEST(XnnpackRulesTest, BatchMatMulNode) {
  Graph ok;
  ok.Op("BATCH_MATMUL",
        {{ok.Tensor(kF32, {2, 3, 4}), ok.Tensor(kF32, {2, 4, 5})}, {ok.Tensor(kF32, {2, 3, 5})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph vector;
  vector.Op("BATCH_MATMUL",
            {{vector.Tensor(kF32, {4}), vector.Tensor(kF32, {4, 5})}, {vector.Tensor(kF32, {5})}});
  EXPECT_EQ(vector.Verdict(),
            "failed to delegate BATCH_MATMUL node #0. Unsupported number of dimensions 1 for "
            "tensor #0, must be at least 2");
}

TEST(XnnpackRulesTest, ConcatenationTakesTwoToFiveInputs) {
  // concatenation_test.cc: 2, 3, 4 and 5 inputs; XNNPACK defines no concatenation of 6.
  for (int inputs = 2; inputs <= 6; ++inputs) {
    Graph g;
    std::vector<int32_t> ids;
    for (int i = 0; i < inputs; ++i) ids.push_back(g.Tensor(kF32, {1, 2}));
    g.Op("CONCATENATION", {ids, {g.Tensor(kF32, {1, 2 * inputs})}}).options.Mutable().axis = 1;
    EXPECT_EQ(g.Verdict(),
              inputs <= 5 ? "" : "unexpected number of inputs (6) in CONCATENATION node #0");
  }
  Graph uint8;
  uint8.Op("CONCATENATION", {{uint8.Tensor(kU8, {2}, PerTensor(0.5f, 1)),
                              uint8.Tensor(kU8, {2}, PerTensor(0.5f, 2))},
                             {uint8.Tensor(kU8, {4}, PerTensor(0.5f, 2))}});
  EXPECT_EQ(uint8.Verdict(),
            "Mismatching quantization zero point across the 0th input (1) and the output (2) for "
            "CONCATENATE operator #0");
}

TEST(XnnpackRulesTest, Conv2dNode) {
  Graph ok;
  Conv(ok);
  EXPECT_EQ(ok.Verdict(), "");

  // signed_quantized_conv_2d_test.cc: per-tensor int8.
  Graph int8;
  Conv(int8, kI8);
  EXPECT_EQ(int8.Verdict(), "");

  Graph no_bias;
  no_bias
      .Op("CONV_2D",
          {{no_bias.Tensor(kF32, {1, 8, 8, 3}), no_bias.Constant(kF32, {4, 3, 3, 3}), -1},
           {no_bias.Tensor(kF32, {1, 8, 8, 4})}})
      .options.Mutable()
      .padding = Padding::kSame;
  EXPECT_EQ(no_bias.Verdict(), "unsupported CONV_2D node #0 without bias");

  Graph dynamic;
  dynamic
      .Op("CONV_2D", {{dynamic.Tensor(kF32, {1, 8, 8, 3}), dynamic.Tensor(kF32, {4, 3, 3, 3}),
                       dynamic.Constant(kF32, {4})},
                      {dynamic.Tensor(kF32, {1, 8, 8, 4})}})
      .options.Mutable()
      .padding = Padding::kSame;
  EXPECT_EQ(dynamic.Verdict(),
            "invalid allocation type in tensor #1 in CONV_2D node #0: expected static read-only "
            "tensor");

  // channelwise_quantized_conv_2d_test.cc quantizes the filter along dimension 0.
  Graph channel;
  channel
      .Op("CONV_2D", {{channel.Tensor(kI8, {1, 8, 8, 3}, PerTensor(1, 0)),
                       channel.Constant(kI8, {4, 3, 3, 3}, PerChannel(3, 3)),
                       channel.Constant(kI32, {4}, PerChannel(4, 0))},
                      {channel.Tensor(kI8, {1, 8, 8, 4}, PerTensor(1, 0))}})
      .options.Mutable()
      .padding = Padding::kSame;
  EXPECT_EQ(channel.Verdict(), "unsupported quantized dimension 3 in tensor #1 in node #0");

  Graph stride;
  Conv(stride).options.Mutable().stride_w = 0;
  EXPECT_EQ(stride.Verdict(), "invalid stride width 0 in node #0");

  Graph padding;
  Conv(padding).options.Mutable().padding = Padding::kUnknown;
  EXPECT_EQ(padding.Verdict(), "invalid padding mode (0) in node #0");
}

TEST(XnnpackRulesTest, DepthwiseConv2dNode) {
  Graph ok;
  Node& dw = ok.Op("DEPTHWISE_CONV_2D", {{ok.Tensor(kF32, {1, 8, 8, 4}),
                                          ok.Constant(kF32, {1, 3, 3, 8}), ok.Constant(kF32, {8})},
                                         {ok.Tensor(kF32, {1, 8, 8, 8})}});
  dw.options.Mutable().padding = Padding::kSame;
  dw.options.Mutable().depth_multiplier = 2;
  EXPECT_EQ(ok.Verdict(), "");

  Graph multiplier;
  Node& bad = multiplier.Op("DEPTHWISE_CONV_2D", {{multiplier.Tensor(kF32, {1, 8, 8, 4}),
                                                   multiplier.Constant(kF32, {1, 3, 3, 8}),
                                                   multiplier.Constant(kF32, {8})},
                                                  {multiplier.Tensor(kF32, {1, 8, 8, 8})}});
  bad.options.Mutable().padding = Padding::kSame;
  bad.options.Mutable().depth_multiplier = 3;
  EXPECT_EQ(multiplier.Verdict(),
            "depth multiplier 3 is incompatible with number of output channels 8 in node #0");
}

TEST(XnnpackRulesTest, TransposeConvNode) {
  // transpose_conv_tester: output shape as a static int32 tensor, SAME padding, stride 2.
  Graph ok;
  Node& deconv = ok.Op("TRANSPOSE_CONV", {{ok.Constant(kI32, {4}), ok.Constant(kF32, {4, 3, 3, 2}),
                                           ok.Tensor(kF32, {1, 4, 4, 2}), ok.Constant(kF32, {4})},
                                          {ok.Tensor(kF32, {1, 8, 8, 4})}});
  SetWindow(deconv, Padding::kSame, 2);
  EXPECT_EQ(ok.Verdict(), "");

  Graph inconsistent;
  Node& bad = inconsistent.Op("TRANSPOSE_CONV", {{inconsistent.Constant(kI32, {4}),
                                                  inconsistent.Constant(kF32, {4, 3, 3, 2}),
                                                  inconsistent.Tensor(kF32, {1, 5, 4, 2})},
                                                 {inconsistent.Tensor(kF32, {1, 8, 8, 4})}});
  SetWindow(bad, Padding::kSame, 2);
  EXPECT_EQ(inconsistent.Verdict(),
            "inconsistent combination of parameters for TRANSPOSE_CONV op in node #0: computed "
            "input size 4x4 (HxW), actual 5x4");
}

TEST(XnnpackRulesTest, FullyConnectedNode) {
  // fully_connected_test.cc: static weights and bias; the dynamic-weights tests set
  // TFLITE_XNNPACK_DELEGATE_FLAG_DYNAMIC_FULLY_CONNECTED.
  Graph ok;
  ok.Op("FULLY_CONNECTED",
        {{ok.Tensor(kF32, {2, 8}), ok.Constant(kF32, {4, 8}), ok.Constant(kF32, {4})},
         {ok.Tensor(kF32, {2, 4})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph dynamic;
  dynamic.Op("FULLY_CONNECTED", {{dynamic.Tensor(kF32, {2, 8}), dynamic.Tensor(kF32, {4, 8}),
                                  dynamic.Tensor(kF32, {4})},
                                 {dynamic.Tensor(kF32, {2, 4})}});
  EXPECT_EQ(dynamic.Verdict(),
            "invalid allocation type in tensor #1 in FULLY_CONNECTED node #0: expected static "
            "read-only tensor");
  EXPECT_EQ(dynamic.Verdict({{"dynamic_fully_connected", "true"}}), "");

  Graph sparse;
  sparse
      .Op("FULLY_CONNECTED", {{sparse.Tensor(kF32, {2, 8}), sparse.Constant(kF32, {4, 8})},
                              {sparse.Tensor(kF32, {2, 4})}})
      .version = 8;
  EXPECT_EQ(sparse.Verdict(), "Unsupported version 8 of FullyConnected.");

  Graph bias;
  bias.Op("FULLY_CONNECTED",
          {{bias.Tensor(kF32, {2, 8}), bias.Constant(kF32, {4, 8}), bias.Constant(kF32, {5})},
           {bias.Tensor(kF32, {2, 4})}});
  EXPECT_EQ(bias.Verdict(),
            "Fully Connected: Mismatch between number of bias elements 5 and number of output "
            "channels 4 at node 0");

  Graph shuffled;
  shuffled
      .Op("FULLY_CONNECTED", {{shuffled.Tensor(kF32, {2, 8}), shuffled.Constant(kF32, {4, 8})},
                              {shuffled.Tensor(kF32, {2, 4})}})
      .options.Mutable()
      .weights_format = 1;
  EXPECT_EQ(shuffled.Verdict(), "unsupported non-default weights format in node #0");
}

// qwen_fc_blockwise_quantized: float32 input, INT4 weights [1024, 1024] with fp16 scales per 32
// values. Upstream's build defines XNNPACK_DELEGATE_USE_LATEST_OPS, so the dynamically quantized
// FULLY_CONNECTED is taken by default (oracle external/..._qwen_fc_blockwise_quantized
// .xnnpack.json: one kernel over node 0); a build without it refuses the mixed types.
TEST(XnnpackRulesTest, BlockwiseInt4FullyConnectedIsDynamicallyQuantized) {
  const auto blockwise = [](int32_t scales, int32_t block_size) {
    Quantization q;
    q.blockwise = true;
    q.block_scales = scales;
    q.block_size = block_size;
    return q;
  };
  Graph qwen;
  const int32_t in = qwen.Tensor(kF32, {1, 1, 1024});
  const int32_t weights = qwen.Constant(TensorType::kInt4, {1024, 1024}, blockwise(3, 32));
  const int32_t out = qwen.Tensor(kF32, {1, 1, 1024});
  qwen.Constant(kF16, {1024, 32});
  qwen.Op("FULLY_CONNECTED", {{in, weights}, {out}});
  EXPECT_EQ(qwen.Verdict(), "");
  EXPECT_EQ(qwen.Verdict({{"enable_latest_operators", "false"}}),
            "unsupported mixed types in FULLY_CONNECTED operator #0");

  Graph block48;
  block48.Op("FULLY_CONNECTED", {{block48.Tensor(kF32, {1, 96}),
                                  block48.Constant(TensorType::kInt4, {8, 96}, blockwise(2, 48))},
                                 {block48.Tensor(kF32, {1, 8})}});
  block48.Constant(kF16, {8, 2});
  EXPECT_EQ(block48.Verdict(), "Blocksize 48 must be multiple of 32 in tensor #1 in node #0");

  Graph no_scales;
  no_scales.Op("FULLY_CONNECTED",
               {{no_scales.Tensor(kF32, {1, 64}),
                 no_scales.Constant(TensorType::kInt4, {8, 64}, blockwise(-1, 32))},
                {no_scales.Tensor(kF32, {1, 8})}});
  EXPECT_EQ(no_scales.Verdict(), "missing scale quantization parameters in tensor #1 in node #0");
}

TEST(XnnpackRulesTest, DepthToSpaceAndSpaceToDepthNodes) {
  Graph ok;
  ok.Op("DEPTH_TO_SPACE", {{ok.Tensor(kF32, {1, 2, 2, 8})}, {ok.Tensor(kF32, {1, 4, 4, 2})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph width;
  width.Op("SPACE_TO_DEPTH",
           {{width.Tensor(kF32, {1, 4, 5, 1})}, {width.Tensor(kF32, {1, 2, 2, 4})}});
  // Upstream passes (width, block size, node) to "node #%d ... width (%d) ... block_size (%d)".
  EXPECT_EQ(width.Verdict(),
            "SPACE_TO_DEPTH node #5 input width (2) must be divisible by block_size (0).");
}

TEST(XnnpackRulesTest, ExpandDimsNodeIsNeverTaken) {
  Graph g;
  g.Op("EXPAND_DIMS", {{g.Tensor(kF32, {4}), g.Constant(kI32, {1})}, {g.Tensor(kF32, {1, 4})}});
  EXPECT_EQ(g.Verdict(), "EXPAND_DIMS node #0: VisitExpandDimsNode refuses every node");
}

TEST(XnnpackRulesTest, ReduceNode) {
  // reduce_tester: static int32 axes.
  Graph ok;
  ok.Op("MEAN",
        {{ok.Tensor(kF32, {1, 4, 4, 3}), ok.Constant(kI32, {2})}, {ok.Tensor(kF32, {1, 3})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph dynamic;
  dynamic.Op("SUM", {{dynamic.Tensor(kF32, {1, 4}), dynamic.Tensor(kI32, {1})},
                     {dynamic.Tensor(kF32, {1})}});
  EXPECT_EQ(
      dynamic.Verdict(),
      "invalid allocation type in tensor #1 in SUM node #0: expected static read-only tensor");

  Graph int64;
  int64.Op("MEAN",
           {{int64.Tensor(kF32, {1, 4}), int64.Constant(kI64, {1})}, {int64.Tensor(kF32, {1})}});
  EXPECT_EQ(int64.Verdict(), "CheckTensorType: unsupported type INT64 in tensor #1 in node #0");
}

TEST(XnnpackRulesTest, PadNode) {
  Graph ok;
  ok.Op("PAD", {{ok.Tensor(kF32, {1, 4, 4, 3}), ok.Constant(kI32, {4, 2})},
                {ok.Tensor(kF32, {1, 6, 6, 3})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph rows;
  rows.Op("PAD", {{rows.Tensor(kF32, {1, 4, 4, 3}), rows.Constant(kI32, {3, 2})},
                  {rows.Tensor(kF32, {1, 6, 6, 3})}});
  EXPECT_EQ(rows.Verdict(),
            "unexpected number of rows (2) in padding tensor #1 in node #0: 4 rows expected");

  Graph dynamic;
  dynamic.Op("PAD", {{dynamic.Tensor(kF32, {4}), dynamic.Tensor(kI32, {1, 2})},
                     {dynamic.Tensor(kF32, {6})}});
  EXPECT_EQ(
      dynamic.Verdict(),
      "invalid allocation type in tensor #1 in PAD node #0: expected static read-only tensor");

  // pad_test.cc pads with non-negative values. VisitPadNode reads the first two rows only (it
  // loops over the paddings tensor's rank) and prints the pre-padding for a bad post-padding.
  const auto pad = [](std::vector<int64_t> paddings) {
    Graph g;
    g.Op("PAD", {{g.Tensor(kF32, {1, 4, 4, 3}), g.Values(kI32, {4, 2}, std::move(paddings))},
                 {g.Tensor(kF32, {1, 6, 6, 3})}});
    return g.Verdict();
  };
  EXPECT_EQ(pad({0, 0, 1, 1, 1, 1, 0, 0}), "");
  EXPECT_EQ(pad({0, 0, -1, 1, 1, 1, 0, 0}), "invalid pre-padding -1 for dimension #1 in node 0");
  EXPECT_EQ(pad({2, -1, 0, 0, 0, 0, 0, 0}), "invalid post-padding 2 for dimension #0 in node 0");
  EXPECT_EQ(pad({0, 0, 0, 0, -1, 1, 0, -1}), "");
}

TEST(XnnpackRulesTest, ReshapeNode) {
  Graph ok;
  ok.Op("RESHAPE", {{ok.Tensor(kF32, {2, 6}), ok.Constant(kI32, {2})}, {ok.Tensor(kF32, {3, 4})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph dynamic;
  dynamic.Op("RESHAPE", {{dynamic.Tensor(kF32, {2, 6}), dynamic.Tensor(kI32, {2})},
                         {dynamic.Tensor(kF32, {3, 4})}});
  EXPECT_EQ(dynamic.Verdict(),
            "invalid allocation type in tensor #1 in RESHAPE node #0: expected static read-only "
            "tensor");

  Graph scale;
  scale.Op("RESHAPE", {{scale.Tensor(kI8, {2, 6}, PerTensor(0.5f, 0))},
                       {scale.Tensor(kI8, {3, 4}, PerTensor(0.25f, 0))}});
  EXPECT_EQ(scale.Verdict(),
            "Mismatching quantization scale across the input (0.500000) and the output (0.250000) "
            "for RESHAPE operator #0");
}

TEST(XnnpackRulesTest, ResizeBilinearNode) {
  Graph ok;
  ok.Op("RESIZE_BILINEAR",
        {{ok.Tensor(kF32, {1, 4, 4, 3}), ok.Constant(kI32, {2})}, {ok.Tensor(kF32, {1, 8, 8, 3})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph shape;
  shape.Op("RESIZE_BILINEAR", {{shape.Tensor(kF32, {1, 4, 4, 3}), shape.Constant(kI32, {1, 2})},
                               {shape.Tensor(kF32, {1, 8, 8, 3})}});
  EXPECT_EQ(shape.Verdict(),
            "unexpected number of shape dimensions (2) in shape tensor #1 in RESIZE_BILINEAR node "
            "#0: expected a 1D tensor");

  // Only the output height is checked (the loop runs over the size tensor's rank, 1).
  const auto resize = [](std::vector<int64_t> size) {
    Graph g;
    g.Op("RESIZE_BILINEAR", {{g.Tensor(kF32, {1, 4, 4, 3}), g.Values(kI32, {2}, std::move(size))},
                             {g.Tensor(kF32, {1, 8, 8, 3})}});
    return g.Verdict();
  };
  EXPECT_EQ(resize({8, 8}), "");
  EXPECT_EQ(resize({0, 8}), "invalid output dimension #0 value 0 in node 0");
  EXPECT_EQ(resize({8, -1}), "");
}

TEST(XnnpackRulesTest, SliceAndStridedSliceNodes) {
  Graph ok;
  ok.Op("SLICE", {{ok.Tensor(kF32, {4, 4}), ok.Constant(kI64, {2}), ok.Constant(kI64, {2})},
                  {ok.Tensor(kF32, {2, 2})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph begin;
  begin.Op("SLICE",
           {{begin.Tensor(kF32, {4, 4}), begin.Tensor(kI32, {2}), begin.Constant(kI32, {2})},
            {begin.Tensor(kF32, {2, 2})}});
  EXPECT_EQ(begin.Verdict(),
            "invalid allocation type in tensor #1 in SLICE node #0: expected static read-only "
            "tensor");

  Graph strided;
  strided.Op("STRIDED_SLICE", {{strided.Tensor(kF32, {4, 4}), strided.Constant(kI32, {2}),
                                strided.Constant(kI32, {2}), strided.Constant(kI32, {2})},
                               {strided.Tensor(kF32, {2, 2})}});
  EXPECT_EQ(strided.Verdict(), "");

  Graph shrink;
  shrink
      .Op("STRIDED_SLICE", {{shrink.Tensor(kF32, {4, 4}), shrink.Constant(kI32, {2}),
                             shrink.Constant(kI32, {2}), shrink.Constant(kI32, {2})},
                            {shrink.Tensor(kF32, {2})}})
      .options.Mutable()
      .shrink_axis_mask = 1;
  EXPECT_EQ(shrink.Verdict(),
            "STRIDED_SLICE node #0: ellipsis, new axis and shrink axis masks are not supported");

  Graph rank;
  rank.Op("STRIDED_SLICE", {{rank.Tensor(kF32, {4, 4, 4}), rank.Constant(kI32, {2}),
                             rank.Constant(kI32, {2}), rank.Constant(kI32, {2})},
                            {rank.Tensor(kF32, {2, 2, 4})}});
  EXPECT_EQ(rank.Verdict(),
            "begin_tensor shape (2) must be equal to input shape (3) in STRIDED_SLICE node #0");
}

TEST(XnnpackRulesTest, SliceValues) {
  // slice_test.cc: non-negative begins, positive sizes (int32 and int64). A negative begin is
  // only logged; a size that is not positive refuses the node.
  const auto slice = [](TensorType type, std::vector<int64_t> begin, std::vector<int64_t> size) {
    Graph g;
    g.Op("SLICE", {{g.Tensor(kF32, {4, 4}), g.Values(type, {2}, std::move(begin)),
                    g.Values(type, {2}, std::move(size))},
                   {g.Tensor(kF32, {2, 2})}});
    return g.Verdict();
  };
  EXPECT_EQ(slice(kI32, {1, 2}, {2, 2}), "");
  EXPECT_EQ(slice(kI64, {-1, 0}, {2, 2}), "");
  EXPECT_EQ(slice(kI64, {0, 0}, {2, 0}), "size 0 must be positive in SLICE node #0");
  EXPECT_EQ(slice(kI32, {0, 0}, {-1, 2}), "size -1 must be positive in SLICE node #0");
}

TEST(XnnpackRulesTest, StridedSliceValues) {
  // strided_slice_test.cc: strides of 1, crops within the input, masks and offset.
  struct Case {
    std::vector<int64_t> begin, end, strides;
    int32_t begin_mask = 0, end_mask = 0;
    bool offset = false;
  };
  const auto strided = [](Case c) {
    Graph g;
    Node& node =
        g.Op("STRIDED_SLICE", {{g.Tensor(kF32, {2, 8}), g.Values(kI32, {2}, c.begin),
                                g.Values(kI32, {2}, c.end), g.Values(kI32, {2}, c.strides)},
                               {g.Tensor(kF32, {1, 4})}});
    node.options.Mutable().begin_mask = c.begin_mask;
    node.options.Mutable().end_mask = c.end_mask;
    node.options.Mutable().offset = c.offset;
    return g.Verdict();
  };
  EXPECT_EQ(strided({{1, 2}, {2, 6}, {1, 1}}), "");
  EXPECT_EQ(strided({{-1, 0}, {0, -2}, {1, 1}}), "");
  EXPECT_EQ(strided({{5, 0}, {1, 4}, {1, 1}, /*begin_mask=*/1}), "");
  EXPECT_EQ(strided({{1, 4}, {1, 4}, {1, 1}, 0, 0, /*offset=*/true}), "");
  EXPECT_EQ(strided({{0, 0}, {1, 8}, {1, 2}}),
            "stride at dimension 1, 2, must be 1in STRIDED_SLICE node #0");
  EXPECT_EQ(strided({{0, 2}, {1, 9}, {1, 1}}),
            "offset 2 + size 7 exceeds extent 8 in STRIDED_SLICE node #0 for dimension 1");
  EXPECT_EQ(strided({{0, 6}, {1, 4}, {1, 1}, 0, 0, /*offset=*/true}),
            "offset 6 + size 4 exceeds extent 8 in STRIDED_SLICE node #0 for dimension 1");

  // The shape message prints the tensor's first value where it knows it.
  Graph rank;
  rank.Op("STRIDED_SLICE", {{rank.Tensor(kF32, {4, 4, 4}), rank.Values(kI32, {2}, {3, 0}),
                             rank.Values(kI32, {2}, {4, 4}), rank.Values(kI32, {2}, {1, 1})},
                            {rank.Tensor(kF32, {1, 4, 4})}});
  EXPECT_EQ(rank.Verdict(),
            "begin_tensor shape (3) must be equal to input shape (3) in STRIDED_SLICE node #0");
}

TEST(XnnpackRulesTest, SoftmaxNode) {
  Graph ok;
  ok.Op("SOFTMAX", {{ok.Tensor(kF32, {2, 8})}, {ok.Tensor(kF32, {2, 8})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph beta;
  beta.Op("SOFTMAX", {{beta.Tensor(kF32, {2, 8})}, {beta.Tensor(kF32, {2, 8})}})
      .options.Mutable()
      .beta = 2;
  EXPECT_EQ(beta.Verdict(), "unsupported beta value 2.0000000 in SOFTMAX node #0");
}

TEST(XnnpackRulesTest, SplitNode) {
  // split tests: 2 to 4 outputs along a static axis.
  Graph ok;
  ok.Op("SPLIT", {{ok.Constant(kI32, {}), ok.Tensor(kF32, {4, 8})},
                  {ok.Tensor(kF32, {4, 4}), ok.Tensor(kF32, {4, 4})}})
      .options.Mutable()
      .num_splits = 2;
  EXPECT_EQ(ok.Verdict(), "");

  Graph five;
  std::vector<int32_t> outputs;
  const int32_t axis = five.Constant(kI32, {});
  const int32_t input = five.Tensor(kF32, {5, 2});
  for (int i = 0; i < 5; ++i) outputs.push_back(five.Tensor(kF32, {1, 2}));
  five.Op("SPLIT", {{axis, input}, outputs}).options.Mutable().num_splits = 5;
  EXPECT_EQ(five.Verdict(), "unexpected number of outputs (5) in SPLIT node #0");
}

TEST(XnnpackRulesTest, TransposeNode) {
  Graph ok;
  ok.Op("TRANSPOSE",
        {{ok.Tensor(kF32, {2, 3}), ok.Constant(kI32, {2})}, {ok.Tensor(kF32, {3, 2})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph perm;
  perm.Op("TRANSPOSE",
          {{perm.Tensor(kF32, {2, 3}), perm.Tensor(kI32, {2})}, {perm.Tensor(kF32, {3, 2})}});
  EXPECT_EQ(perm.Verdict(),
            "invalid allocation type in tensor #1 in TRANSPOSE node #0: expected static read-only "
            "tensor");
}

TEST(XnnpackRulesTest, VariableNodesJoinWithTheirVarHandle) {
  // variable_ops tests: VAR_HANDLE, ASSIGN_VARIABLE of a float value, READ_VARIABLE.
  Graph g;
  const int32_t resource = g.Tensor(TensorType::kResource, {});
  g.Op("VAR_HANDLE", {{}, {resource}});
  g.Op("ASSIGN_VARIABLE", {{resource, g.Tensor(kF32, {2, 3})}, {}});
  g.Op("READ_VARIABLE", {{resource}, {g.Tensor(kF32, {2, 3})}});
  EXPECT_EQ(g.Verdicts(), (std::vector<std::string>{"", "", ""}));

  Graph no_handle;
  const int32_t outside = no_handle.Tensor(TensorType::kResource, {});
  no_handle.Op("READ_VARIABLE", {{outside}, {no_handle.Tensor(kF32, {2, 3})}});
  EXPECT_EQ(no_handle.Verdict(),
            "READ_VARIABLE node #0: resource tensor #0 has no VAR_HANDLE before it");

  Graph mismatch;
  const int32_t var = mismatch.Tensor(TensorType::kResource, {});
  mismatch.Op("VAR_HANDLE", {{}, {var}});
  mismatch.Op("ASSIGN_VARIABLE", {{var, mismatch.Tensor(kF32, {2, 3})}, {}});
  mismatch.Op("READ_VARIABLE", {{var}, {mismatch.Tensor(kF32, {3, 2})}});
  EXPECT_EQ(mismatch.Verdict(),
            "READ_VARIABLE node #2: tensor #2 differs in type or shape from the variable's value "
            "tensor #1");

  Graph alone;
  alone.Op("VAR_HANDLE", {{}, {alone.Tensor(TensorType::kResource, {})}});
  EXPECT_EQ(
      alone.Verdict(),
      "VAR_HANDLE node #0: taken only with a READ_VARIABLE or ASSIGN_VARIABLE of its resource");
}

TEST(XnnpackRulesTest, MediaPipeCustomOps) {
  Graph ok;
  ok.Custom(
      "Convolution2DTransposeBias",
      {{ok.Tensor(kF32, {1, 4, 4, 2}), ok.Constant(kF32, {4, 3, 3, 2}), ok.Constant(kF32, {4})},
       {ok.Tensor(kF32, {1, 8, 8, 4})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph dynamic;
  dynamic.Custom("Convolution2DTransposeBias",
                 {{dynamic.Tensor(kF32, {1, 4, 4, 2}), dynamic.Tensor(kF32, {4, 3, 3, 2}),
                   dynamic.Constant(kF32, {4})},
                  {dynamic.Tensor(kF32, {1, 8, 8, 4})}});
  EXPECT_EQ(dynamic.Verdict(),
            "invalid allocation type in tensor #1 in CUSTOM node #0: expected static read-only "
            "tensor");

  Graph pooling;
  pooling.Custom("MaxPoolingWithArgmax2D",
                 {{pooling.Tensor(kF32, {1, 4, 4, 2})},
                  {pooling.Tensor(kF32, {1, 2, 2, 2}), pooling.Tensor(kF32, {1, 2, 2, 2})}});
  EXPECT_EQ(pooling.Verdict(), "");

  Graph unpooling;
  unpooling.Custom("MaxUnpooling2D",
                   {{unpooling.Tensor(kF32, {1, 2, 2, 2}), unpooling.Tensor(kF32, {1, 2, 2})},
                    {unpooling.Tensor(kF32, {1, 4, 4, 2})}});
  EXPECT_EQ(unpooling.Verdict(),
            "unsupported number of shape dimensions (3) in tensor #1 in CUSTOM node #0: 4 "
            "dimensions expected");
}

TEST(XnnpackRulesTest, ScaledDotAttentionCustomOp) {
  // odml_sdpa_test.cc: query, key, value [B, T, N, H] and a mask.
  Graph ok;
  ok.Custom("odml.scaled_dot_product_attention",
            {{ok.Tensor(kF32, {1, 8, 4, 16}), ok.Tensor(kF32, {1, 8, 4, 16}),
              ok.Tensor(kF32, {1, 8, 4, 16}), ok.Tensor(kF32, {1, 1, 8, 8})},
             {ok.Tensor(kF32, {1, 8, 4, 16})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph heads;
  heads.Custom("odml.scaled_dot_product_attention",
               {{heads.Tensor(kF32, {1, 8, 4, 16}), heads.Tensor(kF32, {1, 8, 4, 8}),
                 heads.Tensor(kF32, {1, 8, 4, 16})},
                {heads.Tensor(kF32, {1, 8, 4, 16})}});
  EXPECT_EQ(heads.Verdict(), "odml.scaled_dot_product_attention node #0: head dimensions differ");
}

// A STABLEHLO_COMPOSITE node named `name` whose decomposition is subgraph 1.
Node& Composite(Graph& g, const std::string& name, testing::RuleTestGraph::Io io) {
  Node& node = g.Op("STABLEHLO_COMPOSITE", std::move(io));
  node.builtin_code = 206;
  node.options.Mutable().composite_name = name;
  node.options.Mutable().subgraph = 1;
  return node;
}

TEST(XnnpackRulesTest, ScaledDotAttentionComposite) {
  // odml_sdpa_test.cc, model odml_sdpa_composite_gqa: query [1, 1, 32, 4], key and value
  // [1, 64, 4, 4], mask [1, 1, 1, 64], as the composite's inputs 0..3.
  const std::string sdpa = "odml.scaled_dot_product_attention";
  Graph ok;
  Composite(ok, sdpa,
            {{ok.Tensor(kF32, {1, 1, 32, 4}), ok.Tensor(kF32, {1, 64, 4, 4}),
              ok.Tensor(kF32, {1, 64, 4, 4}), ok.Tensor(kF32, {1, 1, 1, 64})},
             {ok.Tensor(kF32, {1, 1, 32, 4})}});
  EXPECT_EQ(ok.Verdict(), "");

  Graph int8;
  Composite(int8, sdpa,
            {{int8.Tensor(kF32, {1, 1, 32, 4}), int8.Tensor(kI8, {1, 64, 4, 4}, PerTensor(0.5f, 0)),
              int8.Tensor(kF32, {1, 64, 4, 4}), int8.Tensor(kF32, {1, 1, 1, 64})},
             {int8.Tensor(kF32, {1, 1, 32, 4})}});
  EXPECT_EQ(int8.Verdict(), "CheckTensorType: unsupported type INT8 in tensor #1 in node #0");

  Graph fp16_mask;
  Composite(fp16_mask, sdpa,
            {{fp16_mask.Tensor(kF32, {1, 1, 32, 4}), fp16_mask.Tensor(kF32, {1, 64, 4, 4}),
              fp16_mask.Tensor(kF32, {1, 64, 4, 4}), fp16_mask.Tensor(kF16, {1, 1, 1, 64})},
             {fp16_mask.Tensor(kF32, {1, 1, 32, 4})}});
  EXPECT_EQ(fp16_mask.Verdict(),
            "CheckTensorType: unsupported type FLOAT16 in tensor #3 in node #0");

  Graph mask;
  Composite(mask, sdpa,
            {{mask.Tensor(kF32, {1, 1, 32, 4}), mask.Tensor(kF32, {1, 64, 4, 4}),
              mask.Tensor(kF32, {1, 64, 4, 4}), mask.Tensor(kF32, {1, 1, 1, 32})},
             {mask.Tensor(kF32, {1, 1, 32, 4})}});
  EXPECT_EQ(mask.Verdict(),
            "odml.scaled_dot_product_attention node #0: mask and sequence lengths differ");

  // Rank 4 (query, key, value) is checked only when the XNNPACK subgraph is built, after the
  // node was chosen (TF_LITE_ENSURE_EQ inside `subgraph != nullptr`): the choice takes it.
  Graph rank3;
  Composite(rank3, sdpa,
            {{rank3.Tensor(kF32, {1, 32, 4}), rank3.Tensor(kF32, {64, 4, 4}),
              rank3.Tensor(kF32, {64, 4, 4})},
             {rank3.Tensor(kF32, {1, 32, 4})}});
  EXPECT_EQ(rank3.Verdict(), "");

  // VisitNode has a visit for no other composite.
  Graph other;
  Composite(other, "odml.rms_norm",
            {{other.Tensor(kF32, {1, 2, 3, 4}), other.Constant(kF32, {4})},
             {other.Tensor(kF32, {1, 2, 3, 4})}});
  EXPECT_EQ(other.Verdict(),
            "unsupported stablehlo.composite operator type \"odml.rms_norm\" in node #0");
}

TEST(XnnpackRulesTest, OpsWithoutAVisitAreUnsupportedOperatorTypes) {
  Graph builtin;
  builtin.Op("GATHER", {{builtin.Tensor(kF32, {4}), builtin.Constant(kI32, {1})},
                        {builtin.Tensor(kF32, {1})}});
  EXPECT_EQ(builtin.Verdict(), "unsupported operator type GATHER in node #0");

  Graph custom;
  custom.Custom("Landmarks2TransformMatrix",
                {{custom.Tensor(kF32, {4})}, {custom.Tensor(kF32, {4})}});
  EXPECT_EQ(custom.Verdict(),
            "unsupported custom operator type \"Landmarks2TransformMatrix\" in node #0");
}

}  // namespace
}  // namespace tfa
