#include "corpus/generator/family_models.h"

#include <flatbuffers/flexbuffers.h>

#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "corpus/generator/layers.h"

namespace tfa {
namespace {

constexpr uint64_t kSeed = 20261123;

std::vector<float> RandomValues(Lcg& rng, int64_t count, float magnitude) {
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = rng.Uniform(-magnitude, magnitude);
  return values;
}

int64_t Elements(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

int32_t FloatConstant(ModelBuilder& b, int32_t sg, Lcg& rng, const std::string& name,
                      std::vector<int32_t> shape, float magnitude) {
  const int64_t n = Elements(shape);
  return b.AddConstant(sg, name, TensorType::kFloat32, std::move(shape),
                       FloatBytes(RandomValues(rng, n, magnitude)));
}

int32_t Int32Constant(ModelBuilder& b, int32_t sg, const std::string& name,
                      const std::vector<int32_t>& values) {
  return b.AddConstant(sg, name, TensorType::kInt32, {static_cast<int32_t>(values.size())},
                       Int32Bytes(values));
}

int32_t Float32Tensor(ModelBuilder& b, int32_t sg, const std::string& name,
                      std::vector<int32_t> shape) {
  return b.AddTensor(sg, name, TensorType::kFloat32, std::move(shape));
}

Quantization PerTensor(float scale, int64_t zero_point = 0) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

std::vector<uint8_t> RandomInt8(Lcg& rng, int64_t count) {
  std::vector<int8_t> values(static_cast<size_t>(count));
  for (int8_t& v : values) v = static_cast<int8_t>(rng.Uniform(-100.0f, 100.0f));
  return Int8Bytes(values);
}

// Int8 weights of a hybrid kernel (float activations), one scale.
int32_t HybridWeights(ModelBuilder& b, int32_t sg, Lcg& rng, const std::string& name,
                      std::vector<int32_t> shape) {
  const int64_t n = Elements(shape);
  return b.AddConstant(sg, name, TensorType::kInt8, std::move(shape), RandomInt8(rng, n),
                       PerTensor(0.01f));
}

// Sparse int8 weights [rows, columns] with `per_row` non-zeros in each row, stored as a CSR
// matrix: its ledger (sparse_ledger_bytes) is one byte per row plus one per non-zero.
int32_t SparseHybridWeights(ModelBuilder& b, int32_t sg, Lcg& rng, const std::string& name,
                            int32_t rows, int32_t columns, int32_t per_row) {
  const int64_t nonzeros = int64_t{rows} * per_row;
  return b.AddSparseConstant(sg, name, TensorType::kInt8, {rows, columns},
                             RandomInt8(rng, nonzeros), static_cast<uint64_t>(rows + nonzeros),
                             PerTensor(0.01f));
}

std::vector<uint8_t> Int64Bytes(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int64_t));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Int8 weights symmetric per output channel (dimension 0) with `channels` scales.
Quantization PerChannel(int32_t channels, float scale) {
  Quantization q;
  for (int32_t c = 0; c < channels; ++c) {
    q.scale.push_back(scale * static_cast<float>(c + 1));
    q.zero_point.push_back(0);
  }
  return q;
}

// A 16x8 bias: int64 values with scale input_scale * weight_scale[c], zero point 0.
int32_t Int64Bias(ModelBuilder& b, int32_t sg, Lcg& rng, const std::string& name, float input_scale,
                  const Quantization& weights) {
  Quantization q;
  std::vector<int64_t> values;
  for (float scale : weights.scale) {
    q.scale.push_back(input_scale * scale);
    q.zero_point.push_back(0);
    values.push_back(static_cast<int64_t>(rng.Int(-1000, 1000)));
  }
  const auto channels = static_cast<int32_t>(values.size());
  return b.AddConstant(sg, name, TensorType::kInt64, {channels}, Int64Bytes(values), q);
}

void Finish(ModelBuilder& b, int32_t sg, int32_t input, int32_t output) {
  b.SetInputs(sg, {input});
  b.SetOutputs(sg, {output});
  AddConverterExtras(b, {{"input", input}}, {{"output", output}});
}

// How an LSTM miniature makes one gate's weights [rows, columns] (float, hybrid, sparse).
using GateWeights = std::function<int32_t(const std::string& name, int32_t rows, int32_t columns)>;

struct LstmLayout {
  int32_t input_size = 0, cells = 0, output_size = 0;
  GateWeights input_weights, recurrent_weights;
  std::function<int32_t()> projection;  // empty: no projection weights
};

// The 24 inputs of an LSTM node in upstream's order (tflite/kernels/lstm_shared.h), without
// peepholes, projection bias or layer norm; the states are variable tensors. Constants are made
// in input order, so the generator's random stream is consumed as the order lists them.
std::vector<int32_t> LstmInputs(ModelBuilder& b, int32_t sg, Lcg& rng, int32_t x,
                                const LstmLayout& layout) {
  std::vector<int32_t> inputs = {x};
  const char* gates[4] = {"input_gate", "forget_gate", "cell_gate", "output_gate"};
  for (const char* gate : gates) {
    inputs.push_back(layout.input_weights(std::string(gate) + "/input_weights", layout.cells,
                                          layout.input_size));
  }
  for (const char* gate : gates) {
    inputs.push_back(layout.recurrent_weights(std::string(gate) + "/recurrent_weights",
                                              layout.cells, layout.output_size));
  }
  for (int i = 0; i < 3; ++i) inputs.push_back(-1);  // peepholes
  for (const char* gate : gates) {
    inputs.push_back(FloatConstant(b, sg, rng, std::string(gate) + "/bias", {layout.cells}, 0.1f));
  }
  inputs.push_back(layout.projection ? layout.projection() : -1);
  inputs.push_back(-1);  // projection bias
  inputs.push_back(
      b.AddVariable(sg, "output_state", TensorType::kFloat32, {1, layout.output_size}));
  inputs.push_back(b.AddVariable(sg, "cell_state", TensorType::kFloat32, {1, layout.cells}));
  for (int i = 0; i < 4; ++i) inputs.push_back(-1);  // layer norm coefficients
  return inputs;
}

GateWeights FloatGateWeights(ModelBuilder& b, int32_t sg, Lcg& rng, float range) {
  return [&b, sg, &rng, range](const std::string& name, int32_t rows, int32_t columns) {
    return FloatConstant(b, sg, rng, name, {rows, columns}, range);
  };
}

GateWeights HybridGateWeights(ModelBuilder& b, int32_t sg, Lcg& rng) {
  return [&b, sg, &rng](const std::string& name, int32_t rows, int32_t columns) {
    return HybridWeights(b, sg, rng, name, {rows, columns});
  };
}

}  // namespace

// x [1, 8, 16] -> Q, K, V projections -> softmax(Q K^T / 4) V -> residual -> layer norm -> GELU.
SyntheticModel TransformerBlockFloat() {
  ModelBuilder b("transformer_block_float.tflite",
                 "transformer block: attention with BATCH_MATMUL adj_y, layer norm, GELU");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed);
  const int32_t x = l.ActivationTensor("input", {1, 8, 16});
  const int32_t rows = l.Reshape(x, {8, 16}, "rows");
  std::vector<int32_t> qkv;
  for (const char* name : {"q", "k", "v"}) {
    const int32_t projected = l.FullyConnected(rows, 16, Activation::kNone, name);
    qkv.push_back(l.Reshape(projected, {1, 8, 16}, std::string(name) + "_seq"));
  }
  OpOptions transpose_rhs;
  transpose_rhs.adj_y = true;
  const int32_t scores = Float32Tensor(b, sg, "scores", {1, 8, 8});
  b.AddNode(sg, "BATCH_MATMUL", {qkv[0], qkv[1]}, {scores}, transpose_rhs);
  const int32_t weights = l.Softmax(scores, 0.25f, "attention");
  const int32_t context = Float32Tensor(b, sg, "context", {1, 8, 16});
  b.AddNode(sg, "BATCH_MATMUL", {weights, qkv[2]}, {context});
  const int32_t residual = l.Binary("ADD", context, x, Activation::kNone, "residual");
  // Layer norm over the feature axis, as converters lower it.
  OpOptions keep;
  keep.keep_dims = true;
  const int32_t axis = Int32Constant(b, sg, "feature_axis", {2});
  const int32_t mean = Float32Tensor(b, sg, "mean", {1, 8, 1});
  b.AddNode(sg, "MEAN", {residual, axis}, {mean}, keep);
  const int32_t centered = Float32Tensor(b, sg, "centered", {1, 8, 16});
  b.AddNode(sg, "SUB", {residual, mean}, {centered});
  const int32_t squared = Float32Tensor(b, sg, "squared", {1, 8, 16});
  b.AddNode(sg, "MUL", {centered, centered}, {squared});
  const int32_t variance = Float32Tensor(b, sg, "variance", {1, 8, 1});
  b.AddNode(sg, "MEAN", {squared, axis}, {variance}, keep);
  const int32_t epsilon =
      b.AddConstant(sg, "epsilon", TensorType::kFloat32, {1}, FloatBytes({1e-5f}));
  const int32_t shifted = Float32Tensor(b, sg, "variance_eps", {1, 8, 1});
  b.AddNode(sg, "ADD", {variance, epsilon}, {shifted});
  const int32_t inverse = Float32Tensor(b, sg, "inverse_std", {1, 8, 1});
  b.AddNode(sg, "RSQRT", {shifted}, {inverse});
  const int32_t normed = Float32Tensor(b, sg, "normed", {1, 8, 16});
  b.AddNode(sg, "MUL", {centered, inverse}, {normed});
  const int32_t out = l.Unary("GELU", normed, "output");
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 8, 8, 4] -> CONV_2D stride 2 -> TRANSPOSE_CONV stride 2 (with bias) -> concat with x ->
// 1x1 CONV_2D head.
SyntheticModel UnetTransposeConvFloat() {
  ModelBuilder b("unet_transpose_conv_float.tflite",
                 "U-Net step: strided conv down, TRANSPOSE_CONV up, concatenated skip");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 1);
  Lcg rng(kSeed + 1);
  const int32_t x = l.ActivationTensor("input", {1, 8, 8, 4});
  const int32_t down = l.Conv2D(x, 8, 3, 2, Padding::kSame, Activation::kRelu, "down");
  const int32_t shape = Int32Constant(b, sg, "up_shape", {1, 8, 8, 4});
  const int32_t filter = FloatConstant(b, sg, rng, "up_filter", {4, 3, 3, 8}, 0.2f);
  const int32_t bias = FloatConstant(b, sg, rng, "up_bias", {4}, 0.1f);
  OpOptions up_options;
  up_options.padding = Padding::kSame;
  up_options.stride_h = up_options.stride_w = 2;
  const int32_t up = Float32Tensor(b, sg, "up", {1, 8, 8, 4});
  // Version 3: the optional bias input (tflite/tools/versioning/op_version.cc).
  b.AddNode(sg, "TRANSPOSE_CONV", {shape, filter, down, bias}, {up}, up_options, 3);
  const int32_t skip = l.Concatenation({up, x}, 3, "skip");
  const int32_t out = l.Conv2D(skip, 1, 1, 1, Padding::kSame, Activation::kNone, "head");
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 4, 8, 8, 2] -> CONV_3D (stride 1, 2, 2) -> CONV_3D_TRANSPOSE back -> ADD x.
SyntheticModel Conv3DFloat() {
  ModelBuilder b("conv3d_float.tflite", "CONV_3D down and CONV_3D_TRANSPOSE back, residual");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 2);
  const int32_t x = Float32Tensor(b, sg, "input", {1, 4, 8, 8, 2});
  OpOptions o;
  o.padding = Padding::kSame;
  o.stride_h = o.stride_w = 2;
  const int32_t filter = FloatConstant(b, sg, rng, "filter", {3, 3, 3, 2, 4}, 0.2f);
  const int32_t bias = FloatConstant(b, sg, rng, "bias", {4}, 0.1f);
  const int32_t down = Float32Tensor(b, sg, "down", {1, 4, 4, 4, 4});
  OpOptions relu = o;
  relu.fused_activation = Activation::kRelu;
  b.AddNode(sg, "CONV_3D", {x, filter, bias}, {down}, relu);
  const int32_t shape = Int32Constant(b, sg, "up_shape", {1, 4, 8, 8, 2});
  const int32_t up_filter = FloatConstant(b, sg, rng, "up_filter", {3, 3, 3, 2, 4}, 0.2f);
  const int32_t up = Float32Tensor(b, sg, "up", {1, 4, 8, 8, 2});
  b.AddNode(sg, "CONV_3D_TRANSPOSE", {shape, up_filter, down}, {up}, o);
  const int32_t out = Float32Tensor(b, sg, "output", {1, 4, 8, 8, 2});
  b.AddNode(sg, "ADD", {up, x}, {out});
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 5, 4] -> UNIDIRECTIONAL_SEQUENCE_LSTM (6 cells, 24-input layout, no peepholes or
// projection) with its output and cell states as variable tensors.
SyntheticModel LstmFloat() {
  ModelBuilder b("lstm_float.tflite", "UNIDIRECTIONAL_SEQUENCE_LSTM with variable state tensors");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 3);
  const int32_t x = Float32Tensor(b, sg, "input", {1, 5, 4});
  LstmLayout layout{4, 6, 6, FloatGateWeights(b, sg, rng, 0.5f), FloatGateWeights(b, sg, rng, 0.4f),
                    {}};
  std::vector<int32_t> inputs = LstmInputs(b, sg, rng, x, layout);
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  const int32_t out = Float32Tensor(b, sg, "output", {1, 5, 6});
  b.AddNode(sg, "UNIDIRECTIONAL_SEQUENCE_LSTM", std::move(inputs), {out}, o);
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 1, 32] -> RFFT2D [1, 32] -> complex64 [1, 1, 17] -> COMPLEX_ABS -> ADD eps -> LOG.
SyntheticModel AudioRfftFloat() {
  ModelBuilder b("audio_rfft_float.tflite", "audio front end: RFFT2D, COMPLEX_ABS, LOG");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = Float32Tensor(b, sg, "input", {1, 1, 32});
  const int32_t length = Int32Constant(b, sg, "fft_length", {1, 32});
  const int32_t spectrum = b.AddTensor(sg, "spectrum", TensorType::kComplex64, {1, 1, 17});
  b.AddNode(sg, "RFFT2D", {x, length}, {spectrum});
  const int32_t magnitude = Float32Tensor(b, sg, "magnitude", {1, 1, 17});
  b.AddNode(sg, "COMPLEX_ABS", {spectrum}, {magnitude});
  const int32_t epsilon =
      b.AddConstant(sg, "epsilon", TensorType::kFloat32, {1}, FloatBytes({1e-6f}));
  const int32_t shifted = Float32Tensor(b, sg, "shifted", {1, 1, 17});
  b.AddNode(sg, "ADD", {magnitude, epsilon}, {shifted});
  const int32_t out = Float32Tensor(b, sg, "output", {1, 1, 17});
  b.AddNode(sg, "LOG", {shifted}, {out});
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [2, 8] -> FULLY_CONNECTED with sparse int8 weights [4, 8] (two non-zeros per row), float
// bias: the sparse hybrid kernel.
SyntheticModel SparseHybridFullyConnected() {
  ModelBuilder b("sparse_hybrid_fc.tflite", "FULLY_CONNECTED, float input, sparse int8 weights");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 4);
  const int32_t x = Float32Tensor(b, sg, "input", {2, 8});
  const int32_t weights = SparseHybridWeights(b, sg, rng, "weights", 4, 8, 2);
  const int32_t bias = FloatConstant(b, sg, rng, "bias", {4}, 0.1f);
  const int32_t out = Float32Tensor(b, sg, "output", {2, 4});
  b.AddNode(sg, "FULLY_CONNECTED", {x, weights, bias}, {out});
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 4] -> LSTM (full kernel, 24-input layout: 4 cells, 2 outputs through projection, no
// peepholes or layer norm) with sparse int8 input and projection weights (one and two non-zeros
// per row), dense int8 recurrent weights and variable float states: the sparse hybrid kernel.
SyntheticModel SparseHybridLstm() {
  ModelBuilder b("sparse_hybrid_lstm.tflite", "LSTM, float input, sparse int8 weights");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 5);
  const int32_t x = Float32Tensor(b, sg, "input", {1, 4});
  LstmLayout layout{4,
                    4,
                    2,
                    [&](const std::string& name, int32_t rows, int32_t columns) {
                      return SparseHybridWeights(b, sg, rng, name, rows, columns, 1);
                    },
                    HybridGateWeights(b, sg, rng),
                    [&] { return SparseHybridWeights(b, sg, rng, "projection", 2, 4, 2); }};
  std::vector<int32_t> inputs = LstmInputs(b, sg, rng, x, layout);
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  const int32_t out = Float32Tensor(b, sg, "output", {1, 2});
  b.AddNode(sg, "LSTM", std::move(inputs), {out}, o);
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 8, 8, 3] int16 -> CONV_2D 3x3 stride 2 (int8 weights per channel, int64 bias) -> int16
// [1, 4, 4, 8] -> RESHAPE [1, 128] -> FULLY_CONNECTED (int8 weights, int64 bias) -> int16 [1, 4]:
// the 16x8 kernels (int16 activations, symmetric, zero point 0).
SyntheticModel Int16x8ConvFullyConnected() {
  ModelBuilder b("int16x8_conv_fc.tflite", "16x8 quantization: int16 activations, int8 weights");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 6);
  constexpr float kInputScale = 1.0f / 4096, kConvScale = 1.0f / 2048, kOutputScale = 1.0f / 1024;
  const int32_t x =
      b.AddTensor(sg, "input", TensorType::kInt16, {1, 8, 8, 3}, PerTensor(kInputScale));
  const Quantization filter_q = PerChannel(8, 0.002f);
  const int32_t filter = b.AddConstant(sg, "conv/filter", TensorType::kInt8, {8, 3, 3, 3},
                                       RandomInt8(rng, 8 * 3 * 3 * 3), filter_q);
  const int32_t conv_bias = Int64Bias(b, sg, rng, "conv/bias", kInputScale, filter_q);
  const int32_t conv =
      b.AddTensor(sg, "conv", TensorType::kInt16, {1, 4, 4, 8}, PerTensor(kConvScale));
  OpOptions conv_options;
  conv_options.padding = Padding::kSame;
  conv_options.stride_h = conv_options.stride_w = 2;
  conv_options.fused_activation = Activation::kRelu;
  // Version 4: int16 activations (tflite/tools/versioning/op_version.cc).
  b.AddNode(sg, "CONV_2D", {x, filter, conv_bias}, {conv}, conv_options, 4);
  const int32_t shape = Int32Constant(b, sg, "flatten/shape", {1, 128});
  const int32_t flat =
      b.AddTensor(sg, "flatten", TensorType::kInt16, {1, 128}, PerTensor(kConvScale));
  OpOptions reshape;
  reshape.new_shape = {1, 128};
  b.AddNode(sg, "RESHAPE", {conv, shape}, {flat}, reshape);
  const Quantization weights_q = PerTensor(0.001f);
  const int32_t weights = b.AddConstant(sg, "fc/weights", TensorType::kInt8, {4, 128},
                                        RandomInt8(rng, 4 * 128), weights_q);
  const int32_t fc_bias = Int64Bias(b, sg, rng, "fc/bias", kConvScale, weights_q);
  const int32_t out =
      b.AddTensor(sg, "output", TensorType::kInt16, {1, 4}, PerTensor(kOutputScale));
  // Version 7: int16 activations.
  b.AddNode(sg, "FULLY_CONNECTED", {flat, weights, fc_bias}, {out}, OpOptions{}, 7);
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 4, 8] -> RESHAPE [4, 8] -> FULLY_CONNECTED (int8 weights [6, 8]) -> RESHAPE [1, 4, 6] ->
// BATCH_MATMUL with a constant int8 RHS [1, 6, 5] -> [1, 4, 5]: the hybrid kernels (float
// activations quantized on the fly, int8 weights).
SyntheticModel HybridFullyConnectedBatchMatMul() {
  ModelBuilder b("hybrid_fc_batch_matmul.tflite",
                 "hybrid FULLY_CONNECTED and BATCH_MATMUL: float activations, int8 weights");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 7);
  Lcg rng(kSeed + 7);
  const int32_t x = Float32Tensor(b, sg, "input", {1, 4, 8});
  const int32_t rows = l.Reshape(x, {4, 8}, "rows");
  const int32_t weights = HybridWeights(b, sg, rng, "fc/weights", {6, 8});
  const int32_t bias = FloatConstant(b, sg, rng, "fc/bias", {6}, 0.1f);
  const int32_t projected = Float32Tensor(b, sg, "projected", {4, 6});
  // Version 3: hybrid (int8 weights with float input).
  b.AddNode(sg, "FULLY_CONNECTED", {rows, weights, bias}, {projected}, OpOptions{}, 3);
  const int32_t sequence = l.Reshape(projected, {1, 4, 6}, "sequence");
  const int32_t rhs = HybridWeights(b, sg, rng, "matmul/rhs", {1, 6, 5});
  const int32_t out = Float32Tensor(b, sg, "output", {1, 4, 5});
  // Version 4: hybrid with int8 RHS.
  b.AddNode(sg, "BATCH_MATMUL", {sequence, rhs}, {out}, OpOptions{}, 4);
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

// x [1, 5, 4] -> UNIDIRECTIONAL_SEQUENCE_LSTM (6 cells, 24-input layout) with int8 weights and
// variable float states: the hybrid LSTM kernel.
SyntheticModel HybridLstm() {
  ModelBuilder b("lstm_hybrid.tflite", "UNIDIRECTIONAL_SEQUENCE_LSTM, float input, int8 weights");
  const int32_t sg = b.AddSubgraph("main");
  Lcg rng(kSeed + 8);
  const int32_t x = Float32Tensor(b, sg, "input", {1, 5, 4});
  LstmLayout layout{4, 6, 6, HybridGateWeights(b, sg, rng), HybridGateWeights(b, sg, rng), {}};
  std::vector<int32_t> inputs = LstmInputs(b, sg, rng, x, layout);
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  const int32_t out = Float32Tensor(b, sg, "output", {1, 5, 6});
  // Version 2: hybrid.
  b.AddNode(sg, "UNIDIRECTIONAL_SEQUENCE_LSTM", std::move(inputs), {out}, o, 2);
  Finish(b, sg, x, out);
  return std::move(b).Finish();
}

namespace {

// TFLite_Detection_PostProcess's options as converters write them: a flexbuffer map.
std::vector<uint8_t> PostProcessFlexbufferOptions(int32_t max_detections, int32_t num_classes) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", max_detections);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Int("detections_per_class", 100);
    fbb.Bool("use_regular_nms", false);
    fbb.Float("nms_score_threshold", 0.3f);
    fbb.Float("nms_iou_threshold", 0.6f);
    fbb.Int("num_classes", num_classes);
    fbb.Float("y_scale", 10.0f);
    fbb.Float("x_scale", 10.0f);
    fbb.Float("h_scale", 5.0f);
    fbb.Float("w_scale", 5.0f);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

}  // namespace

// features [16, 8] -> FULLY_CONNECTED box head [16, 4] and class head [16, 3] (LOGISTIC), each
// reshaped to [1, 16, n] -> TFLite_Detection_PostProcess with 16 constant anchors, at most 10
// detections of 2 classes (plus background): the SSD post-processing custom op with its
// flexbuffer options.
SyntheticModel SsdPostProcessFloat() {
  ModelBuilder b("ssd_postprocess_float.tflite",
                 "SSD head: box and class heads, TFLite_Detection_PostProcess");
  const int32_t sg = b.AddSubgraph("main");
  LayerBuilder l(b, sg, NumericFlavour::kFloat, kSeed + 9);
  Lcg rng(kSeed + 9);
  const int32_t features = Float32Tensor(b, sg, "features", {16, 8});
  const int32_t box_rows = l.FullyConnected(features, 4, Activation::kNone, "box_head");
  const int32_t boxes = l.Reshape(box_rows, {1, 16, 4}, "box_encodings");
  const int32_t class_rows = l.FullyConnected(features, 3, Activation::kNone, "class_head");
  const int32_t class_scores = l.Unary("LOGISTIC", class_rows, "class_scores");
  const int32_t classes = l.Reshape(class_scores, {1, 16, 3}, "class_predictions");
  std::vector<float> anchor_values;
  for (int32_t i = 0; i < 16; ++i) {
    const float center = (static_cast<float>(i % 4) + 0.5f) / 4;
    const float row = (static_cast<float>(i / 4) + 0.5f) / 4;
    for (float v : {row, center, 0.25f, 0.25f}) anchor_values.push_back(v);
  }
  const int32_t anchors =
      b.AddConstant(sg, "anchors", TensorType::kFloat32, {16, 4}, FloatBytes(anchor_values));
  const int32_t detection_boxes = Float32Tensor(b, sg, "detection_boxes", {1, 10, 4});
  const int32_t detection_classes = Float32Tensor(b, sg, "detection_classes", {1, 10});
  const int32_t detection_scores = Float32Tensor(b, sg, "detection_scores", {1, 10});
  const int32_t detections = Float32Tensor(b, sg, "num_detections", {1});
  const std::vector<int32_t> outputs = {detection_boxes, detection_classes, detection_scores,
                                        detections};
  b.AddCustomNode(sg, "TFLite_Detection_PostProcess", {boxes, classes, anchors}, outputs,
                  PostProcessFlexbufferOptions(10, 2));
  b.SetInputs(sg, {features});
  b.SetOutputs(sg, outputs);
  AddConverterExtras(b, {{"features", features}},
                     {{"detection_boxes", detection_boxes},
                      {"detection_classes", detection_classes},
                      {"detection_scores", detection_scores},
                      {"num_detections", detections}});
  return std::move(b).Finish();
}

// x [1, 4, 4] and axis [1] (an input, so unknown at Prepare) -> MEAN [1, 4] -> ADD a constant:
// reduce.cc makes the MEAN output dynamic, so upstream plans the arena only up to it.
SyntheticModel RuntimeAxisMeanFloat() {
  ModelBuilder b("runtime_axis_mean_float.tflite", "MEAN over an axis given at run time, then ADD");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = Float32Tensor(b, sg, "input", {1, 4, 4});
  const int32_t axis = b.AddTensor(sg, "axis", TensorType::kInt32, {1});
  const int32_t mean = Float32Tensor(b, sg, "mean", {1, 4});
  b.AddNode(sg, "MEAN", {x, axis}, {mean});
  const int32_t offset =
      b.AddConstant(sg, "offset", TensorType::kFloat32, {4}, FloatBytes({1, 2, 3, 4}));
  const int32_t out = Float32Tensor(b, sg, "output", {1, 4});
  b.AddNode(sg, "ADD", {mean, offset}, {out});
  b.SetInputs(sg, {x, axis});
  b.SetOutputs(sg, {out});
  AddConverterExtras(b, {{"input", x}, {"axis", axis}}, {{"output", out}});
  return std::move(b).Finish();
}

}  // namespace tfa
