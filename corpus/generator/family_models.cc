#include "corpus/generator/family_models.h"

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

void Finish(ModelBuilder& b, int32_t sg, int32_t input, int32_t output) {
  b.SetInputs(sg, {input});
  b.SetOutputs(sg, {output});
  AddConverterExtras(b, {{"input", input}}, {{"output", output}});
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
  std::vector<int32_t> inputs = {x};
  const char* gates[4] = {"input_gate", "forget_gate", "cell_gate", "output_gate"};
  for (const char* gate : gates)
    inputs.push_back(FloatConstant(b, sg, rng, std::string(gate) + "/input_weights", {6, 4}, 0.5f));
  for (const char* gate : gates) {
    inputs.push_back(
        FloatConstant(b, sg, rng, std::string(gate) + "/recurrent_weights", {6, 6}, 0.4f));
  }
  for (int i = 0; i < 3; ++i) inputs.push_back(-1);  // peepholes
  for (const char* gate : gates)
    inputs.push_back(FloatConstant(b, sg, rng, std::string(gate) + "/bias", {6}, 0.1f));
  inputs.push_back(-1);  // projection weights
  inputs.push_back(-1);  // projection bias
  inputs.push_back(b.AddVariable(sg, "output_state", TensorType::kFloat32, {1, 6}));
  inputs.push_back(b.AddVariable(sg, "cell_state", TensorType::kFloat32, {1, 6}));
  for (int i = 0; i < 4; ++i) inputs.push_back(-1);  // layer norm coefficients
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

}  // namespace tfa
