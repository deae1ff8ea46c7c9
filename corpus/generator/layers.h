// Layer-level helpers on top of ModelBuilder: each call adds one op with its weights, bias and
// output tensor, the output shape computed as upstream's kernels compute it in Prepare
// (conv/pool: SAME = ceil(in / stride), VALID = ceil((in - dilated_filter + 1) / stride)).
//
// One LayerBuilder writes one numeric flavour, chosen at construction:
//   kFloat             float32 weights and activations;
//   kFloat16Weights    float32 activations, weights stored as float16 constants each feeding a
//                      DEQUANTIZE node (the mediapipe corpus layout the GPU delegate folds);
//   kInt8PerChannel    int8 activations (asymmetric, per-tensor) and int8 weights symmetric per
//                      output channel, int32 bias with scale input_scale * weight_scale[c];
//   kUInt8PerTensor    uint8 activations and weights, per-tensor, int32 bias.
// Weights come from a seeded LCG with magnitudes around 1/sqrt(fan_in), so that a runtime
// executing the model produces finite, non-saturated values. Op versions are the ones upstream's
// converter assigns for the operand types (tflite/tools/versioning/op_version.cc).
#ifndef CORPUS_GENERATOR_LAYERS_H_
#define CORPUS_GENERATOR_LAYERS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "corpus/generator/model_builder.h"

namespace tfa {

// Deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX constants; high bits used).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed * 2 + 1) {}
  uint32_t Next();
  float Uniform(float lo, float hi);
  int32_t Int(int32_t lo, int32_t hi);  // inclusive
  bool Chance(double probability);

 private:
  uint64_t state_;
};

// Output extent of a conv/pool window along one spatial dimension.
int32_t WindowOutputSize(int32_t in, int32_t filter, int32_t stride, int32_t dilation,
                         Padding padding);

enum class NumericFlavour : uint8_t { kFloat, kFloat16Weights, kInt8PerChannel, kUInt8PerTensor };

class LayerBuilder {
 public:
  LayerBuilder(ModelBuilder& builder, int32_t subgraph, NumericFlavour flavour, uint64_t seed);

  // An activation tensor of this flavour's type whose quantization covers [lo, hi].
  // `shape_signature` as ModelBuilder::AddTensor.
  int32_t ActivationTensor(const std::string& name, std::vector<int32_t> shape, float lo = -8.0f,
                           float hi = 8.0f, std::vector<int32_t> shape_signature = {});

  int32_t Conv2D(int32_t input, int32_t out_channels, int32_t kernel, int32_t stride,
                 Padding padding, Activation activation, const std::string& name);
  int32_t DepthwiseConv2D(int32_t input, int32_t depth_multiplier, int32_t kernel, int32_t stride,
                          Padding padding, Activation activation, const std::string& name);
  // AVERAGE_POOL_2D or MAX_POOL_2D.
  int32_t Pool2D(std::string_view op, int32_t input, int32_t kernel, int32_t stride,
                 Padding padding, const std::string& name);
  // Input [batch, features] (or anything flattening to features per batch row) -> [batch, units].
  int32_t FullyConnected(int32_t input, int32_t units, Activation activation,
                         const std::string& name);
  // ADD, SUB, MUL or DIV of two tensors of the same shape.
  int32_t Binary(std::string_view op, int32_t a, int32_t b, Activation activation,
                 const std::string& name);
  // Shape-preserving activation op: RELU, RELU6, TANH, LOGISTIC, HARD_SWISH...
  int32_t Unary(std::string_view op, int32_t input, const std::string& name);
  int32_t Concatenation(const std::vector<int32_t>& inputs, int32_t axis, const std::string& name);
  // RESHAPE with both the shape input tensor and the new_shape option, as the converter writes.
  int32_t Reshape(int32_t input, std::vector<int32_t> new_shape, const std::string& name);
  int32_t Softmax(int32_t input, float beta, const std::string& name);

  // Float <-> quantized boundaries of the quantized flavours.
  int32_t Quantize(int32_t float_input, float lo, float hi, const std::string& name);
  int32_t Dequantize(int32_t quantized_input, const std::string& name);

  int32_t subgraph() const { return subgraph_; }
  std::vector<int32_t> Shape(int32_t tensor) const;

 private:
  bool quantized() const;
  TensorType ActivationType() const;
  Quantization ActivationQuantization(float lo, float hi) const;
  std::pair<float, float> ActivationRange(Activation activation) const;
  // An output tensor of `shape` for an op reading `input`: a dynamic batch dimension (-1 in
  // dim 0 of the input's signature) carries over; `quantization` empty = from [lo, hi].
  int32_t Output(const std::string& name, int32_t input, std::vector<int32_t> shape,
                 std::pair<float, float> range, Quantization quantization = {});
  int32_t Version(std::string_view op) const;
  // Weights of `shape` with `channels` output channels along `channel_dim`, fan-in `fan_in`;
  // returns the tensor the op reads (a DEQUANTIZE output for kFloat16Weights).
  int32_t Weights(const std::string& name, std::vector<int32_t> shape, int32_t channel_dim,
                  int32_t fan_in);
  // Bias for `weights` (float, or int32 with scale input_scale * weight_scale[c]).
  int32_t Bias(const std::string& name, int32_t input, int32_t weights, int32_t channels);
  // The constant tensor behind `weights` (itself, or the DEQUANTIZE input).
  const Tensor& WeightConstant(int32_t weights) const;

  ModelBuilder& b_;
  int32_t subgraph_;
  NumericFlavour flavour_;
  Lcg rng_;
  std::vector<std::pair<int32_t, int32_t>> dequantized_from_;  // (dequantize output, constant)
};

}  // namespace tfa

#endif  // CORPUS_GENERATOR_LAYERS_H_
