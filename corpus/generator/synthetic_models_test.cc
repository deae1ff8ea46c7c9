// The catalogue's models: consistent shapes, the byte sizes the loader computes, and the
// quantization, control-flow and variable structure each model exists to cover.
#include "corpus/generator/synthetic_models.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "corpus/generator/shape_check.h"
#include "libanalysis/model/model_loader.h"

namespace tfa {
namespace {

Model Load(const std::string& name) {
  auto built = BuildSyntheticModel(name);
  EXPECT_TRUE(built.ok()) << built.status().message();
  if (!built.ok()) return {};
  auto parsed = ParseTflite(WriteTflite(built->model, built->data), name + ".tflite");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  if (!parsed.ok()) return {};
  return std::move(*parsed);
}

const Tensor& Named(const Subgraph& sg, const std::string& name) {
  for (const Tensor& t : sg.tensors) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return sg.tensors.at(0);
}

const Node& OnlyNode(const Subgraph& sg, const std::string& op, int occurrence = 0) {
  for (const Node& n : sg.nodes) {
    if (n.op == op && occurrence-- == 0) return n;
  }
  ADD_FAILURE() << "no node " << op;
  return sg.nodes.at(0);
}

TEST(SyntheticModels, NamesAreUniqueAndEachBuildsWithConsistentShapes) {
  const std::vector<std::string> names = SyntheticModelNames();
  EXPECT_EQ(names.size(), 25u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string& name : names) {
    auto built = BuildSyntheticModel(name);
    ASSERT_TRUE(built.ok()) << name;
    EXPECT_EQ(built->model.path, name + ".tflite");
    const Status shapes = CheckShapes(built->model);
    EXPECT_TRUE(shapes.ok()) << name << ": " << shapes.message();
    EXPECT_EQ(built->model.metadata_names, std::vector<std::string>{"min_runtime_version"});
    ASSERT_EQ(built->model.signatures.size(), 1u);
    EXPECT_EQ(built->model.signatures[0].key, "serving_default");
  }
}

TEST(SyntheticModels, UnknownNameIsAnError) {
  auto built = BuildSyntheticModel("no_such_model");
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().message(), "no synthetic model named \"no_such_model\"");
}

TEST(SyntheticModels, BuildingTwiceGivesTheSameBytes) {
  for (const std::string& name : SyntheticModelNames()) {
    auto a = BuildSyntheticModel(name);
    auto b = BuildSyntheticModel(name);
    EXPECT_EQ(WriteTflite(a->model, a->data), WriteTflite(b->model, b->data)) << name;
  }
}

TEST(SyntheticModels, FloatWeightsAreFiniteAndSmall) {
  for (const std::string& name : SyntheticModelNames()) {
    auto built = BuildSyntheticModel(name);
    for (const Subgraph& sg : built->model.subgraphs) {
      for (const Tensor& t : sg.tensors) {
        if (!t.is_constant() || t.type != TensorType::kFloat32) continue;
        const std::vector<uint8_t>& bytes = built->data.buffers.at(t.buffer);
        std::vector<float> values(bytes.size() / 4);
        std::memcpy(values.data(), bytes.data(), values.size() * 4);
        for (float v : values) {
          ASSERT_TRUE(std::isfinite(v) && std::fabs(v) <= 4.0f)
              << name << " " << t.name << " " << v;
        }
      }
    }
  }
}

TEST(SyntheticModels, ChainFloatByteSizes) {
  const Model m = Load("chain_float");
  const Subgraph& sg = m.subgraphs[0];
  EXPECT_EQ(Named(sg, "input").bytes, 16u * 16 * 3 * 4);
  EXPECT_EQ(Named(sg, "conv1").bytes, 16u * 16 * 8 * 4);
  EXPECT_EQ(Named(sg, "dw1").shape, (std::vector<int32_t>{1, 8, 8, 8}));
  EXPECT_EQ(Named(sg, "pool1").bytes, 4u * 4 * 8 * 4);
  EXPECT_EQ(Named(sg, "flatten").shape, (std::vector<int32_t>{1, 128}));
  EXPECT_EQ(Named(sg, "conv1/weights").constant_bytes, 8u * 3 * 3 * 3 * 4);
  EXPECT_EQ(Named(sg, "conv1/weights").allocation, AllocationType::kMmapRo);
  EXPECT_EQ(Named(sg, "logits/weights").constant_bytes, 10u * 128 * 4);
  EXPECT_EQ(Named(sg, "probs").bytes, 40u);
  // conv1 864 + 32, dw1 288 + 32, flatten shape 8, logits 5120 + 40.
  EXPECT_EQ(m.constant_bytes, 864u + 32 + 288 + 32 + 8 + 5120 + 40);
  EXPECT_EQ(OnlyNode(sg, "RESHAPE").options->new_shape, (std::vector<int32_t>{1, 128}));
  EXPECT_EQ(OnlyNode(sg, "MAX_POOL_2D").options->padding, Padding::kValid);
  EXPECT_EQ(OnlyNode(sg, "DEPTHWISE_CONV_2D").options->fused_activation, Activation::kRelu6);
}

TEST(SyntheticModels, Int8PerChannelQuantization) {
  const Model m = Load("int8_per_channel");
  const Subgraph& sg = m.subgraphs[0];
  EXPECT_EQ(sg.nodes.front().op, "QUANTIZE");
  EXPECT_EQ(sg.nodes.back().op, "DEQUANTIZE");
  EXPECT_EQ(sg.nodes.back().version, 2);
  EXPECT_EQ(Named(sg, "input").type, TensorType::kFloat32);
  EXPECT_EQ(Named(sg, "probs").type, TensorType::kFloat32);
  EXPECT_EQ(Named(sg, "input_int8").bytes, 16u * 16 * 3);

  const Tensor& in = Named(sg, "input_int8");
  const Tensor& w = Named(sg, "conv1/weights");
  const Tensor& bias = Named(sg, "conv1/bias");
  EXPECT_EQ(w.type, TensorType::kInt8);
  EXPECT_EQ(w.constant_bytes, 8u * 3 * 3 * 3);
  ASSERT_EQ(w.quantization->scale.size(), 8u);
  EXPECT_EQ(w.quantization->quantized_dimension, 0);
  EXPECT_EQ(w.quantization->zero_point, std::vector<int64_t>(8, 0));
  EXPECT_NE(w.quantization->scale[0], w.quantization->scale[1]);
  EXPECT_EQ(bias.type, TensorType::kInt32);
  EXPECT_EQ(bias.constant_bytes, 32u);
  ASSERT_EQ(bias.quantization->scale.size(), 8u);
  for (size_t c = 0; c < 8; ++c) {
    EXPECT_FLOAT_EQ(bias.quantization->scale[c],
                    in.quantization->scale[0] * w.quantization->scale[c]);
  }
  EXPECT_EQ(Named(sg, "dw1/weights").quantization->quantized_dimension, 3);
  EXPECT_EQ(Named(sg, "logits/weights").quantization->scale.size(), 4u);
  EXPECT_EQ(Named(sg, "conv1").type, TensorType::kInt8);
  EXPECT_EQ(Named(sg, "conv1").bytes, 8u * 8 * 8);
  EXPECT_EQ(Named(sg, "concat").shape, (std::vector<int32_t>{1, 8, 8, 16}));
  // RELU6 output range [0, 6]: zero point at the bottom of int8.
  EXPECT_EQ(Named(sg, "conv1").quantization->zero_point, std::vector<int64_t>{-128});
  EXPECT_EQ(Named(sg, "probs_int8").quantization->zero_point, std::vector<int64_t>{-128});
  EXPECT_FLOAT_EQ(Named(sg, "probs_int8").quantization->scale[0], 1.0f / 256);
  EXPECT_EQ(OnlyNode(sg, "CONV_2D").version, 3);
  EXPECT_EQ(OnlyNode(sg, "DEPTHWISE_CONV_2D").version, 3);
  EXPECT_EQ(OnlyNode(sg, "FULLY_CONNECTED").version, 4);
  EXPECT_EQ(OnlyNode(sg, "SOFTMAX").version, 2);
}

TEST(SyntheticModels, UInt8PerTensorQuantization) {
  const Model m = Load("uint8_per_tensor");
  const Subgraph& sg = m.subgraphs[0];
  EXPECT_EQ(Named(sg, "input").type, TensorType::kUInt8);
  EXPECT_EQ(Named(sg, "input").quantization->zero_point, std::vector<int64_t>{0});
  const Tensor& w = Named(sg, "dw1/weights");
  EXPECT_EQ(w.type, TensorType::kUInt8);
  EXPECT_EQ(w.shape, (std::vector<int32_t>{1, 3, 3, 16}));
  EXPECT_EQ(w.quantization->scale.size(), 1u);
  EXPECT_EQ(w.quantization->zero_point, std::vector<int64_t>{128});
  EXPECT_EQ(Named(sg, "dw1/bias").quantization->scale.size(), 1u);
  EXPECT_EQ(Named(sg, "probs").type, TensorType::kUInt8);
  EXPECT_EQ(Named(sg, "probs").bytes, 5u);
  for (const Node& n : sg.nodes) EXPECT_EQ(n.version, 1) << n.op;
}

TEST(SyntheticModels, Float16WeightsGoThroughConstantDequantize) {
  const Model m = Load("fp16_weights");
  const Subgraph& sg = m.subgraphs[0];
  int dequantize = 0;
  for (const Node& n : sg.nodes) {
    if (n.op != "DEQUANTIZE") continue;
    ++dequantize;
    EXPECT_EQ(n.version, 3);
    const Tensor& in = sg.tensors[static_cast<size_t>(n.inputs[0])];
    const Tensor& out = sg.tensors[static_cast<size_t>(n.outputs[0])];
    EXPECT_EQ(in.type, TensorType::kFloat16);
    EXPECT_TRUE(in.is_constant());
    EXPECT_EQ(in.constant_bytes * 2, *out.bytes);
    EXPECT_EQ(out.allocation, AllocationType::kArenaRw);
  }
  EXPECT_EQ(dequantize, 8);  // weights and bias of four layers
  EXPECT_EQ(Named(sg, "conv1/weights").constant_bytes, 8u * 3 * 3 * 3 * 2);
}

TEST(SyntheticModels, DynamicBatchSignatures) {
  const Model m = Load("dynamic_batch");
  const Subgraph& sg = m.subgraphs[0];
  EXPECT_EQ(Named(sg, "input").shape_signature, (std::vector<int32_t>{-1, 16}));
  EXPECT_EQ(Named(sg, "input").bytes, 64u);  // sized for the batch of 1 the shape gives
  EXPECT_EQ(Named(sg, "fc1").shape_signature, (std::vector<int32_t>{-1, 32}));
  EXPECT_EQ(Named(sg, "reshape").shape, (std::vector<int32_t>{1, 2, 4}));
  EXPECT_EQ(Named(sg, "reshape").shape_signature, (std::vector<int32_t>{-1, 2, 4}));
  EXPECT_TRUE(Named(sg, "softmax").has_dynamic_shape());
  EXPECT_FALSE(Named(sg, "fc1/weights").has_dynamic_shape());
}

TEST(SyntheticModels, WhileLoopSubgraphs) {
  const Model m = Load("while_loop");
  ASSERT_EQ(m.subgraphs.size(), 3u);
  const Node& loop = m.subgraphs[0].nodes[0];
  EXPECT_EQ(loop.op, "WHILE");
  EXPECT_EQ(loop.options->cond_subgraph, 1);
  EXPECT_EQ(loop.options->body_subgraph, 2);
  EXPECT_TRUE(loop.side_effect);
  EXPECT_EQ(m.subgraphs[1].name, "while_cond");
  EXPECT_EQ(m.subgraphs[1].tensors[static_cast<size_t>(m.subgraphs[1].outputs[0])].type,
            TensorType::kBool);
  EXPECT_EQ(m.subgraphs[2].inputs.size(), 2u);
  EXPECT_EQ(m.subgraphs[2].outputs.size(), 2u);
}

TEST(SyntheticModels, IfBranches) {
  const Model m = Load("if_two_branches");
  ASSERT_EQ(m.subgraphs.size(), 3u);
  const Node& branch = m.subgraphs[0].nodes[0];
  EXPECT_EQ(branch.op, "IF");
  EXPECT_EQ(branch.options->then_subgraph, 1);
  EXPECT_EQ(branch.options->else_subgraph, 2);
  EXPECT_EQ(m.subgraphs[1].nodes[0].op, "ADD");
  EXPECT_EQ(m.subgraphs[2].nodes[0].op, "MUL");
}

TEST(SyntheticModels, CallOnceAndResourceVariables) {
  const Model m = Load("call_once_variables");
  ASSERT_EQ(m.subgraphs.size(), 2u);
  const Subgraph& main = m.subgraphs[0];
  EXPECT_EQ(main.nodes[0].op, "CALL_ONCE");
  EXPECT_EQ(main.nodes[0].options->init_subgraph, 1);
  const Tensor& handle = Named(main, "accumulator");
  EXPECT_EQ(handle.type, TensorType::kResource);
  EXPECT_EQ(handle.allocation, AllocationType::kDynamic);
  EXPECT_FALSE(handle.bytes.has_value());
  for (const Node& n : main.nodes) {
    EXPECT_EQ(n.side_effect, n.op != "ADD") << n.op;
  }
  EXPECT_EQ(m.subgraphs[1].nodes[1].op, "ASSIGN_VARIABLE");
  EXPECT_EQ(Named(m.subgraphs[1], "initial_value").constant_bytes, 16u);
}

TEST(SyntheticModels, StatefulVariableIsPersistent) {
  const Model m = Load("stateful_variable");
  const Subgraph& sg = m.subgraphs[0];
  EXPECT_EQ(sg.variables, std::vector<int32_t>{1});
  EXPECT_EQ(sg.tensors[1].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(sg.tensors[1].bytes, 32u);
}

TEST(SyntheticModels, BranchesFanOutAndIn) {
  const Model m = Load("branches_float");
  const Subgraph& sg = m.subgraphs[0];
  int readers_of_input = 0;
  for (const Node& n : sg.nodes) {
    for (int32_t t : n.inputs) readers_of_input += t == sg.inputs[0];
  }
  EXPECT_EQ(readers_of_input, 4);
  EXPECT_EQ(OnlyNode(sg, "CONCATENATION").inputs.size(), 4u);
  EXPECT_EQ(Named(sg, "concat").shape, (std::vector<int32_t>{1, 16, 16, 28}));
  EXPECT_EQ(sg.outputs.size(), 2u);
}

}  // namespace
}  // namespace tfa
