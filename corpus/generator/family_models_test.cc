// The family miniatures survive the .tflite round trip with the options their kernels read, and
// their shapes are consistent.
#include "corpus/generator/family_models.h"

#include <gtest/gtest.h>

#include "corpus/generator/shape_check.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"

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
  EXPECT_TRUE(matmul->options.adj_y);
  for (const char* op : {"SOFTMAX", "MEAN", "RSQRT", "GELU", "FULLY_CONNECTED"})
    EXPECT_NE(FindNode(model, op), nullptr) << op;
}

TEST(FamilyModelsTest, UnetTransposeConvHasItsBias) {
  const Model model = RoundTrip(UnetTransposeConvFloat());
  const Node* up = FindNode(model, "TRANSPOSE_CONV");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->inputs.size(), 4u);
  EXPECT_EQ(up->options.stride_h, 2);
  EXPECT_EQ(up->options.padding, Padding::kSame);
}

TEST(FamilyModelsTest, Conv3DKeepsStridesAndActivation) {
  const Model model = RoundTrip(Conv3DFloat());
  const Node* conv = FindNode(model, "CONV_3D");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->options.stride_d, 1);
  EXPECT_EQ(conv->options.stride_h, 2);
  EXPECT_EQ(conv->options.fused_activation, Activation::kRelu);
  EXPECT_NE(FindNode(model, "CONV_3D_TRANSPOSE"), nullptr);
}

TEST(FamilyModelsTest, LstmHasTwentyFourInputsAndVariableStates) {
  const Model model = RoundTrip(LstmFloat());
  const Node* lstm = FindNode(model, "UNIDIRECTIONAL_SEQUENCE_LSTM");
  ASSERT_NE(lstm, nullptr);
  ASSERT_EQ(lstm->inputs.size(), 24u);
  EXPECT_EQ(lstm->options.fused_activation, Activation::kTanh);
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

}  // namespace
}  // namespace tfa
