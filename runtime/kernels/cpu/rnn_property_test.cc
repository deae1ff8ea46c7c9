// Property test: the float RNN kernels (products on Eigen) agree with their plain twins
// (upstream's portable loops) within float rounding, over random sizes, values, layouts and
// activations, and over two invocations in a row (the second reads the hidden state the first
// left). SIGN_BIT is left out: it turns a rounding difference at zero into a difference of 1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/rnn.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<float> Reals(size_t count) {
  std::vector<float> v;
  for (int x : *rc::gen::container<std::vector<int>>(count, rc::gen::inRange(-1000, 1001)))
    v.push_back(static_cast<float>(x) / 500.0f);
  return v;
}

struct RandomRnn {
  bool sequence = false, time_major = false;
  int32_t batch = 1, time = 1, input_size = 1, units = 1;
  Activation activation = Activation::kNone;
  std::vector<float> input, weights, recurrent, bias, hidden;
};

RandomRnn Generate() {
  RandomRnn c;
  c.sequence = *rc::gen::arbitrary<bool>();
  c.time_major = c.sequence && *rc::gen::arbitrary<bool>();
  c.batch = *rc::gen::inRange(1, 5);
  c.time = c.sequence ? *rc::gen::inRange(1, 5) : 1;
  c.input_size = *rc::gen::inRange(1, 12);
  c.units = *rc::gen::inRange(1, 12);
  c.activation = *rc::gen::element(Activation::kNone, Activation::kRelu, Activation::kReluN1To1,
                                   Activation::kRelu6, Activation::kTanh);
  const auto n = [](int64_t a, int64_t b) { return static_cast<size_t>(a * b); };
  c.input = Reals(n(c.batch * c.time, c.input_size));
  c.weights = Reals(n(c.units, c.input_size));
  // Recurrent rows of absolute sum below 1, so eight steps stay of the input's magnitude.
  c.recurrent = Reals(n(c.units, c.units));
  for (float& r : c.recurrent) r *= 0.5f / static_cast<float>(c.units);
  c.bias = Reals(static_cast<size_t>(c.units));
  c.hidden = Reals(n(c.batch, c.units));
  return c;
}

// Two invocations of `eval` (the kernel's Prepare either way): both outputs, then the state.
std::vector<float> Run(const RandomRnn& c, KernelFunction eval) {
  KernelRunner k(c.sequence ? "UNIDIRECTIONAL_SEQUENCE_RNN" : "RNN");
  k.options().fused_activation = c.activation;
  k.options().time_major = c.time_major;
  std::vector<int32_t> shape = {c.batch, c.input_size};
  if (c.sequence) {
    shape = c.time_major ? std::vector<int32_t>{c.time, c.batch, c.input_size}
                         : std::vector<int32_t>{c.batch, c.time, c.input_size};
  }
  k.AddFloatInput(shape, c.input);
  k.AddFloatInput({c.units, c.input_size}, c.weights);
  k.AddFloatInput({c.units, c.units}, c.recurrent);
  k.AddFloatInput({c.units}, c.bias);
  RuntimeTensor& hidden = k.AddFloatInput({c.batch, c.units}, c.hidden);
  shape.back() = c.units;
  k.AddOutput(TensorType::kFloat32, shape);
  const KernelRegistration kernel = {c.sequence ? PrepareUnidirectionalSequenceRnn : PrepareRnn,
                                     eval};
  std::vector<float> all;
  for (int run = 0; run < 2; ++run) {
    RC_ASSERT(k.RunWith(kernel).ok());
    const std::vector<float> out = k.Output();
    all.insert(all.end(), out.begin(), out.end());
  }
  const float* state = hidden.Data<const float>();
  all.insert(all.end(), state, state + c.batch * c.units);
  return all;
}

RC_GTEST_PROP(RnnProperty, EigenAgreesWithThePortableLoops, ()) {
  const RandomRnn c = Generate();
  const std::vector<float> fast = Run(c, c.sequence ? EvalUnidirectionalSequenceRnn : EvalRnn);
  const std::vector<float> plain =
      Run(c, c.sequence ? EvalUnidirectionalSequenceRnnReference : EvalRnnReference);
  RC_ASSERT(fast.size() == plain.size());
  for (size_t i = 0; i < fast.size(); ++i)
    RC_ASSERT(std::abs(fast[i] - plain[i]) <= 1e-4f * (1.0f + std::abs(plain[i])));
}

}  // namespace
}  // namespace tfa::runtime
