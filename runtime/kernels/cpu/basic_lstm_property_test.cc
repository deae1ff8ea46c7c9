// Property test: the basic LSTM kernel (Eigen's GEMM and cell for float32; gemmlowp's product
// from four batch rows for uint8) agrees with its plain twin, upstream's reference_ops::LstmCell
// loop for loop: bit-exact for uint8, within float rounding for float32, over random sizes and
// values and two steps in a row (the second reads the state the first carried over).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "runtime/kernels/cpu/basic_lstm.h"
#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct RandomLstm {
  bool quantized = false;
  int32_t batch = 1, input_depth = 1, depth = 1;
  std::vector<float> float_input, float_activation, float_weights, float_bias, float_state;
  std::vector<uint8_t> input, activation, weights;
  std::vector<int32_t> bias;
  std::vector<int16_t> state;
  float weights_scale = 0.01f;
  int64_t weights_zero_point = 128;
};

RandomLstm Generate(bool quantized) {
  RandomLstm c;
  c.quantized = quantized;
  c.batch = *rc::gen::inRange(1, 7);
  c.input_depth = *rc::gen::inRange(1, 9);
  c.depth = *rc::gen::inRange(1, 9);
  const auto n = [](int64_t a, int64_t b) { return static_cast<size_t>(a * b); };
  const size_t inputs = n(c.batch, c.input_depth), states = n(c.batch, c.depth);
  const size_t weights = n(4 * c.depth, c.input_depth + c.depth);
  if (quantized) {
    const auto bytes = [](size_t count) {
      return *rc::gen::container<std::vector<uint8_t>>(count, rc::gen::arbitrary<uint8_t>());
    };
    c.input = bytes(inputs);
    c.activation = bytes(states);
    c.weights = bytes(weights);
    c.bias = *rc::gen::container<std::vector<int32_t>>(static_cast<size_t>(4 * c.depth),
                                                       rc::gen::inRange(-60000, 60001));
    c.state = *rc::gen::container<std::vector<int16_t>>(states, rc::gen::arbitrary<int16_t>());
    c.weights_scale = static_cast<float>(*rc::gen::inRange(1, 200)) / 10000.0f;
    c.weights_zero_point = *rc::gen::inRange(0, 256);
    return c;
  }
  const auto reals = [](size_t count) {
    std::vector<float> v;
    for (int x : *rc::gen::container<std::vector<int>>(count, rc::gen::inRange(-1000, 1001)))
      v.push_back(static_cast<float>(x) / 500.0f);
    return v;
  };
  c.float_input = reals(inputs);
  c.float_activation = reals(states);
  c.float_weights = reals(weights);
  c.float_bias = reals(static_cast<size_t>(4 * c.depth));
  c.float_state = reals(states);
  return c;
}

// Runs two steps of `c` with `eval` (the fast kernel's Prepare either way); returns the outputs
// of both as doubles: activation, state, concatenation, gates.
std::vector<double> Run(const RandomLstm& c, KernelFunction eval) {
  KernelRunner k("LSTM");
  k.options().lstm_basic_kernel = true;
  k.options().fused_activation = Activation::kTanh;
  std::deque<Quantization> quantizations;
  const auto quantize = [&quantizations](RuntimeTensor& t, float scale, int64_t zero_point) {
    Quantization& q = quantizations.emplace_back();
    q.scale = {scale};
    q.zero_point = {zero_point};
    t.quantization = &q;
  };
  const int32_t b = c.batch, total = c.input_depth + c.depth, gates = 4 * c.depth;
  if (c.quantized) {
    quantize(k.AddInput(TensorType::kUInt8, {b, c.input_depth}, c.input), 1.0f / 128, 128);
    quantize(k.AddInput(TensorType::kUInt8, {b, c.depth}, c.activation), 1.0f / 128, 128);
    quantize(k.AddInput(TensorType::kUInt8, {gates, total}, c.weights), c.weights_scale,
             c.weights_zero_point);
    quantize(k.AddInput(TensorType::kInt32, {gates}, c.bias), c.weights_scale / 128, 0);
    quantize(k.AddInput(TensorType::kInt16, {b, c.depth}, c.state), 1.0f / 2048, 0);
    quantize(k.AddOutput(TensorType::kUInt8, {b, c.depth}), 1.0f / 128, 128);
    quantize(k.AddOutput(TensorType::kInt16, {b, c.depth}), 1.0f / 2048, 0);
    quantize(k.AddOutput(TensorType::kUInt8, {b, total}), 1.0f / 128, 128);
    quantize(k.AddOutput(TensorType::kInt16, {b, gates}), 1.0f / 4096, 0);
  } else {
    k.AddFloatInput({b, c.input_depth}, c.float_input);
    k.AddFloatInput({b, c.depth}, c.float_activation);
    k.AddFloatInput({gates, total}, c.float_weights);
    k.AddFloatInput({gates}, c.float_bias);
    k.AddFloatInput({b, c.depth}, c.float_state);
    k.AddOutput(TensorType::kFloat32, {b, c.depth});
    k.AddOutput(TensorType::kFloat32, {b, c.depth});
    k.AddOutput(TensorType::kFloat32, {b, total});
    k.AddOutput(TensorType::kFloat32, {b, gates});
  }
  std::vector<double> values;
  for (int step = 0; step < 2; ++step) {
    RC_ASSERT(k.RunWith({PrepareBasicLstm, eval}).ok());
    for (size_t i = 0; i < 4; ++i) {
      if (!c.quantized) {
        for (float v : k.Output<float>(i)) values.push_back(v);
      } else if (i % 2 == 0) {
        for (uint8_t v : k.Output<uint8_t>(i)) values.push_back(v);
      } else {
        for (int16_t v : k.Output<int16_t>(i)) values.push_back(v);
      }
    }
  }
  return values;
}

RC_GTEST_PROP(BasicLstmProperty, Uint8KernelIsBitExactToTheReference, ()) {
  const RandomLstm c = Generate(true);
  RC_ASSERT(Run(c, EvalBasicLstm) == Run(c, EvalBasicLstmReference));
}

RC_GTEST_PROP(BasicLstmProperty, FloatKernelAgreesWithTheReference, ()) {
  const RandomLstm c = Generate(false);
  const std::vector<double> fast = Run(c, EvalBasicLstm);
  const std::vector<double> reference = Run(c, EvalBasicLstmReference);
  RC_ASSERT(fast.size() == reference.size());
  for (size_t i = 0; i < fast.size(); ++i)
    RC_ASSERT(std::abs(fast[i] - reference[i]) <= 1e-5 * (1.0 + std::abs(reference[i])));
}

}  // namespace
}  // namespace tfa::runtime
