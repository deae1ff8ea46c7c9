// BIDIRECTIONAL_SEQUENCE_RNN against upstream's own figures (rnn_test_data.h: the cases of
// tflite/kernels/bidirectional_sequence_rnn_test.cc, both batch rows identical): batch- and
// time-major, separate and merged outputs, the auxiliary input with and without cross links, at
// upstream's tolerances (1e-5 for float32 weights; 1.42e-2 for uint8 ones, 3.57e-1 time-major,
// where upstream's hybrid Eval runs the sequence over and over).
#include "runtime/kernels/cpu/bidirectional_sequence_rnn.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/rnn_test_data.h"

namespace tfa::runtime {
namespace {

using rnn_test_data::kInputSize;
using rnn_test_data::kRnnBias;
using rnn_test_data::kRnnGoldenBwOutput;
using rnn_test_data::kRnnGoldenOutput;
using rnn_test_data::kRnnInput;
using rnn_test_data::kRnnWeights;
using rnn_test_data::kSteps;
using rnn_test_data::kUnits;
using rnn_test_data::RecurrentWeights;
using rnn_test_data::Weights;
using testing::KernelRunner;

enum class Aux { kNone, kCrossLinks, kReplacesBackwardInput };

struct Config {
  TensorType weights = TensorType::kFloat32;
  bool time_major = false, merge = false, asymmetric = false;
  Aux aux = Aux::kNone;
  int32_t input_size = kInputSize, aux_size = 0;
  std::vector<float> input_weights = kRnnWeights, aux_weights;
};

struct Outputs {
  Status status;
  std::vector<float> fw, bw;
};

// Two batch rows; both directions get the same weights, as upstream's test gives them.
Outputs RunBidi(const Config& c, const std::vector<float>& input, const std::vector<float>& aux) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_RNN");
  k.options().fused_activation = Activation::kRelu;
  k.options().time_major = c.time_major;
  k.options().merge_outputs = c.merge;
  k.options().asymmetric_quantize_inputs = c.asymmetric;
  const auto shape = [&c](int32_t depth) {
    return c.time_major ? std::vector<int32_t>{kSteps, 2, depth}
                        : std::vector<int32_t>{2, kSteps, depth};
  };
  Weights weights(c.weights);
  k.AddFloatInput(shape(c.input_size), input);
  for (int direction = 0; direction < 2; ++direction) {
    weights.Add(k, {kUnits, c.input_size}, c.input_weights);
    weights.Add(k, {kUnits, kUnits}, RecurrentWeights());
    k.AddFloatInput({kUnits}, kRnnBias);
    k.AddFloatInput({2, kUnits}, std::vector<float>(2 * kUnits, 0.0f));
  }
  if (c.aux == Aux::kNone) {
    k.AddAbsentInput();
  } else {
    k.AddFloatInput(shape(c.aux_size), aux);
  }
  for (int direction = 0; direction < 2; ++direction) {
    if (c.aux == Aux::kCrossLinks) {
      weights.Add(k, {kUnits, c.aux_size}, c.aux_weights);
    } else {
      k.AddAbsentInput();
    }
  }
  k.AddOutput(TensorType::kFloat32, shape(c.merge ? 2 * kUnits : kUnits));
  if (!c.merge) k.AddOutput(TensorType::kFloat32, shape(kUnits));
  Outputs out;
  out.status = k.Run();
  if (!out.status.ok()) return out;
  out.fw = k.Output(0);
  if (!c.merge) out.bw = k.Output(1);
  return out;
}

// Both batch rows the same sequence of `depth`-wide steps, laid out batch- or time-major.
std::vector<float> Layout(const std::vector<float>& steps, int32_t depth, bool time_major) {
  std::vector<float> out;
  if (!time_major) {
    out = steps;
    out.insert(out.end(), steps.begin(), steps.end());
    return out;
  }
  for (int32_t t = 0; t < kSteps; ++t) {
    for (int b = 0; b < 2; ++b)
      out.insert(out.end(), steps.begin() + t * depth, steps.begin() + (t + 1) * depth);
  }
  return out;
}

// Each step's forward then backward units, both batch rows, as the merged output holds them.
std::vector<float> Merged(bool time_major) {
  std::vector<float> steps;
  for (int32_t t = 0; t < kSteps; ++t) {
    steps.insert(steps.end(), kRnnGoldenOutput.begin() + t * kUnits,
                 kRnnGoldenOutput.begin() + (t + 1) * kUnits);
    steps.insert(steps.end(), kRnnGoldenBwOutput.begin() + t * kUnits,
                 kRnnGoldenBwOutput.begin() + (t + 1) * kUnits);
  }
  return Layout(steps, 2 * kUnits, time_major);
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

// BlackBoxTest: batch-major, float32 and uint8 weights, inputs quantized either way.
TEST(BidirectionalSequenceRnn, BatchMajorMatchesUpstreamGoldens) {
  for (TensorType type : {TensorType::kFloat32, TensorType::kUInt8}) {
    for (bool asymmetric : {false, true}) {
      Config c;
      c.weights = type;
      c.asymmetric = asymmetric;
      const Outputs out = RunBidi(c, Layout(kRnnInput, kInputSize, false), {});
      ASSERT_TRUE(out.status.ok()) << out.status.message();
      const double tolerance = type == TensorType::kFloat32 ? 1e-5 : 1.42e-2;
      ExpectNear(out.fw, Layout(kRnnGoldenOutput, kUnits, false), tolerance);
      ExpectNear(out.bw, Layout(kRnnGoldenBwOutput, kUnits, false), tolerance);
    }
  }
}

// BlackBoxTestTimeMajor: the forward output; the hybrid kernel repeats the sequence (header).
TEST(BidirectionalSequenceRnn, TimeMajorMatchesUpstreamGoldens) {
  for (TensorType type : {TensorType::kFloat32, TensorType::kUInt8}) {
    for (bool asymmetric : {false, true}) {
      Config c;
      c.weights = type;
      c.asymmetric = asymmetric;
      c.time_major = true;
      const Outputs out = RunBidi(c, Layout(kRnnInput, kInputSize, true), {});
      ASSERT_TRUE(out.status.ok()) << out.status.message();
      ExpectNear(out.fw, Layout(kRnnGoldenOutput, kUnits, true),
                 type == TensorType::kFloat32 ? 1e-5 : 3.57e-1);
    }
  }
}

// BlackBoxTestMergeOutputs (float32 and uint8) and BlackBoxTestTimeMajorMergeOutputs (float32).
TEST(BidirectionalSequenceRnn, MergedOutputsMatchUpstreamGoldens) {
  for (TensorType type : {TensorType::kFloat32, TensorType::kUInt8}) {
    Config c;
    c.weights = type;
    c.merge = true;
    const Outputs out = RunBidi(c, Layout(kRnnInput, kInputSize, false), {});
    ASSERT_TRUE(out.status.ok()) << out.status.message();
    ExpectNear(out.fw, Merged(false), type == TensorType::kFloat32 ? 1e-5 : 1.42e-2);
  }
  Config c;
  c.merge = true;
  c.time_major = true;
  const Outputs out = RunBidi(c, Layout(kRnnInput, kInputSize, true), {});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ExpectNear(out.fw, Merged(true), 1e-5);
}

// BlackBoxTestNoCrossLinkingRegularAndAuxInput: time-major, the auxiliary input (here equal to
// the input) is the backward cell's input.
TEST(BidirectionalSequenceRnn, AnAuxiliaryInputWithoutWeightsFeedsTheBackwardCell) {
  Config c;
  c.time_major = true;
  c.aux = Aux::kReplacesBackwardInput;
  c.aux_size = kInputSize;
  const std::vector<float> input = Layout(kRnnInput, kInputSize, true);
  Outputs out = RunBidi(c, input, input);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ExpectNear(out.fw, Layout(kRnnGoldenOutput, kUnits, true), 1e-5);
  ExpectNear(out.bw, Layout(kRnnGoldenBwOutput, kUnits, true), 1e-5);
  // Batch-major, upstream's backward cell reads the input all the same: a zero auxiliary input
  // changes nothing.
  c.time_major = false;
  out = RunBidi(c, Layout(kRnnInput, kInputSize, false),
                std::vector<float>(2 * kSteps * kInputSize, 0.0f));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ExpectNear(out.bw, Layout(kRnnGoldenBwOutput, kUnits, false), 1e-5);
}

// BlackBoxTestCrossLinkingAuxInputOnly: zero input and input weights, the sequence through the
// auxiliary input and weights.
TEST(BidirectionalSequenceRnn, CrossLinksAddTheAuxiliaryInput) {
  Config c;
  c.aux = Aux::kCrossLinks;
  c.aux_size = kInputSize;
  c.input_weights.assign(kRnnWeights.size(), 0.0f);
  c.aux_weights = kRnnWeights;
  const Outputs out = RunBidi(c, std::vector<float>(2 * kSteps * kInputSize, 0.0f),
                              Layout(kRnnInput, kInputSize, false));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ExpectNear(out.fw, Layout(kRnnGoldenOutput, kUnits, false), 1e-5);
  ExpectNear(out.bw, Layout(kRnnGoldenBwOutput, kUnits, false), 1e-5);
}

// BlackBoxTestCrossLinkingRegularAndAuxInputUnevenSplit: each step's 8 inputs split 2 + 6 between
// the input and the auxiliary input, the weights' columns likewise.
TEST(BidirectionalSequenceRnn, AnUnevenSplitBetweenInputAndAuxiliaryInputMatches) {
  constexpr int32_t kRegular = 2, kAux = 6;
  const auto split = [](const std::vector<float>& rows, bool regular) {
    std::vector<float> part;
    for (size_t r = 0; r < rows.size(); r += kInputSize) {
      const auto row = rows.begin() + static_cast<std::ptrdiff_t>(r);
      if (regular) {
        part.insert(part.end(), row, row + kRegular);
      } else {
        part.insert(part.end(), row + kRegular, row + kInputSize);
      }
    }
    return part;
  };
  Config c;
  c.aux = Aux::kCrossLinks;
  c.input_size = kRegular;
  c.aux_size = kAux;
  c.input_weights = split(kRnnWeights, true);
  c.aux_weights = split(kRnnWeights, false);
  const std::vector<float> input = Layout(kRnnInput, kInputSize, false);
  Outputs out = RunBidi(c, split(input, true), split(input, false));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ExpectNear(out.fw, Layout(kRnnGoldenOutput, kUnits, false), 1e-5);
  ExpectNear(out.bw, Layout(kRnnGoldenBwOutput, kUnits, false), 1e-5);
  // Time-major, upstream steps through the auxiliary input with the input's size: refused.
  c.time_major = true;
  out = RunBidi(c, split(input, true), split(input, false));
  EXPECT_EQ(out.status.message(),
            "auxiliary input [16,2,6] is not the input's [16,2,2]: upstream's kernel indexes "
            "it with the input's sizes here");
}

}  // namespace
}  // namespace tfa::runtime
