#include "runtime/kernels/cpu/int16_softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// upstream's activations_test.cc Softmax3DInt16 and Softmax2DInt16 (beta 0.1): input range
// [-10, 10] (scale 10 / 32767), output scale 1/32768; their expected probabilities within their
// tolerances (2/256 for the first, 2/4096 for the second).
std::vector<float> RunSoftmax(std::vector<int32_t> shape, const std::vector<float>& x, float beta) {
  KernelRunner k("SOFTMAX");
  k.options().beta = beta;
  const float in_scale = 10.0f / 32767;
  Quantization in_q{{in_scale}, {0}, 0}, out_q{{1.0f / 32768}, {0}, 0};
  std::vector<int16_t> q;
  for (float v : x) q.push_back(static_cast<int16_t>(std::lround(v / in_scale)));
  k.AddInput(TensorType::kInt16, shape, q).quantization = &in_q;
  k.AddOutput(TensorType::kInt16, shape).quantization = &out_q;
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  std::vector<float> out;
  for (int16_t v : k.Output<int16_t>()) out.push_back(static_cast<float>(v) / 32768);
  return out;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << i;
}

TEST(Int16SoftmaxTest, MatchesUpstream) {
  ExpectNear(RunSoftmax({1, 2, 4}, {0, -6, 2, 4, 3, -2, 10, 1}, 1.0f),
             {.0158756f, .000039f, .1173f, .866779f, .00091f, .0000061f, .998959f, .000123f},
             2.0 / 256);
  ExpectNear(
      RunSoftmax({4, 2}, {0, -6, 2, 4, 3, -2, 10, 1}, 0.1f),
      {0.645656f, 0.354344f, 0.450166f, 0.549834f, 0.622459f, 0.377541f, 0.710949f, 0.28905f},
      2.0 / 4096);
}

// A row of equal values: exp(0) from the table is 32767 (Q15) each; two of them sum to 65534,
// whose reciprocal brings each to one half.
TEST(Int16SoftmaxTest, EqualValuesSplitEvenly) {
  const auto out = RunSoftmax({1, 2}, {1.0f, 1.0f}, 1.0f);
  EXPECT_NEAR(out[0], 0.5f, 1.0 / 32768);
  EXPECT_EQ(out[0], out[1]);
}

TEST(Int16SoftmaxTest, RefusesRankFiveAndOffsetOutputs) {
  KernelRunner k("SOFTMAX");
  Quantization q{{1.0f / 32768}, {0}, 0};
  k.AddInput(TensorType::kInt16, {1, 1, 1, 1, 2}, std::vector<int16_t>{0, 0}).quantization = &q;
  k.AddOutput(TensorType::kInt16, {1, 1, 1, 1, 2}).quantization = &q;
  EXPECT_EQ(k.Run().message(), "int16 input must have rank 1 to 4, got 5");

  KernelRunner z("SOFTMAX");
  Quantization out_q{{1.0f / 32768}, {5}, 0};
  z.AddInput(TensorType::kInt16, {2}, std::vector<int16_t>{0, 0}).quantization = &q;
  z.AddOutput(TensorType::kInt16, {2}).quantization = &out_q;
  EXPECT_EQ(z.Run().message(), "int16 input and output must have zero point 0, got 0 and 5");
}

}  // namespace
}  // namespace tfa::runtime
