// The nnapi profile's rule (NNAPIDelegateKernel::Validate) and its node choice (DoPrepare), on
// the conditions of upstream's NNAPI delegate tests (google-ai-edge/LiteRT
// tflite/delegates/nnapi/nnapi_delegate_test.cc, nnapi_delegate_device_selection_test.cc:
// float ADD / CONV_2D models at a given SDK level, fp16 weights through DEQUANTIZE, the
// partition limit) and the failing branches of Validate, with upstream's failure messages.
#include "libanalysis/profiles/nnapi_rules.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kF16 = TensorType::kFloat16;
constexpr TensorType kI32 = TensorType::kInt32;
constexpr TensorType kI64 = TensorType::kInt64;
constexpr TensorType kI16 = TensorType::kInt16;
constexpr TensorType kI8 = TensorType::kInt8;
constexpr TensorType kU8 = TensorType::kUInt8;
constexpr TensorType kBool = TensorType::kBool;

Quantization PerTensor(float scale, int64_t zero_point) { return {{scale}, {zero_point}, 0}; }

using Options = testing::RuleOptions;

// The nnapi profile's selection and verdicts on a graph built node by node.
class Graph : public testing::RuleTestGraph {
 public:
  // ADD of two fresh float32 tensors (FloatAddOpModel).
  Node& Add() {
    return Op("ADD", {{Tensor(kF32, {1, 2, 2, 1}), Tensor(kF32, {1, 2, 2, 1})},
                      {Tensor(kF32, {1, 2, 2, 1})}});
  }
  DelegateSelection Select(const Options& options = {}) const {
    return RuleTestGraph::Select("nnapi", options);
  }
  // The last node's verdict: "" when supported, else the reason.
  std::string Verdict(const Options& options = {}) const {
    const DelegateSelection selection = Select(options);
    const NodeSupport& verdict = selection.verdicts.back();
    return verdict.supported ? "" : verdict.reason;
  }
};

TEST(NnapiRulesTest, AddByLevelAndType) {
  Graph g;
  g.Add();
  EXPECT_EQ(g.Verdict(), "");
  EXPECT_EQ(g.Verdict({{"android_sdk_version", "27"}}), "");

  Graph version;
  version.Add().version = 3;
  EXPECT_EQ(version.Verdict(), "OP Version higher than 2");

  // Int32 ADD from NNAPI 1.3 on, without a fused activation.
  Graph int32;
  int32.Op("ADD", {{int32.Tensor(kI32, {4}), int32.Tensor(kI32, {4})}, {int32.Tensor(kI32, {4})}})
      .options.Mutable()
      .fused_activation = Activation::kRelu;
  EXPECT_EQ(int32.Verdict(), "No activation function supported");
  EXPECT_EQ(int32.Verdict({{"android_sdk_version", "29"}}), "Input should be Float or Quant8");
}

TEST(NnapiRulesTest, MulVersionDependsOnTargetingAccelerators) {
  Graph g;
  g.Op("MUL", {{g.Tensor(kF32, {4}), g.Tensor(kF32, {4})}, {g.Tensor(kF32, {4})}}).version = 3;
  EXPECT_EQ(g.Verdict(), "");
  EXPECT_EQ(g.Verdict({{"disallow_nnapi_cpu", "false"}}), "OP Version higher than 2");
  EXPECT_EQ(g.Verdict({{"android_sdk_version", "28"}}), "OP Version higher than 2");
}

TEST(NnapiRulesTest, Conv2dTakesComputedWeightsButNeedsBias) {
  // NNAPI maps a CONV_2D with non-constant weights too; Validate does not ask for constants.
  Graph dynamic;
  dynamic.Op("CONV_2D", {{dynamic.Tensor(kF32, {1, 8, 8, 3}), dynamic.Tensor(kF32, {4, 3, 3, 3}),
                          dynamic.Tensor(kF32, {4})},
                         {dynamic.Tensor(kF32, {1, 8, 8, 4})}});
  EXPECT_EQ(dynamic.Verdict(), "");

  Graph no_bias;
  no_bias.Op("CONV_2D", {{no_bias.Tensor(kF32, {1, 8, 8, 3}), no_bias.Constant(kF32, {4, 3, 3, 3})},
                         {no_bias.Tensor(kF32, {1, 8, 8, 4})}});
  EXPECT_EQ(no_bias.Verdict(), "Conv2D with omitted bias not supported");

  Graph dilated;
  Node& conv =
      dilated.Op("CONV_2D", {{dilated.Tensor(kF32, {1, 8, 8, 3}),
                              dilated.Constant(kF32, {4, 3, 3, 3}), dilated.Constant(kF32, {4})},
                             {dilated.Tensor(kF32, {1, 8, 8, 4})}});
  conv.options.Mutable().dilation_w = 2;
  EXPECT_EQ(dilated.Verdict(), "");
  EXPECT_EQ(dilated.Verdict({{"android_sdk_version", "28"}}),
            "NNAPI supports dilated Conv2D since NNAPI 1.2.");
}

TEST(NnapiRulesTest, FailuresAreCollectedInValidateOrder) {
  Graph g;
  g.Op("DIV", {{g.Tensor(kI32, {4}), g.Tensor(kI32, {4})}, {g.Tensor(kI32, {4})}});
  EXPECT_EQ(g.Verdict({{"android_sdk_version", "27"}}),
            "Android sdk version less than 28; NNAPI only support float div.");
}

TEST(NnapiRulesTest, SoftmaxRankBeforeLevel29) {
  Graph g;
  g.Op("SOFTMAX", {{g.Tensor(kF32, {1, 2, 8})}, {g.Tensor(kF32, {1, 2, 8})}});
  EXPECT_EQ(g.Verdict(), "");
  EXPECT_EQ(g.Verdict({{"android_sdk_version", "28"}}),
            "Before API level 29 only 2D and 4D input tensors were supported.");
}

TEST(NnapiRulesTest, DequantizeOfComputedFp16FromLevel30) {
  Graph g;
  g.Op("DEQUANTIZE", {{g.Tensor(kF16, {4})}, {g.Tensor(kF32, {4})}});
  EXPECT_EQ(g.Verdict(), "");
  EXPECT_EQ(g.Verdict({{"android_sdk_version", "29"}}),
            "Input type not in expected list kTfLiteUInt8, kTfLiteInt8");
}

TEST(NnapiRulesTest, Fp16WeightsAreRemappedAndTheModelDelegatedWhole) {
  // A float model with fp16 weights: CONV_2D reads its filter through a constant fp16
  // DEQUANTIZE. DoPrepare switches to GetSupportedOpsWithFp16WeightRemapping: the DEQUANTIZE is
  // held back, CONV_2D is asked with the fp16 constant as its filter, and as every other node is
  // supported the whole plan is delegated.
  Graph g;
  const int32_t fp16_filter = g.Constant(kF16, {4, 3, 3, 3});
  const int32_t filter = g.Tensor(kF32, {4, 3, 3, 3});
  g.Op("DEQUANTIZE", {{fp16_filter}, {filter}});
  g.Op("CONV_2D", {{g.Tensor(kF32, {1, 8, 8, 3}), filter, g.Constant(kF32, {4})},
                   {g.Tensor(kF32, {1, 8, 8, 4})}});
  const DelegateSelection selection = g.Select();
  EXPECT_TRUE(selection.verdicts[0].fp16_dequantize_held_back);
  EXPECT_TRUE(selection.verdicts[1].supported);
  EXPECT_TRUE(selection.selection.full_delegation);
  EXPECT_EQ(selection.selection.nodes_to_replace, (std::vector<int32_t>{0, 1}));
  ASSERT_EQ(selection.selection.input_remaps.size(), 1u);
  EXPECT_EQ(selection.selection.input_remaps[0].to_tensor, fp16_filter);
}

// One Validate branch: the node `build` adds last, the options, and the verdict ("" = taken).
struct ValidateCase {
  std::string name;
  std::function<void(Graph&)> build;
  Options options;
  std::string expected;
};

// A node of `op` from `in` to `out`, of one type and shape each (the one-op models of
// nnapi_delegate_test.cc).
std::function<void(Graph&)> Unary(const std::string& op, TensorType in, TensorType out,
                                  std::vector<int32_t> shape = {1, 2, 2, 1}) {
  return [=](Graph& g) { g.Op(op, {{g.Tensor(in, shape)}, {g.Tensor(out, shape)}}); };
}
std::function<void(Graph&)> Binary(const std::string& op, TensorType type,
                                   std::vector<int32_t> shape = {1, 2, 2, 1}) {
  return [=](Graph& g) {
    g.Op(op, {{g.Tensor(type, shape), g.Tensor(type, shape)}, {g.Tensor(type, shape)}});
  };
}

void ExpectVerdicts(const std::vector<ValidateCase>& cases) {
  for (const ValidateCase& c : cases) {
    Graph g;
    c.build(g);
    EXPECT_EQ(g.Verdict(c.options), c.expected) << c.name;
  }
}

const Options kLevel27 = {{"android_sdk_version", "27"}};
const Options kLevel28 = {{"android_sdk_version", "28"}};
const Options kLevel29 = {{"android_sdk_version", "29"}};

TEST(NnapiRulesTest, PoolingConvolutionAndFullyConnectedBranches) {
  ExpectVerdicts({
      {"quantized average pool, large window, CPU allowed",
       [](Graph& g) {
         Node& n = g.Op("AVERAGE_POOL_2D", {{g.Tensor(kU8, {1, 32, 32, 1}, PerTensor(0.5f, 0))},
                                            {g.Tensor(kU8, {1, 2, 2, 1}, PerTensor(0.5f, 0))}});
         n.options.Mutable().filter_w = n.options.Mutable().filter_h = 17;
       },
       {{"disallow_nnapi_cpu", "false"}},
       "Large filter window would overflow on the reference CPU path"},
      {"quantized average pool, large window, accelerators only",
       [](Graph& g) {
         Node& n = g.Op("AVERAGE_POOL_2D", {{g.Tensor(kU8, {1, 32, 32, 1}, PerTensor(0.5f, 0))},
                                            {g.Tensor(kU8, {1, 2, 2, 1}, PerTensor(0.5f, 0))}});
         n.options.Mutable().filter_w = n.options.Mutable().filter_h = 17;
       },
       {},
       ""},
      {"int32 max pool", Unary("MAX_POOL_2D", kI32, kI32), {}, "Input should be Float or Quant8"},
      {"l2 pool with relu before 1.2",
       [](Graph& g) {
         g.Op("L2_POOL_2D", {{g.Tensor(kF32, {1, 2, 2, 1})}, {g.Tensor(kF32, {1, 1, 1, 1})}})
             .options.Mutable()
             .fused_activation = Activation::kRelu;
       },
       kLevel28, "Before NNAPI 1.2 fused activation for l2_pool may not be supported."},
      {"l2 pool version 2",
       [](Graph& g) {
         g.Op("L2_POOL_2D", {{g.Tensor(kF32, {1, 2, 2, 1})}, {g.Tensor(kF32, {1, 1, 1, 1})}})
             .version = 2;
       },
       {},
       "OP Version different from 1"},
      {"dilated depthwise before 1.2",
       [](Graph& g) {
         g.Op("DEPTHWISE_CONV_2D", {{g.Tensor(kF32, {1, 8, 8, 4}), g.Constant(kF32, {1, 3, 3, 4}),
                                     g.Constant(kF32, {4})},
                                    {g.Tensor(kF32, {1, 8, 8, 4})}})
             .options.Mutable()
             .dilation_w = 2;
       },
       kLevel28, "dilation_width_factor and dilation_height_factor expected to be equal to 1"},
      {"hybrid fully connected before 1.2",
       [](Graph& g) {
         g.Op("FULLY_CONNECTED",
              {{g.Tensor(kF32, {1, 8}), g.Constant(kU8, {4, 8}, PerTensor(0.5f, 0)),
                g.Constant(kF32, {4})},
               {g.Tensor(kF32, {1, 4})}});
       },
       kLevel28, "Hybrid operators not supported before NNAPI 1.2"},
      {"fully connected int16 output",
       [](Graph& g) {
         g.Op("FULLY_CONNECTED",
              {{g.Tensor(kF32, {1, 8}), g.Constant(kF32, {4, 8})}, {g.Tensor(kI16, {1, 4})}});
       },
       {},
       "Unsupported output of type kTfLiteInt16"},
      {"fully connected keep_num_dims before 1.3",
       [](Graph& g) {
         g.Op("FULLY_CONNECTED",
              {{g.Tensor(kF32, {1, 8}), g.Constant(kF32, {4, 8})}, {g.Tensor(kF32, {1, 4})}})
             .options.Mutable()
             .keep_num_dims = true;
       },
       kLevel29, "Android sdk version less than 30"},
      {"int32 hard swish", Unary("HARD_SWISH", kI32, kI32), {}, "Input should be Float or Quant8"},
  });
}

TEST(NnapiRulesTest, ShapeAndLayoutBranches) {
  ExpectVerdicts({
      {"reshape with computed shape",
       [](Graph& g) {
         g.Op("RESHAPE", {{g.Tensor(kF32, {2, 6}), g.Tensor(kI32, {2})}, {g.Tensor(kF32, {3, 4})}});
       },
       {},
       "The shape input tensor must be constant."},
      {"reshape without a new shape",
       [](Graph& g) {
         g.Op("RESHAPE", {{g.Tensor(kF32, {2, 6})}, {g.Tensor(kF32, {3, 4})}});
       },
       {},
       "New shape rank should be > 0"},
      {"3-D resize bilinear",
       [](Graph& g) {
         g.Op("RESIZE_BILINEAR",
              {{g.Tensor(kF32, {4, 4, 3}), g.Constant(kI32, {2})}, {g.Tensor(kF32, {8, 8, 3})}});
       },
       {},
       "Input should have rank 4"},
      {"resize bilinear align_corners at 1.2",
       [](Graph& g) {
         g.Op("RESIZE_BILINEAR", {{g.Tensor(kF32, {1, 4, 4, 3}), g.Constant(kI32, {2})},
                                  {g.Tensor(kF32, {1, 8, 8, 3})}})
             .options.Mutable()
             .align_corners = true;
       },
       kLevel29, "NNAPI does not support align_corners == true."},
      {"resize bilinear to a non-square output before 1.2",
       [](Graph& g) {
         g.Op("RESIZE_BILINEAR", {{g.Tensor(kF32, {1, 4, 4, 3}), g.Constant(kI32, {2})},
                                  {g.Tensor(kF32, {1, 8, 4, 3})}});
       },
       kLevel28, "Require width == height due to driver differences in NNAPI < 1.2"},
      {"resize nearest neighbor before 1.2",
       [](Graph& g) {
         g.Op("RESIZE_NEAREST_NEIGHBOR", {{g.Tensor(kF32, {1, 4, 4, 3}), g.Constant(kI32, {2})},
                                          {g.Tensor(kF32, {1, 8, 8, 3})}});
       },
       kLevel28, "Android sdk version less than 29"},
      {"squeeze without dims at 1.1", Unary("SQUEEZE", kF32, kF32), kLevel28,
       "NNAPI 1.1 does not support null squeeze_dims properly."},
      {"squeeze at 1.0", Unary("SQUEEZE", kF32, kF32), kLevel27,
       "Android sdk version less than 28"},
      {"5-D concatenation",
       [](Graph& g) {
         g.Op("CONCATENATION", {{g.Tensor(kF32, {1, 1, 1, 1, 2}), g.Tensor(kF32, {1, 1, 1, 1, 2})},
                                {g.Tensor(kF32, {1, 1, 1, 1, 4})}});
       },
       {},
       "Input rank should be less than 4"},
      {"int32 concatenation with relu",
       [](Graph& g) {
         g.Op("CONCATENATION", {{g.Tensor(kI32, {2}), g.Tensor(kI32, {2})}, {g.Tensor(kI32, {4})}})
             .options.Mutable()
             .fused_activation = Activation::kRelu;
       },
       {},
       "No activation function supported; Input type not in expected list kTfLiteFloat16, "
       "kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8"},
      {"uint8 concatenation of two scales before 1.2",
       [](Graph& g) {
         g.Op("CONCATENATION",
              {{g.Tensor(kU8, {2}, PerTensor(0.5f, 0)), g.Tensor(kU8, {2}, PerTensor(0.25f, 0))},
               {g.Tensor(kU8, {4}, PerTensor(0.5f, 0))}});
       },
       kLevel28,
       "NNAPI 1.0-1 only supported concatenating quantized tensor of the same scale and offset."},
      {"pad of an empty tensor",
       [](Graph& g) {
         g.Op("PAD", {{g.Tensor(kF32, {1, 0, 2, 1}), g.Constant(kI32, {4, 2})},
                      {g.Tensor(kF32, {1, 2, 4, 1})}});
       },
       {},
       "NN API pad ops do not support input tensors with no elements"},
      {"padv2 with a value before 1.2",
       [](Graph& g) {
         g.Op("PADV2",
              {{g.Tensor(kF32, {1, 2, 2, 1}), g.Constant(kI32, {4, 2}), g.Constant(kF32, {})},
               {g.Tensor(kF32, {1, 4, 4, 1})}});
       },
       kLevel28, "Specification of the padding value is supported from NNAPI 1.2."},
      {"uint8 pad before 1.2",
       [](Graph& g) {
         g.Op("PAD", {{g.Tensor(kU8, {1, 2, 2, 1}, PerTensor(0.5f, 0)), g.Constant(kI32, {4, 2})},
                      {g.Tensor(kU8, {1, 4, 4, 1}, PerTensor(0.5f, 0))}});
       },
       kLevel28, "Only Float32 inputs are supported before NNAPI 1.2"},
      {"space to batch at 1.0",
       [](Graph& g) {
         g.Op("SPACE_TO_BATCH_ND",
              {{g.Tensor(kF32, {1, 4, 4, 1}), g.Constant(kI32, {2}), g.Constant(kI32, {2, 2})},
               {g.Tensor(kF32, {4, 2, 2, 1})}});
       },
       kLevel27, "Android sdk version less than 28"},
      {"strided slice at 1.0",
       [](Graph& g) {
         g.Op("STRIDED_SLICE", {{g.Tensor(kF32, {4}), g.Constant(kI32, {1}), g.Constant(kI32, {1}),
                                 g.Constant(kI32, {1})},
                                {g.Tensor(kF32, {2})}});
       },
       kLevel27, "Android sdk version less than 28"},
      {"transpose by a computed permutation",
       [](Graph& g) {
         g.Op("TRANSPOSE",
              {{g.Tensor(kF32, {2, 3}), g.Tensor(kI32, {2})}, {g.Tensor(kF32, {3, 2})}});
       },
       {},
       "Dynamically-sized tensors not supported."},
      {"slice with int64 begin",
       [](Graph& g) {
         g.Op("SLICE", {{g.Tensor(kF32, {4}), g.Constant(kI64, {1}), g.Constant(kI32, {1})},
                        {g.Tensor(kF32, {2})}});
       },
       {},
       "Begin type should be Int32"},
      {"transpose conv to a computed shape",
       [](Graph& g) {
         g.Op("TRANSPOSE_CONV",
              {{g.Tensor(kI32, {4}), g.Constant(kF32, {1, 3, 3, 1}), g.Tensor(kF32, {1, 4, 4, 1})},
               {g.Tensor(kF32, {1, 8, 8, 1})}});
       },
       {},
       "Dynamically-sized tensors not supported."},
      {"int32 space to depth",
       Unary("SPACE_TO_DEPTH", kI32, kI32),
       {},
       "Input type not in expected list kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8"},
      {"int32 depth to space",
       Unary("DEPTH_TO_SPACE", kI32, kI32),
       {},
       "Input type not in expected list kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8"},
      {"tile by int64 multipliers",
       [](Graph& g) {
         g.Op("TILE", {{g.Tensor(kF32, {2}), g.Constant(kI64, {1})}, {g.Tensor(kF32, {4})}});
       },
       {},
       "Multipliers should be Int32"},
      {"gather at scalar positions",
       [](Graph& g) {
         g.Op("GATHER", {{g.Tensor(kF32, {4}), g.Tensor(kI32, {})}, {g.Tensor(kF32, {})}});
       },
       {},
       "0-dimension args are not supported by NNAPI."},
      {"expand dims along a computed axis",
       [](Graph& g) {
         g.Op("EXPAND_DIMS", {{g.Tensor(kF32, {4}), g.Tensor(kI32, {})}, {g.Tensor(kF32, {1, 4})}});
       },
       {},
       "NNAPI only supports constant int32 axis tensor."},
      {"int8 split at 1.2",
       [](Graph& g) {
         g.Op("SPLIT",
              {{g.Constant(kI32, {}), g.Tensor(kI8, {4}, PerTensor(0.5f, 0))},
               {g.Tensor(kI8, {2}, PerTensor(0.5f, 0)), g.Tensor(kI8, {2}, PerTensor(0.5f, 0))}});
       },
       kLevel29, "Input type not in expected list kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt32"},
      {"split along a computed axis",
       [](Graph& g) {
         g.Op("SPLIT", {{g.Tensor(kI32, {}), g.Tensor(kF32, {4})},
                        {g.Tensor(kF32, {2}), g.Tensor(kF32, {2})}});
       },
       {},
       "NNAPI only supports constant int32 axis tensor."},
      {"split_v by computed sizes",
       [](Graph& g) {
         g.Op("SPLIT_V", {{g.Tensor(kF32, {4}), g.Tensor(kI32, {2}), g.Constant(kI32, {})},
                          {g.Tensor(kF32, {1}), g.Tensor(kF32, {3})}});
       },
       {},
       "NNAPI only supports constant int32 size_splits vector."},
      {"pack along the last dimension",
       [](Graph& g) {
         g.Op("PACK", {{g.Tensor(kF32, {2}), g.Tensor(kF32, {2})}, {g.Tensor(kF32, {2, 2})}})
             .options.Mutable()
             .axis = 1;
       },
       {},
       "NNAPI does not support axis being the last dimension"},
      {"fill of computed dims",
       [](Graph& g) {
         g.Op("FILL", {{g.Tensor(kI32, {2}), g.Constant(kF32, {})}, {g.Tensor(kF32, {2, 2})}});
       },
       {},
       "NNAPI doesn't support dynamic dimensions tensor."},
      {"fill of a scalar",
       [](Graph& g) {
         g.Op("FILL", {{g.Constant(kI32, {0}), g.Constant(kF32, {})}, {g.Tensor(kF32, {})}});
       },
       {},
       "NNAPI doesn't support generating scalars from FILL"},
  });
}

TEST(NnapiRulesTest, ElementwiseAndReductionBranches) {
  ExpectVerdicts({
      {"arg max to int32",
       [](Graph& g) {
         g.Op("ARG_MAX", {{g.Tensor(kF32, {1, 4}), g.Constant(kI32, {})}, {g.Tensor(kI32, {1})}});
       },
       {},
       ""},
      {"arg max to int64",
       [](Graph& g) {
         g.Op("ARG_MAX", {{g.Tensor(kF32, {1, 4}), g.Constant(kI32, {})}, {g.Tensor(kI64, {1})}});
       },
       {},
       "NNAPI only supports int32 output."},
      {"arg min with an int32 axis value",
       [](Graph& g) {
         g.Op("ARG_MIN",
              {{g.Tensor(kF32, {1, 4}), g.Values(kI64, {}, {1})}, {g.Tensor(kI32, {1})}});
       },
       {},
       ""},
      {"arg min with an axis value past int32",
       [](Graph& g) {
         g.Op("ARG_MIN", {{g.Tensor(kF32, {1, 4}), g.Values(kI64, {}, {int64_t{1} << 40})},
                          {g.Tensor(kI32, {1})}});
       },
       {},
       "NNAPI only supports axis as int32. If the axis type is int64 and constant we can convert "
       "it to int32 if the value isn't too large."},
      {"int32 relu", Unary("RELU", kI32, kI32), {}, "Input should be Float or Quant8"},
      {"uint8 tanh before 1.2", Unary("TANH", kU8, kU8), kLevel28,
       " NNAPI only support float tanh."},
      {"int32 sub at 1.2", Binary("SUB", kI32), kLevel29, "NNAPI only support float sub."},
      {"5-D sub", Binary("SUB", kF32, {1, 1, 1, 1, 2}), {}, "Input rank must be <= 4"},
      {"int32 abs", Unary("ABS", kI32, kI32), {}, "Input should be Float"},
      {"sqrt before 1.2", Unary("SQRT", kF32, kF32), kLevel28, "Android sdk version less than 29"},
      {"mean to a scalar",
       [](Graph& g) {
         g.Op("MEAN", {{g.Tensor(kF32, {4}), g.Constant(kI32, {1})}, {g.Tensor(kF32, {})}});
       },
       {},
       "NNAPI does not support generating a scalar as output for MEAN."},
      {"uint8 mean before 1.2",
       [](Graph& g) {
         g.Op("MEAN", {{g.Tensor(kU8, {2, 4}, PerTensor(0.5f, 0)), g.Constant(kI32, {1})},
                       {g.Tensor(kU8, {2}, PerTensor(0.5f, 0))}});
       },
       kLevel28, "Expected Float32 input"},
      {"maximum with a computed scalar",
       [](Graph& g) {
         g.Op("MAXIMUM", {{g.Tensor(kF32, {4}), g.Tensor(kF32, {})}, {g.Tensor(kF32, {4})}});
       },
       {},
       "Scalar operand should be constant"},
      {"cast to int64",
       Unary("CAST", kF32, kI64),
       {},
       "Output type should be one of kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8, kTfLiteInt8."},
      {"cast from int8 at 1.2", Unary("CAST", kI8, kF32), kLevel29,
       "Input type not in expected list kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8"},
      {"int32 leaky relu",
       Unary("LEAKY_RELU", kI32, kI32),
       {},
       "Input type not in expected list kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8"},
      {"float logical and", Binary("LOGICAL_AND", kF32), {}, "Input should be bool"},
      {"bool logical or", Binary("LOGICAL_OR", kBool), {}, ""},
      {"int64 less",
       Binary("LESS", kI64),
       {},
       "Input type not in expected list kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteBool, "
       "kTfLiteInt32"},
      {"uint8 neg",
       Unary("NEG", kU8, kU8),
       {},
       "Input type not in expected list kTfLiteFloat32, kTfLiteInt32"},
      {"top k of a computed k",
       [](Graph& g) {
         g.Op("TOPK_V2", {{g.Tensor(kF32, {8}), g.Tensor(kI32, {})},
                          {g.Tensor(kF32, {2}), g.Tensor(kI32, {2})}});
       },
       {},
       "K param should be a constant of type Int32"},
      {"select of other shapes",
       [](Graph& g) {
         g.Op("SELECT", {{g.Tensor(kBool, {2}), g.Tensor(kF32, {4}), g.Tensor(kF32, {4})},
                         {g.Tensor(kF32, {4})}});
       },
       {},
       "Condition and inputs tensors should have the same shape"},
      {"uint8 log softmax", Unary("LOG_SOFTMAX", kU8, kU8), {}, "Input should be Float32."},
      {"quantize to int8 at 1.2",
       [](Graph& g) {
         g.Op("QUANTIZE", {{g.Tensor(kF32, {4})}, {g.Tensor(kI8, {4}, PerTensor(0.5f, 0))}});
       },
       kLevel29, "Output should be kTfLiteUInt8."},
      {"quantize without an output scale",
       Unary("QUANTIZE", kF32, kU8),
       {},
       "Quantization scale should be > 0."},
      {"reduce any to a scalar",
       [](Graph& g) {
         g.Op("REDUCE_ANY", {{g.Tensor(kBool, {4}), g.Constant(kI32, {1})}, {g.Tensor(kBool, {})}});
       },
       {},
       "NNAPI does not support generating a scalar as output."},
      {"reduce max of a scalar",
       [](Graph& g) {
         g.Op("REDUCE_MAX", {{g.Tensor(kF32, {}), g.Constant(kI32, {0})}, {g.Tensor(kF32, {})}});
       },
       {},
       "NNAPI does not support generating a scalar as output."},
      {"uint8 sum",
       [](Graph& g) {
         g.Op("SUM", {{g.Tensor(kU8, {2, 4}, PerTensor(0.5f, 0)), g.Constant(kI32, {1})},
                      {g.Tensor(kU8, {2}, PerTensor(0.5f, 0))}});
       },
       {},
       "NNAPI only supports floating point input."},
      {"elu at 1.2", Unary("ELU", kF32, kF32), kLevel29, "Android sdk version less than 30"},
      {"uint8 squared difference before 1.2", Binary("SQUARED_DIFFERENCE", kU8), kLevel28,
       "Input type not in expected list kTfLiteFloat32"},
      {"5-D squared difference",
       Binary("SQUARED_DIFFERENCE", kF32, {1, 1, 1, 1, 2}),
       {},
       "NNAPI does not support input rank greater than 4"},
      {"dequantize version 3",
       [](Graph& g) {
         g.Op("DEQUANTIZE", {{g.Tensor(kU8, {4}, PerTensor(0.5f, 0))}, {g.Tensor(kF32, {4})}})
             .version = 3;
       },
       {},
       "Supported op versions are 1 and 2 only"},
      {"asymmetric int8 dequantize at 1.2",
       [](Graph& g) {
         g.Op("DEQUANTIZE", {{g.Tensor(kI8, {4}, PerTensor(0.5f, 1))}, {g.Tensor(kF32, {4})}});
       },
       kLevel29,
       "NN API supports int8 type since version 1.2 but only for symmetric quantization."},
      {"densify of a constant",
       [](Graph& g) {
         g.Op("DENSIFY", {{g.SparseConstant(kF32, {4, 4})}, {g.Tensor(kF32, {4, 4})}});
       },
       {},
       ""},
      {"densify of a constant before 1.3",
       [](Graph& g) {
         g.Op("DENSIFY", {{g.SparseConstant(kF32, {4, 4})}, {g.Tensor(kF32, {4, 4})}});
       },
       kLevel29, "DENSIFY: refused below level 30 or of computed data"},
      {"an op Validate does not know",
       Unary("GELU", kF32, kF32),
       {},
       "Unsupported operation type."},
  });
}

TEST(NnapiRulesTest, RecurrentBranches) {
  // The LSTM kernels: 24 full inputs (float weights) or the basic 5-input kernel (uint8 only).
  const auto lstm = [](TensorType weights, int inputs) {
    return [=](Graph& g) {
      std::vector<int32_t> in;
      for (int k = 0; k < inputs; ++k)
        in.push_back(g.Tensor(k == 4 || k == 2 ? weights : kF32, {4}));
      g.Op("LSTM", {in, {g.Tensor(kF32, {4})}});
    };
  };
  const auto hybrid = [](const std::string& op, int inputs) {
    return [=](Graph& g) {
      std::vector<int32_t> in;
      for (int k = 0; k < inputs; ++k) {
        in.push_back(k == 1 || k == 2 ? g.Constant(kU8, {4, 4}, PerTensor(0.5f, 0))
                                      : g.Tensor(kF32, {4}));
      }
      g.Op(op, {in, {g.Tensor(kF32, {4})}});
    };
  };
  ExpectVerdicts({
      {"full float lstm", lstm(kF32, 24), {}, ""},
      {"full int16 lstm", lstm(kI16, 24), {}, "Weight has to be Float32 or UINT8 or INT8"},
      {"20-input lstm at 1.0", lstm(kF32, 20), kLevel27,
       "NNAPI 1.0 has a bug for optional tensors which would affect LSTM."},
      {"hybrid unidirectional sequence lstm",
       hybrid("UNIDIRECTIONAL_SEQUENCE_LSTM", 24),
       {},
       "Hybrid version of this op is not supported by NN API."},
      {"5-input unidirectional sequence lstm",
       hybrid("UNIDIRECTIONAL_SEQUENCE_LSTM", 5),
       {},
       "Hybrid version of this op is not supported by NN API.; Supporting only operation with 20 "
       "or 24 inputs"},
      {"hybrid bidirectional sequence lstm",
       hybrid("BIDIRECTIONAL_SEQUENCE_LSTM", 48),
       {},
       "Hybrid version of this op is not supported by NN API."},
      {"hybrid unidirectional sequence rnn",
       hybrid("UNIDIRECTIONAL_SEQUENCE_RNN", 5),
       {},
       "Hybrid version of this op is not supported by NN API."},
      {"rnn with four inputs",
       [](Graph& g) {
         g.Op("RNN", {{g.Tensor(kF32, {4}), g.Constant(kF32, {4, 4}), g.Constant(kF32, {4, 4}),
                       g.Constant(kF32, {4})},
                      {g.Tensor(kF32, {4})}});
       },
       {},
       "Expected 5 input"},
      {"svdf of uint8 weights",
       hybrid("SVDF", 5),
       {},
       "NNAPI only support float32 weights.; Weights should be Float32"},
      {"embedding lookup of int32 values",
       [](Graph& g) {
         g.Op("EMBEDDING_LOOKUP",
              {{g.Tensor(kI32, {2}), g.Constant(kI32, {4, 4})}, {g.Tensor(kI32, {2, 4})}});
       },
       {},
       "NNAPI only support float32 values."},
      {"hashtable lookup to int32",
       [](Graph& g) {
         g.Op("HASHTABLE_LOOKUP",
              {{g.Tensor(kI32, {2}), g.Constant(kI32, {4}), g.Constant(kI32, {4, 4})},
               {g.Tensor(kI32, {2, 4}), g.Tensor(kU8, {2})}});
       },
       {},
       "NNAPI only support float32 output."},
      {"floor version 2",
       [](Graph& g) {
         g.Op("FLOOR", {{g.Tensor(kF32, {4})}, {g.Tensor(kF32, {4})}}).version = 2;
       },
       {},
       "OP Version different from 1"},
      {"local response normalization version 2",
       [](Graph& g) {
         g.Op("LOCAL_RESPONSE_NORMALIZATION",
              {{g.Tensor(kF32, {1, 2, 2, 4})}, {g.Tensor(kF32, {1, 2, 2, 4})}})
             .version = 2;
       },
       {},
       "OP Version different from 1"},
      {"l2 normalization with relu",
       [](Graph& g) {
         g.Op("L2_NORMALIZATION", {{g.Tensor(kF32, {1, 4})}, {g.Tensor(kF32, {1, 4})}})
             .options.Mutable()
             .fused_activation = Activation::kRelu;
       },
       {},
       "Expected no activation"},
  });
}

TEST(NnapiRulesTest, BatchToSpaceCropsAreReadWhereTheModelHasThem) {
  const auto batch_to_space = [](std::function<int32_t(Graph&)> crops) {
    return [=](Graph& g) {
      const int32_t in = g.Tensor(kF32, {4, 2, 2, 1});
      const int32_t block = g.Constant(kI32, {2});
      g.Op("BATCH_TO_SPACE_ND", {{in, block, crops(g)}, {g.Tensor(kF32, {1, 4, 4, 1})}});
    };
  };
  ExpectVerdicts({
      {"zero crops",
       batch_to_space([](Graph& g) {
         return g.Values(kI32, {2, 2}, {0, 0, 0, 0});
       }),
       {},
       ""},
      {"a non-zero crop",
       batch_to_space([](Graph& g) {
         return g.Values(kI32, {2, 2}, {0, 1, 0, 0});
       }),
       {},
       "All crops should be 0."},
      {"computed crops",
       batch_to_space([](Graph& g) {
         return g.Tensor(kI32, {2, 2});
       }),
       {},
       "All crops should be 0."},
  });
}

// Four delegated RELU partitions in a chain, separated by GELU nodes NNAPI does not map.
Graph FourPartitions() {
  Graph g;
  int32_t x = g.Tensor(kF32, {4});
  for (int p = 0; p < 4; ++p) {
    const int32_t y = g.Tensor(kF32, {4});
    g.Op("RELU", {{x}, {y}});
    x = g.Tensor(kF32, {4});
    if (p < 3) g.Op("GELU", {{y}, {x}});
  }
  return g;
}

TEST(NnapiRulesTest, MaxNumberDelegatedPartitions) {
  const Graph g = FourPartitions();
  // Default max_number_delegated_partitions = 3; 0 keeps every partition
  // (LimitDelegatedPartitions).
  EXPECT_EQ(g.Select().selection.candidate_partitions.size(), 4u);
  EXPECT_EQ(g.Select().selection.nodes_to_replace.size(), 3u);
  EXPECT_EQ(g.Select({{"max_number_delegated_partitions", "0"}}).selection.nodes_to_replace.size(),
            4u);
  EXPECT_EQ(g.Select({{"max_number_delegated_partitions", "1"}}).selection.nodes_to_replace.size(),
            1u);
}

TEST(NnapiRulesTest, OptionsOutOfRangeAreErrors) {
  auto profile = ResolveDelegateProfile("nnapi");
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(profile->SetOption("android_sdk_version", "99").message(),
            "delegate nnapi: option android_sdk_version expects an integer in [27, 35], got '99'");
  EXPECT_EQ(profile->SetOption("android_sdk_version", "30x").message(),
            "delegate nnapi: option android_sdk_version expects an integer in [27, 35], got "
            "'30x'");
  EXPECT_EQ(profile->SetOption("accelerator", "x").message(),
            "delegate nnapi: unknown option 'accelerator' (options: allow_fp16, "
            "android_sdk_version, disallow_nnapi_cpu, max_number_delegated_partitions)");
}

TEST(NnapiRulesTest, CustomOpsAreUnsupportedOperationTypes) {
  Graph g;
  Node& custom = g.Op("MyOp", {{g.Tensor(kF32, {4})}, {g.Tensor(kF32, {4})}});
  custom.kind = NodeKind::kCustom;
  EXPECT_EQ(g.Verdict(), "Unsupported operation type.");
}

}  // namespace
}  // namespace tfa
