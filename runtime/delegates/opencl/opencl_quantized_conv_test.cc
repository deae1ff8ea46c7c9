// Quantized convolutions on the OpenCL delegate against the runtime's integer kernels, over random
// windows, activations and quantization: int8 with per-channel weights on the dimension each op
// quantizes (CONV_2D 0, DEPTHWISE_CONV_2D 3) or per-tensor, uint8 per-tensor, any zero points.
// The delegate computes in float between float twins (opencl_quantization.h), as upstream's GPU
// delegate does, so every output must land within one quantization step of the integer kernel's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/testing/delegate_run_checks.h"

namespace tfa::runtime {
namespace {

using testing::RunModel;

OpenClDelegate* SharedDelegate() {
  static std::unique_ptr<Delegate> delegate = [] {
    auto created = CreateOpenClDelegate();
    return created.ok() ? std::move(*created) : nullptr;
  }();
  return static_cast<OpenClDelegate*>(delegate.get());
}

// One random case, described in words for the failure message.
struct ConvCase {
  bool depthwise = false;
  bool uint8 = false;
  bool per_channel = false;
  int32_t h = 0, w = 0, in_c = 0, out_c = 0, multiplier = 1, kh = 0, kw = 0;
  int32_t stride = 1, dilation = 1;
  Padding padding = Padding::kSame;
  Activation activation = Activation::kNone;
  float in_scale = 0, out_scale = 0;
  int32_t in_zero = 0, out_zero = 0, w_zero = 0;
  std::vector<float> w_scales;

  std::string Describe() const {
    return std::string(depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D") + (uint8 ? " uint8" : " int8") +
           (per_channel ? " per-channel" : " per-tensor") + " in [1," + std::to_string(h) + "," +
           std::to_string(w) + "," + std::to_string(in_c) + "] out_c " + std::to_string(out_c) +
           " kernel " + std::to_string(kh) + "x" + std::to_string(kw) + " stride " +
           std::to_string(stride) + " dilation " + std::to_string(dilation) +
           (padding == Padding::kSame ? " SAME" : " VALID") + " activation " +
           ActivationName(activation) + " in " + std::to_string(in_scale) + "/" +
           std::to_string(in_zero) + " out " + std::to_string(out_scale) + "/" +
           std::to_string(out_zero) + " weights zero point " + std::to_string(w_zero);
  }
};

int32_t OutExtent(const ConvCase& c, int32_t in, int32_t k) {
  const int32_t effective = (k - 1) * c.dilation + 1;
  return c.padding == Padding::kSame ? (in + c.stride - 1) / c.stride
                                     : (in - effective + c.stride) / c.stride;
}

ConvCase RandomCase(std::mt19937& rng) {
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto real = [&rng](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  ConvCase c;
  c.depthwise = pick(0, 2) == 0;
  c.uint8 = pick(0, 3) == 0;
  c.per_channel = !c.uint8 && pick(0, 3) != 0;
  c.kh = pick(1, 3);
  c.kw = pick(1, 3);
  c.stride = pick(1, 2);
  c.dilation = pick(1, 2);
  c.padding = pick(0, 1) ? Padding::kSame : Padding::kValid;
  const int32_t min_extent = (std::max(c.kh, c.kw) - 1) * c.dilation + 1;
  c.h = pick(min_extent, min_extent + 6);
  c.w = pick(min_extent, min_extent + 6);
  c.in_c = pick(1, 8);
  c.multiplier = c.depthwise ? pick(1, 2) : 1;
  c.out_c = c.depthwise ? c.in_c * c.multiplier : pick(1, 8);
  const Activation activations[] = {Activation::kNone, Activation::kRelu, Activation::kRelu6,
                                    Activation::kReluN1To1};
  c.activation = activations[pick(0, 3)];
  c.in_scale = real(0.005f, 0.05f);
  c.in_zero = c.uint8 ? pick(0, 255) : pick(-128, 127);
  // int8 weights are symmetric (upstream's kernels require zero points of 0); uint8 ones not.
  c.w_zero = c.uint8 ? pick(0, 255) : 0;
  const int32_t channels = c.per_channel ? c.out_c : 1;
  for (int32_t k = 0; k < channels; ++k) c.w_scales.push_back(real(0.001f, 0.02f));
  // An output scale that puts typical sums tens of steps from the zero point, sometimes past the
  // range (saturation).
  const int32_t depth = c.kh * c.kw * (c.depthwise ? 1 : c.in_c);
  c.out_scale =
      c.in_scale * c.w_scales[0] * 64.0f * std::sqrt(static_cast<float>(depth)) * real(0.25f, 2.0f);
  c.out_zero = c.uint8 ? pick(0, 255) : pick(-128, 127);
  return c;
}

Quantization Affine(std::vector<float> scales, int64_t zero_point, int32_t dimension = 0) {
  Quantization q;
  q.zero_point.assign(scales.size(), zero_point);
  q.scale = std::move(scales);
  q.quantized_dimension = dimension;
  return q;
}

std::string WriteCase(const ConvCase& c, std::mt19937& rng, int index) {
  const TensorType type = c.uint8 ? TensorType::kUInt8 : TensorType::kInt8;
  ModelBuilder b("quantized_conv_" + std::to_string(index));
  b.AddSubgraph("main");
  const std::vector<int32_t> w_shape = c.depthwise
                                           ? std::vector<int32_t>{1, c.kh, c.kw, c.out_c}
                                           : std::vector<int32_t>{c.out_c, c.kh, c.kw, c.in_c};
  int64_t w_count = 1;
  for (int32_t d : w_shape) w_count *= d;
  std::vector<uint8_t> w_bytes(static_cast<size_t>(w_count));
  for (uint8_t& v : w_bytes) {
    v = static_cast<uint8_t>(
        std::uniform_int_distribution<int>(c.uint8 ? 0 : -127, c.uint8 ? 255 : 127)(rng));
  }
  const int32_t w_dimension = c.depthwise ? 3 : 0;
  const int32_t weights =
      b.AddConstant(0, "w", type, w_shape, w_bytes, Affine(c.w_scales, c.w_zero, w_dimension));
  std::vector<float> bias_scales;
  for (float s : c.w_scales) bias_scales.push_back(c.in_scale * s);
  std::vector<int32_t> bias_values(static_cast<size_t>(c.out_c));
  for (int32_t& v : bias_values) v = std::uniform_int_distribution<int32_t>(-3000, 3000)(rng);
  const int32_t bias = b.AddConstant(0, "bias", TensorType::kInt32, {c.out_c},
                                     Int32Bytes(bias_values), Affine(bias_scales, 0));
  const int32_t input =
      b.AddTensor(0, "in", type, {1, c.h, c.w, c.in_c}, Affine({c.in_scale}, c.in_zero));
  const int32_t output =
      b.AddTensor(0, "out", type, {1, OutExtent(c, c.h, c.kh), OutExtent(c, c.w, c.kw), c.out_c},
                  Affine({c.out_scale}, c.out_zero));
  OpOptions o;
  o.padding = c.padding;
  o.stride_h = o.stride_w = c.stride;
  o.dilation_h = o.dilation_w = c.dilation;
  o.fused_activation = c.activation;
  o.depth_multiplier = c.multiplier;
  b.SetInputs(0, {input});
  b.AddNode(0, c.depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D", {input, weights, bias}, {output}, o,
            /*version=*/3);
  b.SetOutputs(0, {output});
  const SyntheticModel model = std::move(b).Finish();
  return testing::WriteTempFile("quantized_conv_" + std::to_string(index) + ".tflite",
                                WriteTflite(model.model, model.data));
}

int MaxSteps(const RuntimeTensor& a, const RuntimeTensor& b) {
  int worst = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    const int x =
        a.type == TensorType::kUInt8 ? a.Data<const uint8_t>()[i] : a.Data<const int8_t>()[i];
    const int y =
        b.type == TensorType::kUInt8 ? b.Data<const uint8_t>()[i] : b.Data<const int8_t>()[i];
    worst = std::max(worst, std::abs(x - y));
  }
  return worst;
}

// Under AddressSanitizer (CI's second stage) a tenth of the cases: each builds two interpreters.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kCases = 5;
#else
constexpr int kCases = 48;
#endif

TEST(OpenClQuantizedConvTest, EveryOutputWithinOneStepOfTheIntegerKernel) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  std::mt19937 rng(20261129);
  for (int index = 0; index < kCases; ++index) {
    const ConvCase c = RandomCase(rng);
    SCOPED_TRACE(c.Describe());
    const std::string path = WriteCase(c, rng, index);
    auto gpu = RunModel(path, {SharedDelegate()});
    auto cpu = RunModel(path, {});
    ASSERT_TRUE(gpu && cpu);
    ASSERT_EQ(testing::Measure(*gpu).delegated_partitions, 1);
    const int32_t out = cpu->outputs()[0];
    EXPECT_LE(MaxSteps(gpu->tensor(out), cpu->tensor(out)), 1);
  }
}

}  // namespace
}  // namespace tfa::runtime
