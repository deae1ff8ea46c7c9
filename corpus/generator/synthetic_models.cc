#include "corpus/generator/synthetic_models.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "corpus/generator/family_models.h"
#include "corpus/generator/layers.h"

namespace tfa {
namespace {

constexpr uint64_t kSeed = 20240611;

// input -> CONV_2D -> DEPTHWISE_CONV_2D (stride 2) -> MAX_POOL_2D -> RESHAPE -> FULLY_CONNECTED
// -> SOFTMAX: the classic single-path classifier.
SyntheticModel ChainFloat() {
  ModelBuilder b("chain_float.tflite", "float chain: conv, depthwise, pool, reshape, fc, softmax");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed);
  const int32_t x = l.ActivationTensor("input", {1, 16, 16, 3});
  const int32_t c1 = l.Conv2D(x, 8, 3, 1, Padding::kSame, Activation::kRelu, "conv1");
  const int32_t d1 = l.DepthwiseConv2D(c1, 1, 3, 2, Padding::kSame, Activation::kRelu6, "dw1");
  const int32_t p1 = l.Pool2D("MAX_POOL_2D", d1, 2, 2, Padding::kValid, "pool1");
  const int32_t r = l.Reshape(p1, {1, 128}, "flatten");
  const int32_t fc = l.FullyConnected(r, 10, Activation::kNone, "logits");
  const int32_t out = l.Softmax(fc, 1.0f, "probs");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"probs", out}});
  return std::move(b).Finish();
}

// One tensor read by two branches that meet again, plus a residual edge around both.
SyntheticModel DiamondFloat() {
  ModelBuilder b("diamond_float.tflite", "float diamond: conv -> (relu, logistic) -> mul -> add");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 1);
  const int32_t x = l.ActivationTensor("input", {1, 8, 8, 4});
  const int32_t t = l.Conv2D(x, 8, 1, 1, Padding::kSame, Activation::kNone, "conv");
  const int32_t a = l.Unary("RELU", t, "relu");
  const int32_t g = l.Unary("LOGISTIC", t, "gate");
  const int32_t m = l.Binary("MUL", a, g, Activation::kNone, "gated");
  const int32_t out = l.Binary("ADD", m, t, Activation::kRelu, "residual");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"residual", out}});
  return std::move(b).Finish();
}

// Inception-style fan-out into four branches joined by CONCATENATION; a second graph output
// taps one branch.
SyntheticModel BranchesFloat() {
  ModelBuilder b("branches_float.tflite", "float fan-out/fan-in: four branches, concatenation");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 2);
  const int32_t x = l.ActivationTensor("input", {1, 16, 16, 8});
  const int32_t b1 = l.Conv2D(x, 8, 1, 1, Padding::kSame, Activation::kRelu, "branch1/conv1x1");
  const int32_t b2 = l.Pool2D("AVERAGE_POOL_2D", x, 3, 1, Padding::kSame, "branch2/avgpool");
  const int32_t b3 =
      l.DepthwiseConv2D(x, 1, 3, 1, Padding::kSame, Activation::kRelu6, "branch3/dw3x3");
  const int32_t b4 = l.Conv2D(x, 4, 3, 1, Padding::kSame, Activation::kRelu, "branch4/conv3x3");
  const int32_t cat = l.Concatenation({b1, b2, b3, b4}, 3, "concat");
  const int32_t proj = l.Conv2D(cat, 16, 1, 1, Padding::kSame, Activation::kNone, "project");
  const int32_t tap = l.Unary("TANH", b1, "branch1/tanh");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {proj, tap});
  AddConverterExtras(b, {{"input", x}}, {{"project", proj}, {"tap", tap}});
  return std::move(b).Finish();
}

// WHILE (i < 10) { i += 1; x *= scale }: cond and body subgraphs with the loop state in and out.
SyntheticModel WhileLoop() {
  ModelBuilder b("while_loop.tflite", "WHILE with cond and body subgraphs");
  const int32_t main = b.AddSubgraph("main");
  const int32_t cond = b.AddSubgraph("while_cond");
  const int32_t body = b.AddSubgraph("while_body");

  const int32_t i = b.AddTensor(main, "i", TensorType::kInt32, {1});
  const int32_t x = b.AddTensor(main, "x", TensorType::kFloat32, {1, 4});
  const int32_t i_out = b.AddTensor(main, "while:0", TensorType::kInt32, {1});
  const int32_t x_out = b.AddTensor(main, "while:1", TensorType::kFloat32, {1, 4});
  OpOptions loop;
  loop.cond_subgraph = cond;
  loop.body_subgraph = body;
  b.AddNode(main, "WHILE", {i, x}, {i_out, x_out}, loop);
  b.SetInputs(main, {i, x});
  b.SetOutputs(main, {i_out, x_out});

  const int32_t ci = b.AddTensor(cond, "i", TensorType::kInt32, {1});
  const int32_t cx = b.AddTensor(cond, "x", TensorType::kFloat32, {1, 4});
  const int32_t limit = b.AddConstant(cond, "limit", TensorType::kInt32, {1}, Int32Bytes({10}));
  const int32_t keep_going = b.AddTensor(cond, "less", TensorType::kBool, {1});
  b.AddNode(cond, "LESS", {ci, limit}, {keep_going});
  b.SetInputs(cond, {ci, cx});
  b.SetOutputs(cond, {keep_going});

  const int32_t bi = b.AddTensor(body, "i", TensorType::kInt32, {1});
  const int32_t bx = b.AddTensor(body, "x", TensorType::kFloat32, {1, 4});
  const int32_t one = b.AddConstant(body, "one", TensorType::kInt32, {1}, Int32Bytes({1}));
  const int32_t scale = b.AddConstant(body, "scale", TensorType::kFloat32, {1, 4},
                                      FloatBytes({0.5f, 0.75f, 1.0f, 1.25f}));
  const int32_t bi_next = b.AddTensor(body, "i_next", TensorType::kInt32, {1});
  const int32_t bx_next = b.AddTensor(body, "x_next", TensorType::kFloat32, {1, 4});
  b.AddNode(body, "ADD", {bi, one}, {bi_next});
  b.AddNode(body, "MUL", {bx, scale}, {bx_next});
  b.SetInputs(body, {bi, bx});
  b.SetOutputs(body, {bi_next, bx_next});

  AddConverterExtras(b, {{"i", i}, {"x", x}}, {{"i_out", i_out}, {"x_out", x_out}});
  return std::move(b).Finish();
}

// IF (cond) { x + c } else { x * c }, then TANH in the main graph.
SyntheticModel IfTwoBranches() {
  ModelBuilder b("if_two_branches.tflite", "IF with then and else subgraphs");
  const int32_t main = b.AddSubgraph("main");
  const int32_t then_sg = b.AddSubgraph("then_branch");
  const int32_t else_sg = b.AddSubgraph("else_branch");

  const int32_t c = b.AddTensor(main, "cond", TensorType::kBool, {1});
  const int32_t x = b.AddTensor(main, "x", TensorType::kFloat32, {1, 8});
  const int32_t y = b.AddTensor(main, "if", TensorType::kFloat32, {1, 8});
  const int32_t z = b.AddTensor(main, "tanh", TensorType::kFloat32, {1, 8});
  OpOptions branch;
  branch.then_subgraph = then_sg;
  branch.else_subgraph = else_sg;
  b.AddNode(main, "IF", {c, x}, {y}, branch);
  b.AddNode(main, "TANH", {y}, {z});
  b.SetInputs(main, {c, x});
  b.SetOutputs(main, {z});

  const std::vector<float> constant = {1, -1, 2, -2, 0.5f, -0.5f, 0.25f, -0.25f};
  for (const auto& [sg, op] : {std::pair{then_sg, "ADD"}, std::pair{else_sg, "MUL"}}) {
    const int32_t in = b.AddTensor(sg, "x", TensorType::kFloat32, {1, 8});
    const int32_t k = b.AddConstant(sg, "k", TensorType::kFloat32, {1, 8}, FloatBytes(constant));
    const int32_t out = b.AddTensor(sg, "y", TensorType::kFloat32, {1, 8});
    b.AddNode(sg, op, {in, k}, {out});
    b.SetInputs(sg, {in});
    b.SetOutputs(sg, {out});
  }
  AddConverterExtras(b, {{"cond", c}, {"x", x}}, {{"y", z}});
  return std::move(b).Finish();
}

// A resource variable initialised once by CALL_ONCE, then read, updated and written back on every
// invocation: y = x + v; v = y.
SyntheticModel CallOnceVariables() {
  ModelBuilder b("call_once_variables.tflite", "CALL_ONCE init subgraph and resource variables");
  const int32_t main = b.AddSubgraph("main");
  const int32_t init = b.AddSubgraph("init");
  const std::string variable = "accumulator";

  const int32_t x = b.AddTensor(main, "x", TensorType::kFloat32, {1, 4});
  const int32_t handle = b.AddTensor(main, variable, TensorType::kResource, {});
  const int32_t value = b.AddTensor(main, "read", TensorType::kFloat32, {1, 4});
  const int32_t y = b.AddTensor(main, "y", TensorType::kFloat32, {1, 4});
  OpOptions once;
  once.init_subgraph = init;
  b.AddNode(main, "CALL_ONCE", {}, {}, once);
  b.AddNode(main, "VAR_HANDLE", {}, {handle});
  b.AddNode(main, "READ_VARIABLE", {handle}, {value});
  b.AddNode(main, "ADD", {x, value}, {y});
  b.AddNode(main, "ASSIGN_VARIABLE", {handle, y}, {});
  b.SetInputs(main, {x});
  b.SetOutputs(main, {y});

  const int32_t init_handle = b.AddTensor(init, variable, TensorType::kResource, {});
  const int32_t initial = b.AddConstant(init, "initial_value", TensorType::kFloat32, {1, 4},
                                        FloatBytes({0.0f, 1.0f, 2.0f, 3.0f}));
  b.AddNode(init, "VAR_HANDLE", {}, {init_handle});
  b.AddNode(init, "ASSIGN_VARIABLE", {init_handle, initial}, {});

  AddConverterExtras(b, {{"x", x}}, {{"y", y}});
  return std::move(b).Finish();
}

// A stateful (is_variable) tensor read by a node, as recurrent models keep their state: it lives
// in the persistent arena.
SyntheticModel StatefulVariable() {
  ModelBuilder b("stateful_variable.tflite", "is_variable state tensor");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = b.AddTensor(sg, "x", TensorType::kFloat32, {1, 8});
  const int32_t state = b.AddVariable(sg, "state", TensorType::kFloat32, {1, 8});
  const int32_t sum = b.AddTensor(sg, "sum", TensorType::kFloat32, {1, 8});
  const int32_t out = b.AddTensor(sg, "out", TensorType::kFloat32, {1, 8});
  b.AddNode(sg, "ADD", {x, state}, {sum});
  b.AddNode(sg, "TANH", {sum}, {out});
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"x", x}}, {{"out", out}});
  return std::move(b).Finish();
}

// Batch dimension unknown at conversion time: shape [1, ...] with shape_signature [-1, ...].
SyntheticModel DynamicBatch() {
  ModelBuilder b("dynamic_batch.tflite", "dynamic batch dimension (shape_signature -1)");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 3);
  const int32_t x = l.ActivationTensor("input", {1, 16}, -8.0f, 8.0f, {-1, 16});
  const int32_t fc1 = l.FullyConnected(x, 32, Activation::kRelu, "fc1");
  const int32_t fc2 = l.FullyConnected(fc1, 8, Activation::kNone, "fc2");
  const int32_t r = l.Reshape(fc2, {-1, 2, 4}, "reshape");
  const int32_t out = l.Softmax(r, 1.0f, "softmax");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"softmax", out}});
  return std::move(b).Finish();
}

// Full-integer int8 model with float input and output: QUANTIZE, per-channel int8 conv,
// depthwise and fully connected weights with int32 bias, a residual ADD, a concatenation,
// average pooling, softmax, DEQUANTIZE.
SyntheticModel Int8PerChannel() {
  ModelBuilder b("int8_per_channel.tflite", "int8 per-channel quantized, float boundaries");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kInt8PerChannel, kSeed + 4);
  const int32_t x = b.AddTensor(sg, "input", TensorType::kFloat32, {1, 16, 16, 3});
  const int32_t q = l.Quantize(x, -1.0f, 1.0f, "input_int8");
  const int32_t c1 = l.Conv2D(q, 8, 3, 2, Padding::kSame, Activation::kRelu6, "conv1");
  const int32_t d1 = l.DepthwiseConv2D(c1, 1, 3, 1, Padding::kSame, Activation::kRelu6, "dw1");
  const int32_t p1 = l.Conv2D(d1, 8, 1, 1, Padding::kSame, Activation::kNone, "project1");
  const int32_t res = l.Binary("ADD", p1, c1, Activation::kNone, "residual");
  const int32_t mp = l.Pool2D("MAX_POOL_2D", c1, 3, 1, Padding::kSame, "maxpool");
  const int32_t cat = l.Concatenation({res, mp}, 3, "concat");
  const int32_t gap = l.Pool2D("AVERAGE_POOL_2D", cat, 8, 8, Padding::kValid, "gap");
  const int32_t flat = l.Reshape(gap, {1, 16}, "flatten");
  const int32_t fc = l.FullyConnected(flat, 4, Activation::kNone, "logits");
  const int32_t sm = l.Softmax(fc, 1.0f, "probs_int8");
  const int32_t out = l.Dequantize(sm, "probs");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"probs", out}});
  return std::move(b).Finish();
}

// Older-style uint8 model, per-tensor quantized throughout with uint8 input and output.
SyntheticModel UInt8PerTensor() {
  ModelBuilder b("uint8_per_tensor.tflite", "uint8 per-tensor quantized");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kUInt8PerTensor, kSeed + 5);
  const int32_t x = l.ActivationTensor("input", {1, 16, 16, 3}, 0.0f, 1.0f);
  const int32_t c1 = l.Conv2D(x, 8, 3, 2, Padding::kSame, Activation::kRelu6, "conv1");
  const int32_t d1 = l.DepthwiseConv2D(c1, 2, 3, 1, Padding::kSame, Activation::kRelu, "dw1");
  const int32_t gap = l.Pool2D("AVERAGE_POOL_2D", d1, 8, 8, Padding::kValid, "gap");
  const int32_t flat = l.Reshape(gap, {1, 16}, "flatten");
  const int32_t fc = l.FullyConnected(flat, 5, Activation::kNone, "logits");
  const int32_t out = l.Softmax(fc, 1.0f, "probs");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"probs", out}});
  return std::move(b).Finish();
}

// Float model whose weights and biases are float16 constants, each expanded by a constant
// DEQUANTIZE node before use (as the mediapipe models in the real corpus are stored).
SyntheticModel Float16Weights() {
  ModelBuilder b("fp16_weights.tflite", "float16 weights behind constant DEQUANTIZE nodes");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat16Weights, kSeed + 6);
  const int32_t x = l.ActivationTensor("input", {1, 16, 16, 3});
  const int32_t c1 = l.Conv2D(x, 8, 3, 2, Padding::kSame, Activation::kRelu, "conv1");
  const int32_t d1 = l.DepthwiseConv2D(c1, 1, 3, 1, Padding::kSame, Activation::kRelu, "dw1");
  const int32_t c2 = l.Conv2D(d1, 16, 1, 1, Padding::kSame, Activation::kNone, "conv2");
  const int32_t flat = l.Reshape(c2, {1, 8 * 8 * 16}, "flatten");
  const int32_t out = l.FullyConnected(flat, 10, Activation::kNone, "logits");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"logits", out}});
  return std::move(b).Finish();
}

// A uint8 classifier behind QUANTIZE and DEQUANTIZE, as fed to edgetpu_compiler: float input,
// QUANTIZE, the uint8 layers, DEQUANTIZE, float output. Twin of EdgeTpuClassifierCompiled.
SyntheticModel EdgeTpuClassifier() {
  ModelBuilder b("edgetpu_classifier.tflite", "uint8 classifier before edgetpu_compiler");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kUInt8PerTensor, kSeed + 7);
  const int32_t x = b.AddTensor(sg, "input", TensorType::kFloat32, {1, 16, 16, 3});
  const int32_t q = l.Quantize(x, 0.0f, 1.0f, "input_uint8");
  const int32_t c1 = l.Conv2D(q, 8, 3, 2, Padding::kSame, Activation::kRelu6, "conv1");
  const int32_t d1 = l.DepthwiseConv2D(c1, 1, 3, 1, Padding::kSame, Activation::kRelu6, "dw1");
  const int32_t c2 = l.Conv2D(d1, 16, 1, 1, Padding::kSame, Activation::kRelu6, "conv2");
  const int32_t gap = l.Pool2D("AVERAGE_POOL_2D", c2, 8, 8, Padding::kValid, "gap");
  const int32_t flat = l.Reshape(gap, {1, 16}, "flatten");
  const int32_t fc = l.FullyConnected(flat, 5, Activation::kNone, "logits");
  const int32_t probs = l.Softmax(fc, 1.0f, "probs_uint8");
  const int32_t out = l.Dequantize(probs, "probs");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"probs", out}});
  return std::move(b).Finish();
}

// EdgeTpuClassifier as edgetpu_compiler leaves it: every uint8 layer replaced by one
// `edgetpu-custom-op` node whose custom options are the compiled program (opaque bytes here),
// between the QUANTIZE and DEQUANTIZE the CPU keeps.
SyntheticModel EdgeTpuClassifierCompiled() {
  ModelBuilder b("edgetpu_classifier_edgetpu.tflite",
                 "uint8 classifier after edgetpu_compiler: one edgetpu-custom-op");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kUInt8PerTensor, kSeed + 7);
  const int32_t x = b.AddTensor(sg, "input", TensorType::kFloat32, {1, 16, 16, 3});
  const int32_t q = l.Quantize(x, 0.0f, 1.0f, "input_uint8");
  const int32_t probs = l.ActivationTensor("probs_uint8", {1, 5}, 0.0f, 1.0f);
  constexpr size_t kProgramBytes = 6144;
  Lcg program_bytes(kSeed + 8);
  std::vector<uint8_t> program(kProgramBytes);
  for (uint8_t& byte : program) byte = static_cast<uint8_t>(program_bytes.Next());
  b.AddCustomNode(sg, "edgetpu-custom-op", {q}, {probs}, std::move(program));
  const int32_t out = l.Dequantize(probs, "probs");
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}}, {{"probs", out}});
  return std::move(b).Finish();
}

using Factory = SyntheticModel (*)();
const std::vector<std::pair<std::string, Factory>>& Catalogue() {
  static const auto* catalogue = new std::vector<std::pair<std::string, Factory>>{
      {"chain_float", ChainFloat},
      {"diamond_float", DiamondFloat},
      {"branches_float", BranchesFloat},
      {"while_loop", WhileLoop},
      {"if_two_branches", IfTwoBranches},
      {"call_once_variables", CallOnceVariables},
      {"stateful_variable", StatefulVariable},
      {"dynamic_batch", DynamicBatch},
      {"int8_per_channel", Int8PerChannel},
      {"uint8_per_tensor", UInt8PerTensor},
      {"fp16_weights", Float16Weights},
      {"transformer_block_float", TransformerBlockFloat},
      {"unet_transpose_conv_float", UnetTransposeConvFloat},
      {"conv3d_float", Conv3DFloat},
      {"lstm_float", LstmFloat},
      {"audio_rfft_float", AudioRfftFloat},
      {"sparse_hybrid_fc", SparseHybridFullyConnected},
      {"sparse_hybrid_lstm", SparseHybridLstm},
      {"int16x8_conv_fc", Int16x8ConvFullyConnected},
      {"hybrid_fc_batch_matmul", HybridFullyConnectedBatchMatMul},
      {"lstm_hybrid", HybridLstm},
      {"ssd_postprocess_float", SsdPostProcessFloat},
      {"runtime_axis_mean_float", RuntimeAxisMeanFloat},
      {"edgetpu_classifier", EdgeTpuClassifier},
      {"edgetpu_classifier_edgetpu", EdgeTpuClassifierCompiled},
  };
  return *catalogue;
}

}  // namespace

std::vector<std::string> SyntheticModelNames() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : Catalogue()) names.push_back(name);
  return names;
}

Result<SyntheticModel> BuildSyntheticModel(const std::string& name) {
  for (const auto& [entry, factory] : Catalogue()) {
    if (entry == name) return factory();
  }
  return Status::Error("no synthetic model named \"" + name + "\"");
}

}  // namespace tfa
