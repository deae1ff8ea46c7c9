#include "corpus/generator/layers.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace tfa {
namespace {

int64_t ElementCount(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

}  // namespace

uint32_t Lcg::Next() {
  state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state_ >> 32);
}

float Lcg::Uniform(float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(Next() >> 8) / static_cast<float>(1u << 24);
}

int32_t Lcg::Int(int32_t lo, int32_t hi) {
  const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1);
  return static_cast<int32_t>(lo + static_cast<int64_t>(Next() % span));
}

bool Lcg::Chance(double probability) {
  return static_cast<double>(Next()) < probability * 4294967296.0;
}

int32_t WindowOutputSize(int32_t in, int32_t filter, int32_t stride, int32_t dilation,
                         Padding padding) {
  const int32_t dilated = (filter - 1) * dilation + 1;
  if (padding == Padding::kSame) return (in + stride - 1) / stride;
  return (in - dilated + stride) / stride;
}

LayerBuilder::LayerBuilder(ModelBuilder& builder, int32_t subgraph, NumericFlavour flavour,
                           uint64_t seed)
    : b_(builder), subgraph_(subgraph), flavour_(flavour), rng_(seed) {}

bool LayerBuilder::quantized() const {
  return flavour_ == NumericFlavour::kInt8PerChannel || flavour_ == NumericFlavour::kUInt8PerTensor;
}

TensorType LayerBuilder::ActivationType() const {
  switch (flavour_) {
    case NumericFlavour::kInt8PerChannel:
      return TensorType::kInt8;
    case NumericFlavour::kUInt8PerTensor:
      return TensorType::kUInt8;
    case NumericFlavour::kFloat:
    case NumericFlavour::kFloat16Weights:
      break;
  }
  return TensorType::kFloat32;
}

// Asymmetric per-tensor parameters covering [lo, hi] (which must contain 0), as the converter
// derives them from the calibrated range.
Quantization LayerBuilder::ActivationQuantization(float lo, float hi) const {
  if (!quantized()) return {};
  const float scale = (hi - lo) / 255.0f;
  const int64_t qmin = flavour_ == NumericFlavour::kInt8PerChannel ? -128 : 0;
  const int64_t zero_point = qmin - static_cast<int64_t>(std::lround(lo / scale));
  return Quantization{{scale}, {zero_point}, 0};
}

std::pair<float, float> LayerBuilder::ActivationRange(Activation activation) const {
  switch (activation) {
    case Activation::kRelu:
      return {0.0f, 8.0f};
    case Activation::kRelu6:
      return {0.0f, 6.0f};
    case Activation::kReluN1To1:
    case Activation::kTanh:
      return {-1.0f, 1.0f};
    default:
      return {-8.0f, 8.0f};
  }
}

int32_t LayerBuilder::Version(std::string_view op) const {
  if (flavour_ != NumericFlavour::kInt8PerChannel) return 1;
  // Versions upstream assigns when inputs and outputs are int8.
  if (op == "CONV_2D" || op == "DEPTHWISE_CONV_2D") return 3;
  if (op == "FULLY_CONNECTED") return 4;
  if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D" || op == "ADD" || op == "SUB" || op == "MUL" ||
      op == "SOFTMAX" || op == "CONCATENATION" || op == "LOGISTIC" || op == "TANH" ||
      op == "RELU" || op == "RELU6" || op == "DEQUANTIZE") {
    return 2;
  }
  return 1;
}

std::vector<int32_t> LayerBuilder::Shape(int32_t tensor) const {
  return std::vector<int32_t>(b_.tensor(subgraph_, tensor).shape);
}

int32_t LayerBuilder::ActivationTensor(const std::string& name, std::vector<int32_t> shape,
                                       float lo, float hi, std::vector<int32_t> shape_signature) {
  return b_.AddTensor(subgraph_, name, ActivationType(), std::move(shape),
                      ActivationQuantization(lo, hi), std::move(shape_signature));
}

int32_t LayerBuilder::Output(const std::string& name, int32_t input, std::vector<int32_t> shape,
                             std::pair<float, float> range, Quantization quantization) {
  std::vector<int32_t> signature;
  const Tensor& in = b_.tensor(subgraph_, input);
  if (!in.shape_signature->empty() && (*in.shape_signature)[0] == -1 && !shape.empty()) {
    signature = shape;
    signature[0] = -1;
  }
  if (quantization.empty()) quantization = ActivationQuantization(range.first, range.second);
  return b_.AddTensor(subgraph_, name, ActivationType(), std::move(shape), std::move(quantization),
                      std::move(signature));
}

int32_t LayerBuilder::Weights(const std::string& name, std::vector<int32_t> shape,
                              int32_t channel_dim, int32_t fan_in) {
  const float magnitude = 1.0f / std::sqrt(static_cast<float>(std::max(fan_in, 1)));
  const int32_t channels = shape[static_cast<size_t>(channel_dim)];
  const size_t count = static_cast<size_t>(ElementCount(shape));
  switch (flavour_) {
    case NumericFlavour::kFloat: {
      std::vector<float> values(count);
      for (float& v : values) v = rng_.Uniform(-magnitude, magnitude);
      return b_.AddConstant(subgraph_, name, TensorType::kFloat32, std::move(shape),
                            FloatBytes(values));
    }
    case NumericFlavour::kFloat16Weights: {
      std::vector<float> values(count);
      for (float& v : values) v = rng_.Uniform(-magnitude, magnitude);
      const int32_t half =
          b_.AddConstant(subgraph_, name, TensorType::kFloat16, shape, Float16Bytes(values));
      const int32_t dequantized =
          b_.AddTensor(subgraph_, name + "_dequantize", TensorType::kFloat32, shape);
      b_.AddNode(subgraph_, "DEQUANTIZE", {half}, {dequantized}, {}, 3);
      dequantized_from_.emplace_back(dequantized, half);
      return dequantized;
    }
    case NumericFlavour::kInt8PerChannel: {
      // Symmetric per channel (zero point 0), scales differing between channels.
      Quantization q;
      q.quantized_dimension = channel_dim;
      for (int32_t c = 0; c < channels; ++c) {
        q.scale.push_back(magnitude * (1.0f + 0.25f * static_cast<float>(c % 4)) / 127.0f);
        q.zero_point.push_back(0);
      }
      std::vector<int8_t> values(count);
      for (int8_t& v : values) v = static_cast<int8_t>(rng_.Int(-127, 127));
      return b_.AddConstant(subgraph_, name, TensorType::kInt8, std::move(shape), Int8Bytes(values),
                            std::move(q));
    }
    case NumericFlavour::kUInt8PerTensor: {
      std::vector<uint8_t> values(count);
      for (uint8_t& v : values) v = static_cast<uint8_t>(rng_.Int(0, 255));
      return b_.AddConstant(subgraph_, name, TensorType::kUInt8, std::move(shape),
                            std::move(values), Quantization{{2.0f * magnitude / 255.0f}, {128}, 0});
    }
  }
  assert(false && "unhandled flavour");
  return -1;
}

const Tensor& LayerBuilder::WeightConstant(int32_t weights) const {
  for (const auto& [dequantized, constant] : dequantized_from_) {
    if (dequantized == weights) return b_.tensor(subgraph_, constant);
  }
  return b_.tensor(subgraph_, weights);
}

int32_t LayerBuilder::Bias(const std::string& name, int32_t input, int32_t weights,
                           int32_t channels) {
  if (!quantized()) {
    std::vector<float> values(static_cast<size_t>(channels));
    for (float& v : values) v = rng_.Uniform(-0.1f, 0.1f);
    if (flavour_ == NumericFlavour::kFloat) {
      return b_.AddConstant(subgraph_, name, TensorType::kFloat32, {channels}, FloatBytes(values));
    }
    const int32_t half =
        b_.AddConstant(subgraph_, name, TensorType::kFloat16, {channels}, Float16Bytes(values));
    const int32_t dequantized =
        b_.AddTensor(subgraph_, name + "_dequantize", TensorType::kFloat32, {channels});
    b_.AddNode(subgraph_, "DEQUANTIZE", {half}, {dequantized}, {}, 3);
    return dequantized;
  }
  // Upstream requires bias scale = input scale * weight scale, zero point 0.
  const float input_scale = b_.tensor(subgraph_, input).quantization->scale.at(0);
  const Quantization& wq = WeightConstant(weights).quantization;
  Quantization q;
  for (int32_t c = 0; c < channels; ++c) {
    q.scale.push_back(input_scale * wq.scale[wq.per_channel() ? static_cast<size_t>(c) : 0]);
    q.zero_point.push_back(0);
    if (!wq.per_channel()) break;
  }
  std::vector<int32_t> values(static_cast<size_t>(channels));
  for (int32_t& v : values) v = rng_.Int(-256, 256);
  return b_.AddConstant(subgraph_, name, TensorType::kInt32, {channels}, Int32Bytes(values),
                        std::move(q));
}

int32_t LayerBuilder::Conv2D(int32_t input, int32_t out_channels, int32_t kernel, int32_t stride,
                             Padding padding, Activation activation, const std::string& name) {
  const std::vector<int32_t> in = Shape(input);
  assert(in.size() == 4 && "CONV_2D input must be NHWC");
  const int32_t weights =
      Weights(name + "/weights", {out_channels, kernel, kernel, in[3]}, 0, kernel * kernel * in[3]);
  const int32_t bias = Bias(name + "/bias", input, weights, out_channels);
  const int32_t output = Output(name, input,
                                {in[0], WindowOutputSize(in[1], kernel, stride, 1, padding),
                                 WindowOutputSize(in[2], kernel, stride, 1, padding), out_channels},
                                ActivationRange(activation));
  OpOptions o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.fused_activation = activation;
  b_.AddNode(subgraph_, "CONV_2D", {input, weights, bias}, {output}, o, Version("CONV_2D"));
  return output;
}

int32_t LayerBuilder::DepthwiseConv2D(int32_t input, int32_t depth_multiplier, int32_t kernel,
                                      int32_t stride, Padding padding, Activation activation,
                                      const std::string& name) {
  const std::vector<int32_t> in = Shape(input);
  assert(in.size() == 4 && "DEPTHWISE_CONV_2D input must be NHWC");
  const int32_t channels = in[3] * depth_multiplier;
  const int32_t weights =
      Weights(name + "/weights", {1, kernel, kernel, channels}, 3, kernel * kernel);
  const int32_t bias = Bias(name + "/bias", input, weights, channels);
  const int32_t output = Output(name, input,
                                {in[0], WindowOutputSize(in[1], kernel, stride, 1, padding),
                                 WindowOutputSize(in[2], kernel, stride, 1, padding), channels},
                                ActivationRange(activation));
  OpOptions o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.depth_multiplier = depth_multiplier;
  o.fused_activation = activation;
  b_.AddNode(subgraph_, "DEPTHWISE_CONV_2D", {input, weights, bias}, {output}, o,
             Version("DEPTHWISE_CONV_2D"));
  return output;
}

int32_t LayerBuilder::Pool2D(std::string_view op, int32_t input, int32_t kernel, int32_t stride,
                             Padding padding, const std::string& name) {
  const std::vector<int32_t> in = Shape(input);
  assert(in.size() == 4 && "pool input must be NHWC");
  // Pooling keeps the input's quantization (upstream requires equal scale and zero point).
  const int32_t output = Output(name, input,
                                {in[0], WindowOutputSize(in[1], kernel, stride, 1, padding),
                                 WindowOutputSize(in[2], kernel, stride, 1, padding), in[3]},
                                {}, b_.tensor(subgraph_, input).quantization);
  OpOptions o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.filter_w = o.filter_h = kernel;
  b_.AddNode(subgraph_, op, {input}, {output}, o, Version(op));
  return output;
}

int32_t LayerBuilder::FullyConnected(int32_t input, int32_t units, Activation activation,
                                     const std::string& name) {
  const std::vector<int32_t> in = Shape(input);
  const int32_t features = in.back();
  // Upstream flattens the input to [elements / features, features].
  const int32_t batch = static_cast<int32_t>(ElementCount(in) / features);
  const int32_t weights = Weights(name + "/weights", {units, features}, 0, features);
  const int32_t bias = Bias(name + "/bias", input, weights, units);
  const int32_t output = Output(name, input, {batch, units}, ActivationRange(activation));
  OpOptions o;
  o.fused_activation = activation;
  b_.AddNode(subgraph_, "FULLY_CONNECTED", {input, weights, bias}, {output}, o,
             Version("FULLY_CONNECTED"));
  return output;
}

int32_t LayerBuilder::Binary(std::string_view op, int32_t a, int32_t b, Activation activation,
                             const std::string& name) {
  assert(Shape(a) == Shape(b) && "binary ops here take equal shapes");
  const int32_t output = Output(name, a, Shape(a), ActivationRange(activation));
  OpOptions o;
  o.fused_activation = activation;
  b_.AddNode(subgraph_, op, {a, b}, {output}, o, Version(op));
  return output;
}

int32_t LayerBuilder::Unary(std::string_view op, int32_t input, const std::string& name) {
  Quantization q;
  std::pair<float, float> range{-8.0f, 8.0f};
  const bool int8 = flavour_ == NumericFlavour::kInt8PerChannel;
  // Fixed output parameters upstream's LOGISTIC and TANH kernels require.
  if (op == "LOGISTIC" && quantized()) q = Quantization{{1.0f / 256}, {int8 ? -128 : 0}, 0};
  if (op == "TANH" && quantized()) q = Quantization{{1.0f / 128}, {int8 ? 0 : 128}, 0};
  if (op == "RELU") range = ActivationRange(Activation::kRelu);
  if (op == "RELU6") range = ActivationRange(Activation::kRelu6);
  const int32_t output = Output(name, input, Shape(input), range, std::move(q));
  b_.AddNode(subgraph_, op, {input}, {output}, {}, Version(op));
  return output;
}

int32_t LayerBuilder::Concatenation(const std::vector<int32_t>& inputs, int32_t axis,
                                    const std::string& name) {
  std::vector<int32_t> shape = Shape(inputs.at(0));
  const size_t dim =
      static_cast<size_t>(axis < 0 ? axis + static_cast<int32_t>(shape.size()) : axis);
  for (size_t i = 1; i < inputs.size(); ++i) shape[dim] += Shape(inputs[i])[dim];
  const int32_t output =
      Output(name, inputs[0], std::move(shape), {}, b_.tensor(subgraph_, inputs[0]).quantization);
  OpOptions o;
  o.axis = axis;
  b_.AddNode(subgraph_, "CONCATENATION", inputs, {output}, o, Version("CONCATENATION"));
  return output;
}

int32_t LayerBuilder::Reshape(int32_t input, std::vector<int32_t> new_shape,
                              const std::string& name) {
  const int64_t elements = ElementCount(Shape(input));
  std::vector<int32_t> shape = new_shape;
  int64_t known = 1;
  for (int32_t d : new_shape) known *= d < 0 ? 1 : d;
  for (int32_t& d : shape) {
    if (d < 0) d = static_cast<int32_t>(elements / known);
  }
  const int32_t shape_tensor =
      b_.AddConstant(subgraph_, name + "/shape", TensorType::kInt32,
                     {static_cast<int32_t>(new_shape.size())}, Int32Bytes(new_shape));
  const Tensor& in = b_.tensor(subgraph_, input);
  std::vector<int32_t> signature;
  if (in.has_dynamic_shape()) signature = new_shape;
  const int32_t output = b_.AddTensor(subgraph_, name, ActivationType(), std::move(shape),
                                      in.quantization, std::move(signature));
  OpOptions o;
  o.new_shape = std::move(new_shape);
  b_.AddNode(subgraph_, "RESHAPE", {input, shape_tensor}, {output}, o, Version("RESHAPE"));
  return output;
}

int32_t LayerBuilder::Softmax(int32_t input, float beta, const std::string& name) {
  Quantization q;
  // Upstream's quantized softmax requires output scale 1/256 with the type's minimum as zero point.
  if (quantized())
    q = Quantization{{1.0f / 256}, {flavour_ == NumericFlavour::kInt8PerChannel ? -128 : 0}, 0};
  const int32_t output = Output(name, input, Shape(input), {0.0f, 1.0f}, std::move(q));
  OpOptions o;
  o.beta = beta;
  b_.AddNode(subgraph_, "SOFTMAX", {input}, {output}, o, Version("SOFTMAX"));
  return output;
}

int32_t LayerBuilder::Quantize(int32_t float_input, float lo, float hi, const std::string& name) {
  assert(quantized() && "QUANTIZE belongs to the quantized flavours");
  const int32_t output = Output(name, float_input, Shape(float_input), {lo, hi});
  b_.AddNode(subgraph_, "QUANTIZE", {float_input}, {output}, {}, 1);
  return output;
}

int32_t LayerBuilder::Dequantize(int32_t quantized_input, const std::string& name) {
  assert(quantized() && "DEQUANTIZE of activations belongs to the quantized flavours");
  const Tensor& in = b_.tensor(subgraph_, quantized_input);
  std::vector<int32_t> signature = in.shape_signature;
  const int32_t output =
      b_.AddTensor(subgraph_, name, TensorType::kFloat32, in.shape, {}, std::move(signature));
  b_.AddNode(subgraph_, "DEQUANTIZE", {quantized_input}, {output}, {}, Version("DEQUANTIZE"));
  return output;
}

}  // namespace tfa
