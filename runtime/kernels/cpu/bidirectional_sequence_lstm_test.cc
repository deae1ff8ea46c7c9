#include "runtime/kernels/cpu/bidirectional_sequence_lstm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Upstream's bidirectional_sequence_lstm_test.cc,
// BlackBoxTestNoCifgNoPeepholeNoProjectionNoClipping: two inputs, four cells, no projection, both
// directions with the same weights.
const std::vector<float> kInputToInput = {-0.45018822, -0.02338299, -0.0870589,  -0.34550029,
                                          0.04266912,  -0.15680569, -0.34856534, 0.43890524};
const std::vector<float> kInputToForget = {0.09701663,  0.20334584, -0.50592935, -0.31343272,
                                           -0.40032279, 0.44781327, 0.01387155,  -0.35593212};
const std::vector<float> kInputToCell = {-0.50013041, 0.1370284,  0.11810488, 0.2013163,
                                         -0.20583314, 0.44344562, 0.22077113, -0.29909778};
const std::vector<float> kInputToOutput = {-0.25065863, -0.28290087, 0.04613829, 0.40525138,
                                           0.44272184,  0.03897077,  -0.1556896, 0.19487578};
const std::vector<float> kRecurrentToInput = {-0.0063535,  -0.2042388,  0.31454784,  -0.35746509,
                                              0.28902304,  0.08183324,  -0.16555229, 0.02286911,
                                              -0.13566875, 0.03034258,  0.48091322,  -0.12528998,
                                              0.24077177,  -0.51332325, -0.33502164, 0.10629296};
const std::vector<float> kRecurrentToForget = {-0.48684245, -0.06655136, 0.42224967,  0.2112639,
                                               0.27654213,  0.20864892,  -0.07646349, 0.45877004,
                                               0.00141793,  -0.14609534, 0.36447752,  0.09196436,
                                               0.28053468,  0.01560611,  -0.20127171, -0.01140004};
const std::vector<float> kRecurrentToCell = {-0.3407414,  0.24443203,  -0.2078532,  0.26320225,
                                             0.05695659,  -0.00123841, -0.4744786,  -0.35869038,
                                             -0.06418842, -0.13502428, -0.501764,   0.22830659,
                                             -0.46367589, 0.26016325,  -0.03894562, -0.16368064};
const std::vector<float> kRecurrentToOutput = {0.43385774,  -0.17194885, 0.2718237,  0.09215671,
                                               0.24107647,  -0.39835793, 0.18212086, 0.01301402,
                                               0.48572797,  -0.50656658, 0.20047462, -0.20607421,
                                               -0.51818722, -0.15390486, 0.0468148,  0.39922136};
const std::vector<float> kFwGolden = {-0.02973187, 0.1229473,  0.20885126, -0.15358765,
                                      -0.03716109, 0.12507336, 0.41193449, -0.20860538,
                                      -0.15053082, 0.09120187, 0.24278517, -0.12222792};
const std::vector<float> kBwGolden = {-0.0806187, 0.139077,  0.400476, -0.197842,
                                      -0.0332076, 0.123838,  0.309777, -0.17621,
                                      -0.0490733, 0.0739237, 0.067706, -0.0208124};
constexpr int32_t kCells = 4, kInputs = 2, kTime = 3;

// Hybrid weights are int8, or uint8 holding the same bytes as upstream's test writes them.
enum class Weights { kFloat, kHybrid, kHybridUint8 };

// Upstream's SymmetricQuantizeAndPopulate: one scale, max |w| / 127.
void AddWeights(KernelRunner& k, Weights kind, std::vector<int32_t> shape,
                const std::vector<float>& values, std::deque<Quantization>& scales) {
  if (kind == Weights::kFloat) {
    k.AddFloatInput(std::move(shape), values);
    return;
  }
  float range = 0;
  for (float v : values) range = std::max(range, std::fabs(v));
  const float scale = range / 127.0f;
  std::vector<int8_t> quantized;
  for (float v : values) quantized.push_back(static_cast<int8_t>(std::lround(v / scale)));
  const TensorType type = kind == Weights::kHybrid ? TensorType::kInt8 : TensorType::kUInt8;
  k.AddInput(type, std::move(shape), quantized).quantization =
      &scales.emplace_back(Quantization{{scale}, {0}, 0});
}

struct Sequence {
  int32_t batch = 1;
  std::vector<float> input = {};
  bool time_major = true;
  std::vector<float> aux_input = {};  // without auxiliary weights: the backward direction's input
};

// The 48 inputs of the upstream test's model.
void AddUpstreamModel(KernelRunner& k, Weights kind, const Sequence& sequence,
                      std::deque<Quantization>& scales) {
  k.options().fused_activation = Activation::kTanh;
  k.options().time_major = sequence.time_major;
  const std::vector<int32_t> shape = sequence.time_major
                                         ? std::vector<int32_t>{kTime, sequence.batch, kInputs}
                                         : std::vector<int32_t>{sequence.batch, kTime, kInputs};
  k.AddFloatInput(shape, sequence.input);
  for (int direction = 0; direction < 2; ++direction) {
    for (const auto* w : {&kInputToInput, &kInputToForget, &kInputToCell, &kInputToOutput})
      AddWeights(k, kind, {kCells, kInputs}, *w, scales);
    for (const auto* w :
         {&kRecurrentToInput, &kRecurrentToForget, &kRecurrentToCell, &kRecurrentToOutput})
      AddWeights(k, kind, {kCells, kCells}, *w, scales);
    for (int i = 0; i < 3; ++i) k.AddAbsentInput();  // peepholes
    for (float bias : {0.0f, 1.0f, 0.0f, 0.0f})
      k.AddFloatInput({kCells}, std::vector<float>(kCells, bias));
    k.AddAbsentInput();  // projection weights
    k.AddAbsentInput();  // projection bias
  }
  for (int i = 0; i < 4; ++i) {  // forward then backward activation and cell states
    k.AddFloatInput({sequence.batch, kCells},
                    std::vector<float>(static_cast<size_t>(sequence.batch) * kCells, 0));
  }
  if (sequence.aux_input.empty()) {
    k.AddAbsentInput();
  } else {
    k.AddFloatInput(shape, sequence.aux_input);
  }
  for (int i = 0; i < 8; ++i) k.AddAbsentInput();  // auxiliary weights
}

const std::vector<float> kSequence = {2., 3., 3., 4., 1., 1.};

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << i;
}

TEST(BidirectionalSequenceLstmTest, UpstreamFloatNoCifgNoPeepholeNoProjection) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kFloat, {.input = kSequence}, scales);
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output(0), kFwGolden, 1e-5f);
  ExpectNear(k.Output(1), kBwGolden, 1e-5f);
}

// Upstream's quantize_weights variants of the same test (its weights are uint8 tensors holding
// int8 values), symmetric and asymmetric inputs.
TEST(BidirectionalSequenceLstmTest, UpstreamHybridNoCifgNoPeepholeNoProjection) {
  for (Weights kind : {Weights::kHybrid, Weights::kHybridUint8}) {
    for (bool asymmetric : {false, true}) {
      KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
      std::deque<Quantization> scales;
      AddUpstreamModel(k, kind, {.input = kSequence}, scales);
      k.options().asymmetric_quantize_inputs = asymmetric;
      k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
      k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
      ASSERT_TRUE(k.Run().ok());
      ExpectNear(k.Output(0), kFwGolden, 1e-2f);
      ExpectNear(k.Output(1), kBwGolden, 1e-2f);
    }
  }
}

// BlackBoxTestMergedOutput: two identical batch rows, one output whose rows are the forward then
// the backward output.
TEST(BidirectionalSequenceLstmTest, UpstreamMergedOutput) {
  for (Weights kind : {Weights::kFloat, Weights::kHybrid, Weights::kHybridUint8}) {
    KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
    std::deque<Quantization> scales;
    AddUpstreamModel(
        k, kind, {.batch = 2, .input = {2., 3., 2., 3., 3., 4., 3., 4., 1., 1., 1., 1.}}, scales);
    k.options().merge_outputs = true;
    k.AddOutput(TensorType::kFloat32, {kTime, 2, 2 * kCells});
    ASSERT_TRUE(k.Run().ok());
    std::vector<float> merged;
    for (int32_t t = 0; t < kTime; ++t) {
      for (int b = 0; b < 2; ++b) {
        merged.insert(merged.end(), kFwGolden.begin() + t * kCells,
                      kFwGolden.begin() + (t + 1) * kCells);
        merged.insert(merged.end(), kBwGolden.begin() + t * kCells,
                      kBwGolden.begin() + (t + 1) * kCells);
      }
    }
    ExpectNear(k.Output(0), merged, kind == Weights::kFloat ? 1e-5f : 1e-2f);
  }
}

// Batch-major, one batch row: the same sequence, so the same outputs.
TEST(BidirectionalSequenceLstmTest, BatchMajorMatchesTimeMajor) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kFloat, {.input = kSequence, .time_major = false}, scales);
  k.AddOutput(TensorType::kFloat32, {1, kTime, kCells});
  k.AddOutput(TensorType::kFloat32, {1, kTime, kCells});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output(0), kFwGolden, 1e-5f);
  ExpectNear(k.Output(1), kBwGolden, 1e-5f);
}

// An auxiliary input without auxiliary weights is the backward direction's input: the same
// sequence there gives the same outputs.
TEST(BidirectionalSequenceLstmTest, AuxiliaryInputFeedsTheBackwardDirection) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kFloat,
                   {.input = std::vector<float>(kSequence.size(), 0), .aux_input = kSequence},
                   scales);
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output(1), kBwGolden, 1e-5f);
}

TEST(BidirectionalSequenceLstmTest, RefusesABatchMajorMergedOutputOfSeveralRows) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kFloat,
                   {.batch = 2, .input = std::vector<float>(12, 1.0f), .time_major = false},
                   scales);
  k.options().merge_outputs = true;
  k.AddOutput(TensorType::kFloat32, {2, kTime, 2 * kCells});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("batch-major merged output"), std::string::npos);
}

TEST(BidirectionalSequenceLstmTest, RefusesAMissingSecondOutput) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kFloat, {.input = kSequence}, scales);
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "has 1 outputs, expected 2 with merge_outputs false");
}

// Upstream reads uint8 weights as int8 and would ignore a zero point: refused instead.
TEST(BidirectionalSequenceLstmTest, RefusesUint8WeightsWithAZeroPoint) {
  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  std::deque<Quantization> scales;
  AddUpstreamModel(k, Weights::kHybridUint8, {.input = kSequence}, scales);
  scales.front().zero_point = {128};
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  k.AddOutput(TensorType::kFloat32, {kTime, 1, kCells});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "forward: weights are uint8 of zero point 128 (upstream's hybrid kernel reads them as "
            "int8 and ignores it)");
}

}  // namespace
}  // namespace tfa::runtime
