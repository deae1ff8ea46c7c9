// The family miniatures survive the .tflite round trip with the options their kernels read, and
// their shapes are consistent.
#include "corpus/generator/family_models.h"

#include <gtest/gtest.h>

#include "corpus/generator/shape_check.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/prepare/detection_postprocess_prepare.h"

namespace tfa {
namespace {

Model RoundTrip(const SyntheticModel& built) {
  EXPECT_TRUE(CheckShapes(built.model).ok()) << built.model.path;
  auto parsed = ParseTflite(WriteTflite(built.model, built.data), built.model.path);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return parsed.ok() ? std::move(*parsed) : Model{};
}

const Node* FindNode(const Model& model, const std::string& op) {
  if (model.subgraphs.empty()) return nullptr;
  for (const Node& node : model.subgraphs[0].nodes) {
    if (node.op == op) return &node;
  }
  return nullptr;
}

TEST(FamilyModelsTest, TransformerBlockKeepsTheTransposedOperand) {
  const Model model = RoundTrip(TransformerBlockFloat());
  const Node* matmul = FindNode(model, "BATCH_MATMUL");
  ASSERT_NE(matmul, nullptr);
  EXPECT_TRUE(matmul->options->adj_y);
  for (const char* op : {"SOFTMAX", "MEAN", "RSQRT", "GELU", "FULLY_CONNECTED"})
    EXPECT_NE(FindNode(model, op), nullptr) << op;
}

TEST(FamilyModelsTest, UnetTransposeConvHasItsBias) {
  const Model model = RoundTrip(UnetTransposeConvFloat());
  const Node* up = FindNode(model, "TRANSPOSE_CONV");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->inputs.size(), 4u);
  EXPECT_EQ(up->options->stride_h, 2);
  EXPECT_EQ(up->options->padding, Padding::kSame);
}

TEST(FamilyModelsTest, Conv3DKeepsStridesAndActivation) {
  const Model model = RoundTrip(Conv3DFloat());
  const Node* conv = FindNode(model, "CONV_3D");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->options->stride_d, 1);
  EXPECT_EQ(conv->options->stride_h, 2);
  EXPECT_EQ(conv->options->fused_activation, Activation::kRelu);
  EXPECT_NE(FindNode(model, "CONV_3D_TRANSPOSE"), nullptr);
}

TEST(FamilyModelsTest, LstmHasTwentyFourInputsAndVariableStates) {
  const Model model = RoundTrip(LstmFloat());
  const Node* lstm = FindNode(model, "UNIDIRECTIONAL_SEQUENCE_LSTM");
  ASSERT_NE(lstm, nullptr);
  ASSERT_EQ(lstm->inputs.size(), 24u);
  EXPECT_EQ(lstm->options->fused_activation, Activation::kTanh);
  const Subgraph& sg = model.subgraphs[0];
  EXPECT_TRUE(sg.tensors[static_cast<size_t>(lstm->inputs[18])].is_variable);
  EXPECT_TRUE(sg.tensors[static_cast<size_t>(lstm->inputs[19])].is_variable);
}

TEST(FamilyModelsTest, AudioRfftProducesComplex64) {
  const Model model = RoundTrip(AudioRfftFloat());
  const Node* rfft = FindNode(model, "RFFT2D");
  ASSERT_NE(rfft, nullptr);
  EXPECT_EQ(model.subgraphs[0].tensors[static_cast<size_t>(rfft->outputs[0])].type,
            TensorType::kComplex64);
}

TEST(FamilyModelsTest, SparseWeightsKeepTheirLedgerSize) {
  const Model model = RoundTrip(SparseHybridFullyConnected());
  const Node* fc = FindNode(model, "FULLY_CONNECTED");
  ASSERT_NE(fc, nullptr);
  const Tensor& weights = model.subgraphs[0].tensors[static_cast<size_t>(fc->inputs[1])];
  EXPECT_TRUE(weights.is_sparse);
  EXPECT_EQ(weights.sparse_ledger_bytes, 12u);  // 4 rows + 8 non-zeros
  EXPECT_EQ(weights.bytes, 8u);                 // the non-zeros, stored compressed
  EXPECT_NE(FindNode(RoundTrip(SparseHybridLstm()), "LSTM"), nullptr);
}

TEST(FamilyModelsTest, Int16x8ModelHasInt16ActivationsAndInt64Biases) {
  const Model model = RoundTrip(Int16x8ConvFullyConnected());
  for (const char* op : {"CONV_2D", "FULLY_CONNECTED"}) {
    const Node* node = FindNode(model, op);
    ASSERT_NE(node, nullptr) << op;
    const auto& tensors = model.subgraphs[0].tensors;
    EXPECT_EQ(tensors[static_cast<size_t>(node->inputs[0])].type, TensorType::kInt16) << op;
    EXPECT_EQ(tensors[static_cast<size_t>(node->inputs[1])].type, TensorType::kInt8) << op;
    EXPECT_EQ(tensors[static_cast<size_t>(node->inputs[2])].type, TensorType::kInt64) << op;
  }
}

TEST(FamilyModelsTest, HybridModelsHaveFloatInputsAndInt8Weights) {
  for (const SyntheticModel& built : {HybridFullyConnectedBatchMatMul(), HybridLstm()}) {
    const Model model = RoundTrip(built);
    for (const Node& node : model.subgraphs[0].nodes) {
      if (node.op == "RESHAPE") continue;
      const auto& tensors = model.subgraphs[0].tensors;
      EXPECT_EQ(tensors[static_cast<size_t>(node.inputs[0])].type, TensorType::kFloat32);
      EXPECT_EQ(tensors[static_cast<size_t>(node.inputs[1])].type, TensorType::kInt8);
    }
  }
}

TEST(FamilyModelsTest, SsdPostProcessKeepsItsFlexbufferOptions) {
  const Model model = RoundTrip(SsdPostProcessFloat());
  const Node* post = FindNode(model, "TFLite_Detection_PostProcess");
  ASSERT_NE(post, nullptr);
  EXPECT_EQ(post->kind, NodeKind::kCustom);
  auto options = ParseDetectionPostProcessOptions(post->options->custom_options);
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->max_detections, 10);
  EXPECT_EQ(options->max_classes_per_detection, 1);
  EXPECT_EQ(options->num_classes, 2);
  EXPECT_EQ(model.subgraphs[0].outputs.size(), 4u);
}

}  // namespace
}  // namespace tfa
