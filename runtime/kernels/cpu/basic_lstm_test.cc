#include "runtime/kernels/cpu/basic_lstm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// A basic-kernel LSTM node with its tensors' quantizations kept alive.
struct BasicLstmRunner {
  KernelRunner k{"LSTM"};
  std::deque<Quantization> quantizations;

  BasicLstmRunner() {
    k.options().lstm_basic_kernel = true;
    k.options().fused_activation = Activation::kTanh;
  }
  RuntimeTensor& Quantized(RuntimeTensor& t, float scale, int64_t zero_point) {
    Quantization& q = quantizations.emplace_back();
    q.scale = {scale};
    q.zero_point = {zero_point};
    t.quantization = &q;
    return t;
  }
};

// upstream's tflite/kernels/quantized_lstm_test.cc BasicQuantizedLstmTest (the NNAPI figures):
// 2 batches, 2 inputs, 4 units, three steps of one invocation each.
const std::vector<uint8_t> kQuantizedWeights = {
    254, 206, 77,  168, 146, 250, 71,  20,  215, 6,   235, 171, 223, 7,   118, 225,
    10,  218, 59,  130, 174, 26,  171, 108, 172, 60,  205, 65,  133, 34,  14,  0,
    140, 168, 29,  49,  240, 223, 133, 56,  206, 109, 142, 64,  246, 216, 54,  183,
    137, 240, 103, 52,  24,  50,  68,  51,  237, 112, 132, 179, 0,   220, 89,  23,
    158, 110, 69,  4,   207, 253, 3,   169, 106, 214, 67,  23,  195, 187, 59,  158,
    45,  3,   11,  99,  119, 132, 49,  205, 109, 10,  129, 218, 11,  98,  218, 48};
const std::vector<int32_t> kQuantizedBiases = {-7876,  13488,  -726,   32839,  39481,  48624,
                                               48976,  -21419, 9206,   -46884, -11693, -38724,
                                               -58999, -17050, -41852, -40538};
constexpr float kQuantizedWeightsScale = 0.00408021f;
constexpr int64_t kQuantizedWeightsZeroPoint = 100;
// Per batch, the sequence of inputs (2 a step) and the golden activations (4 a step).
const std::vector<std::vector<uint8_t>> kQuantizedInputs = {{154, 166, 166, 179, 141, 141},
                                                            {100, 200, 50, 150, 111, 222}};
const std::vector<std::vector<uint8_t>> kQuantizedGoldens = {
    {131, 152, 136, 109, 138, 150, 145, 111, 139, 152, 146, 113},
    {131, 153, 135, 107, 134, 154, 140, 111, 140, 154, 145, 108}};

TEST(BasicLstmTest, QuantizedMatchesUpstreamGoldens) {
  BasicLstmRunner r;
  RuntimeTensor& input = r.Quantized(
      r.k.AddInput(TensorType::kUInt8, {2, 2}, std::vector<uint8_t>(4, 0)), 1.0f / 128, 128);
  // The test feeds stored zeros as the first previous activation and state.
  r.Quantized(r.k.AddInput(TensorType::kUInt8, {2, 4}, std::vector<uint8_t>(8, 0)), 1.0f / 128,
              128);
  r.Quantized(r.k.AddInput(TensorType::kUInt8, {16, 6}, kQuantizedWeights), kQuantizedWeightsScale,
              kQuantizedWeightsZeroPoint);
  r.Quantized(r.k.AddInput(TensorType::kInt32, {16}, kQuantizedBiases),
              kQuantizedWeightsScale / 128, 0);
  r.Quantized(r.k.AddInput(TensorType::kInt16, {2, 4}, std::vector<int16_t>(8, 0)), 1.0f / 2048, 0);
  r.Quantized(r.k.AddOutput(TensorType::kUInt8, {2, 4}), 1.0f / 128, 128);
  r.Quantized(r.k.AddOutput(TensorType::kInt16, {2, 4}), 1.0f / 2048, 0);
  r.Quantized(r.k.AddOutput(TensorType::kUInt8, {2, 6}), 1.0f / 128, 128);
  r.Quantized(r.k.AddOutput(TensorType::kInt16, {2, 16}), 1.0f / 128, 128);
  for (size_t step = 0; step < 3; ++step) {
    for (size_t b = 0; b < 2; ++b) {
      for (size_t i = 0; i < 2; ++i)
        input.Data<uint8_t>()[b * 2 + i] = kQuantizedInputs[b][step * 2 + i];
    }
    ASSERT_TRUE(r.k.Run().ok());
    const auto out = r.k.Output<uint8_t>(0);
    for (size_t b = 0; b < 2; ++b) {
      for (size_t c = 0; c < 4; ++c) {
        EXPECT_EQ(out[b * 4 + c], kQuantizedGoldens[b][step * 4 + c])
            << "step " << step << " batch " << b << " unit " << c;
      }
    }
  }
}

// upstream's GPU LSTM task test (tflite/delegates/gpu/common/tasks/lstm_test_util.cc) gives the
// cell's figures: gates -ln 2, ln 3, -ln 4, -ln 5 and previous state 1..4 make the state
// (4 + 3k) / 15 and the activation tanh(state) / 6. Identity weights on the input part make the
// fully connected product those gates.
TEST(BasicLstmTest, FloatCellMatchesUpstreamFigures) {
  BasicLstmRunner r;
  std::vector<float> gates;
  for (float v : {-std::log(2.0f), std::log(3.0f), -std::log(4.0f), -std::log(5.0f)})
    gates.insert(gates.end(), 4, v);
  std::vector<float> weights(16 * 20, 0.0f);
  for (int i = 0; i < 16; ++i) weights[static_cast<size_t>(i * 20 + i)] = 1.0f;
  r.k.AddFloatInput({1, 16}, gates);
  RuntimeTensor& prev_activation = r.k.AddFloatInput({1, 4}, {0.5f, -0.5f, 0.25f, 1.0f});
  r.k.AddFloatInput({16, 20}, weights);
  r.k.AddFloatInput({16}, std::vector<float>(16, 0.0f));
  RuntimeTensor& prev_state = r.k.AddFloatInput({1, 4}, {1, 2, 3, 4});
  r.k.AddOutput(TensorType::kFloat32, {1, 4});
  r.k.AddOutput(TensorType::kFloat32, {1, 4});
  r.k.AddOutput(TensorType::kFloat32, {1, 20});
  r.k.AddOutput(TensorType::kFloat32, {1, 16});
  ASSERT_TRUE(r.k.Run().ok());
  const auto activation = r.k.Output(0), state = r.k.Output(1), concat = r.k.Output(2);
  for (int c = 0; c < 4; ++c) {
    const double expected_state = (7.0 + 3.0 * c) / 15.0;
    EXPECT_NEAR(state[static_cast<size_t>(c)], expected_state, 1e-6);
    EXPECT_NEAR(activation[static_cast<size_t>(c)], std::tanh(expected_state) / 6.0, 1e-6);
    // The next invocation reads them as its previous activation and state.
    EXPECT_EQ(prev_state.Data<float>()[c], state[static_cast<size_t>(c)]);
    EXPECT_EQ(prev_activation.Data<float>()[c], activation[static_cast<size_t>(c)]);
  }
  // The concatenation is [input, previous activation] as it was before the step.
  EXPECT_EQ(concat[16], 0.5f);
  EXPECT_EQ(concat[19], 1.0f);
  EXPECT_EQ(r.k.Output(3), gates);
}

// A basic LSTM of 1 batch, 2 inputs and 1 unit, float32 or uint8 (int32 bias, int16 state with
// upstream's 2^-11 scale), whose tensors a test changes before running it.
struct SmallLstm {
  BasicLstmRunner r;
  std::vector<RuntimeTensor*> inputs, outputs;

  explicit SmallLstm(bool quantized) {
    const auto add = [&](TensorType float_type, TensorType quantized_type,
                         std::vector<int32_t> shape) -> RuntimeTensor& {
      int64_t n = 1;
      for (int32_t d : shape) n *= d;
      return r.k.AddInput(quantized ? quantized_type : float_type, std::move(shape),
                          std::vector<int32_t>(static_cast<size_t>(n), 0));
    };
    const TensorType f32 = TensorType::kFloat32, u8 = TensorType::kUInt8;
    inputs = {&add(f32, u8, {1, 2}), &add(f32, u8, {1, 1}), &add(f32, u8, {4, 3}),
              &add(f32, TensorType::kInt32, {4}), &add(f32, TensorType::kInt16, {1, 1})};
    outputs = {&r.k.AddOutput(quantized ? u8 : f32, {1, 1}),
               &r.k.AddOutput(quantized ? TensorType::kInt16 : f32, {1, 1}),
               &r.k.AddOutput(quantized ? u8 : f32, {1, 3}),
               &r.k.AddOutput(quantized ? TensorType::kInt16 : f32, {1, 4})};
    if (quantized) r.Quantized(*outputs[1], 1.0f / 2048, 0);
  }
  std::string Run() {
    const Status status = r.k.Run();
    return status.ok() ? "ok" : status.message();
  }
};

// The one-line reasons Prepare gives where upstream's Prepare or Eval fails (the interpreter puts
// the node and op in front).
TEST(BasicLstmTest, RefusesWhatUpstreamRefuses) {
  EXPECT_EQ(SmallLstm(false).Run(), "ok");
  EXPECT_EQ(SmallLstm(true).Run(), "ok");
  SmallLstm int8_input(true);
  int8_input.inputs[0]->type = TensorType::kInt8;
  EXPECT_EQ(int8_input.Run(),
            "input is int8: the basic kernel runs float32 or uint8 input only (upstream's LstmCell "
            "has no other)");
  SmallLstm int32_state(false);
  int32_state.inputs[4]->type = TensorType::kInt32;
  EXPECT_EQ(int32_state.Run(),
            "previous state is int32 where the float32 basic kernel needs float32 (upstream's "
            "LstmCell has no other combination)");
  SmallLstm float_state(true);
  float_state.outputs[1]->type = TensorType::kFloat32;
  EXPECT_EQ(float_state.Run(),
            "state output is float32 where the uint8 basic kernel needs int16 (upstream's "
            "LstmCell has no other combination)");
  SmallLstm narrow_weights(false);
  narrow_weights.inputs[2]->shape = {4, 2};
  EXPECT_EQ(narrow_weights.Run(),
            "weights has shape [4,2]: dimension 1 must be 3 (input depth + activation depth)");
  SmallLstm no_batch(false);
  no_batch.inputs[4]->shape = {2, 1};
  EXPECT_EQ(no_batch.Run(),
            "previous state has shape [2,1]: dimension 0 must be 1 (the input's batch)");
  SmallLstm concat(false);
  concat.outputs[2]->shape = {1, 2};
  EXPECT_EQ(concat.Run(),
            "concatenation output: output shape [1,2] differs from the computed [1,3]");
  SmallLstm five_bits(true);
  five_bits.r.Quantized(*five_bits.outputs[1], 1.0f / 1024, 0);
  EXPECT_EQ(five_bits.Run(),
            "the state output's scale 2^-10 gives it 5 integer bits; upstream's quantized "
            "LstmCell takes 4 only (2^-11)");
  SmallLstm not_power_of_two(true);
  not_power_of_two.r.Quantized(*not_power_of_two.outputs[1], 0.3f, 0);
  EXPECT_EQ(not_power_of_two.Run(),
            "the state output's scale is not a power of two (upstream: the internal state of a "
            "LSTM cell must have a power-of-two scale)");
}

}  // namespace
}  // namespace tfa::runtime
