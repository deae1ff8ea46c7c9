// Property tests: the fast quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels
// (gemmlowp, chunked im2col, threads) store exactly what their plain reference twins store, on
// random shapes, windows, zero points, scales, biases and activations, int8 and uint8.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_conv.h"
#include "runtime/kernels/cpu/quantized_conv_reference.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;
using testing::QuantizedValues;

struct RandomOp {
  std::string op;
  OpOptions options;
  TensorType type = TensorType::kInt8;
  QuantizedValues input, weights, bias;
  bool has_bias = true;
  std::vector<int32_t> output_shape;
  Quantization output_quantization;
  int threads = 1;
};

std::vector<int32_t> StoredValues(TensorType type, int64_t count) {
  const int lo = type == TensorType::kUInt8 ? 0 : -128;
  const int hi = type == TensorType::kUInt8 ? 255 : 127;
  return *rc::gen::container<std::vector<int32_t>>(static_cast<size_t>(count),
                                                   rc::gen::inRange(lo, hi + 1));
}

float Scale(float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(*rc::gen::inRange(0, 1001)) / 1000.0f;
}

// int8 weights: symmetric, per channel along `channel_dim` or per tensor; uint8: per tensor with a
// zero point.
Quantization WeightQuantization(TensorType type, int32_t channels, int channel_dim) {
  Quantization q;
  if (type == TensorType::kUInt8) return PerTensor(Scale(0.001f, 0.02f), *rc::gen::inRange(0, 256));
  const int32_t scales = *rc::gen::element(1, channels);
  for (int32_t c = 0; c < scales; ++c) {
    q.scale.push_back(Scale(0.001f, 0.02f));
    q.zero_point.push_back(0);
  }
  q.quantized_dimension = channel_dim;
  return q;
}

RandomOp GenerateOp() {
  RandomOp r;
  r.op = *rc::gen::element<std::string>("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED");
  r.type = *rc::gen::element(TensorType::kInt8, TensorType::kUInt8);
  r.threads = *rc::gen::element(1, 3);
  r.options.fused_activation =
      *rc::gen::element(Activation::kNone, Activation::kRelu, Activation::kRelu6);
  const int32_t type_min = r.type == TensorType::kUInt8 ? 0 : -128;
  const Quantization input_q =
      PerTensor(Scale(0.01f, 0.1f), *rc::gen::inRange(type_min, type_min + 256));
  int32_t channels = 0;
  if (r.op == "FULLY_CONNECTED") {
    const int32_t batch = *rc::gen::inRange(1, 40);
    const int32_t in_dim = *rc::gen::inRange(1, 80);
    channels = *rc::gen::inRange(1, 24);
    r.input = {r.type, {batch, in_dim}, StoredValues(r.type, int64_t{batch} * in_dim), input_q};
    r.weights = {r.type,
                 {channels, in_dim},
                 StoredValues(r.type, int64_t{channels} * in_dim),
                 WeightQuantization(r.type, channels, 0)};
    r.output_shape = {batch, channels};
  } else {
    auto& o = r.options;
    o.padding = *rc::gen::element(Padding::kSame, Padding::kValid);
    o.stride_h = *rc::gen::inRange(1, 3);
    o.stride_w = *rc::gen::inRange(1, 3);
    o.dilation_h = *rc::gen::inRange(1, 3);
    o.dilation_w = *rc::gen::inRange(1, 3);
    const int32_t batches = *rc::gen::inRange(1, 3);
    const int32_t in_h = *rc::gen::inRange(1, 30);
    const int32_t in_w = *rc::gen::inRange(1, 30);
    const int32_t in_c = *rc::gen::inRange(1, 9);
    const int32_t kh = *rc::gen::inRange(1, 4);
    const int32_t kw = *rc::gen::inRange(1, 4);
    const int32_t out_h = ConvOutputSize(o.padding, in_h, kh, o.stride_h, o.dilation_h);
    const int32_t out_w = ConvOutputSize(o.padding, in_w, kw, o.stride_w, o.dilation_w);
    RC_PRE(out_h > 0 && out_w > 0);
    r.input = {r.type,
               {batches, in_h, in_w, in_c},
               StoredValues(r.type, int64_t{batches} * in_h * in_w * in_c),
               input_q};
    if (r.op == "CONV_2D") {
      channels = *rc::gen::inRange(1, 12);
      r.weights = {r.type,
                   {channels, kh, kw, in_c},
                   StoredValues(r.type, int64_t{channels} * kh * kw * in_c),
                   WeightQuantization(r.type, channels, 0)};
    } else {
      o.depth_multiplier = *rc::gen::inRange(1, 4);
      channels = in_c * o.depth_multiplier;
      r.weights = {r.type,
                   {1, kh, kw, channels},
                   StoredValues(r.type, int64_t{kh} * kw * channels),
                   WeightQuantization(r.type, channels, 3)};
    }
    r.output_shape = {batches, out_h, out_w, channels};
  }
  r.has_bias = *rc::gen::arbitrary<bool>();
  r.bias = {TensorType::kInt32,
            {channels},
            *rc::gen::container<std::vector<int32_t>>(static_cast<size_t>(channels),
                                                      rc::gen::inRange(-5000, 5001)),
            {}};
  r.output_quantization =
      PerTensor(Scale(0.02f, 0.3f), *rc::gen::inRange(type_min, type_min + 256));
  return r;
}

// The op's stored outputs through `kernel`, or the kernel's error.
std::vector<int32_t> Run(const RandomOp& r, const KernelRegistration& kernel,
                         const KernelThreadPool* pool) {
  QuantizedRunner runner(r.op);
  runner.runner().options() = r.options;
  runner.runner().set_thread_pool(pool);
  runner.AddInput(r.input);
  runner.AddInput(r.weights);
  if (r.has_bias) runner.AddInput(r.bias);
  runner.AddOutput(r.type, r.output_shape, r.output_quantization);
  const Status status = kernel.prepare ? runner.runner().RunWith(kernel) : runner.runner().Run();
  RC_ASSERT(status.ok());
  return runner.Output(r.type);
}

KernelRegistration ReferenceKernel(const std::string& op) {
  if (op == "CONV_2D") return {PrepareQuantizedConv2D, EvalQuantizedConv2DReference};
  if (op == "DEPTHWISE_CONV_2D") {
    return {PrepareQuantizedDepthwiseConv2D, EvalQuantizedDepthwiseConv2DReference};
  }
  return {PrepareQuantizedFullyConnected, EvalQuantizedFullyConnectedReference};
}

RC_GTEST_PROP(QuantizedConvProperty, FastKernelsEqualTheirReferenceTwins, ()) {
  const RandomOp r = GenerateOp();
  static const auto* pool = new KernelThreadPool(3);
  const std::vector<int32_t> fast = Run(r, KernelRegistration{}, r.threads > 1 ? pool : nullptr);
  const std::vector<int32_t> reference = Run(r, ReferenceKernel(r.op), nullptr);
  RC_ASSERT(fast == reference);
}

}  // namespace
}  // namespace tfa::runtime
