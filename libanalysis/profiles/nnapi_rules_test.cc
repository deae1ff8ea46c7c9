// The nnapi profile's rule (NNAPIDelegateKernel::Validate) and its node choice (DoPrepare), on
// the conditions of upstream's NNAPI delegate tests (google-ai-edge/LiteRT
// tflite/delegates/nnapi/nnapi_delegate_test.cc, nnapi_delegate_device_selection_test.cc:
// float ADD / CONV_2D models at a given SDK level, fp16 weights through DEQUANTIZE, the
// partition limit) and the failing branches of Validate, with upstream's failure messages.
#include "libanalysis/profiles/nnapi_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"

namespace tfa {
namespace {

constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kF16 = TensorType::kFloat16;
constexpr TensorType kI32 = TensorType::kInt32;

using Options = std::vector<std::pair<std::string, std::string>>;

class Graph {
 public:
  int32_t Tensor(TensorType type, std::vector<int32_t> shape) {
    tfa::Tensor t;
    t.type = type;
    t.shape = std::move(shape);
    subgraph_.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph_.tensors.size() - 1);
  }
  int32_t Constant(TensorType type, std::vector<int32_t> shape) {
    const int32_t id = Tensor(type, std::move(shape));
    subgraph_.tensors.back().allocation = AllocationType::kMmapRo;
    subgraph_.tensors.back().constant_bytes = 4;
    return id;
  }
  // A node's tensors in one braced list: its elements are evaluated in order, so tensors made
  // inside it are numbered as written (a call's separate arguments are not).
  struct Io {
    std::vector<int32_t> inputs;
    std::vector<int32_t> outputs;
  };
  Node& Op(const std::string& op, Io io) {
    Node node;
    node.op = op;
    node.inputs = std::move(io.inputs);
    node.outputs = std::move(io.outputs);
    subgraph_.nodes.push_back(std::move(node));
    subgraph_.execution_plan.push_back(static_cast<int32_t>(subgraph_.nodes.size() - 1));
    return subgraph_.nodes.back();
  }
  // ADD of two fresh float32 tensors (FloatAddOpModel).
  Node& Add() {
    return Op("ADD", {{Tensor(kF32, {1, 2, 2, 1}), Tensor(kF32, {1, 2, 2, 1})},
                      {Tensor(kF32, {1, 2, 2, 1})}});
  }

  DelegateSelection Select(const Options& options = {}) const {
    auto profile = ResolveDelegateProfile("nnapi");
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    for (const auto& [key, value] : options) {
      const Status set = profile->SetOption(key, value);
      EXPECT_TRUE(set.ok()) << set.message();
    }
    auto selection = SelectDelegateNodes(subgraph_, *profile);
    EXPECT_TRUE(selection.ok()) << selection.status().message();
    return *selection;
  }
  // The last node's verdict: "" when supported, else the reason.
  std::string Verdict(const Options& options = {}) const {
    const DelegateSelection selection = Select(options);
    const NodeSupport& verdict = selection.verdicts.back();
    return verdict.supported ? "" : verdict.reason;
  }

 private:
  Subgraph subgraph_;
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
      .options.fused_activation = Activation::kRelu;
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
  conv.options.dilation_w = 2;
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
