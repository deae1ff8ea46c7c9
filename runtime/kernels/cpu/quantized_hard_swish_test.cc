// Expected values come from a standalone transcription of upstream's HardSwishPrepare
// (activations.cc) and reference_ops::HardSwish (reference/hard_swish.h) with gemmlowp's int16
// fixed-point helpers, compiled apart from this project; each is within one step of the float
// x * relu6(x + 3) / 6 quantized, as the comments show.
#include "runtime/kernels/cpu/quantized_hard_swish.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

std::vector<int32_t> RunHardSwish(TensorType type, const std::vector<int32_t>& in,
                                  Quantization in_q, Quantization out_q) {
  QuantizedRunner r("HARD_SWISH");
  const auto n = static_cast<int32_t>(in.size());
  r.AddInput({type, {n}, in, std::move(in_q)});
  r.AddOutput(type, {n}, std::move(out_q));
  EXPECT_TRUE(r.runner().Run().ok());
  return r.Output(type);
}

// Input scale 0.05, zero point -10; output 0.03, zero point -40 (multiplier exponents -6 for the
// output, +3 for the reluish value). Float answers, quantized: -40 up to x = -3, -46.9 at -2.5,
// -51.1 at -2 and -1, -30.3 at 0.5, -2.5 at 1.5, 76.7 at 3.5, 188 (saturated) at 6.85.
TEST(QuantizedHardSwishTest, Int8) {
  EXPECT_EQ(
      RunHardSwish(TensorType::kInt8, {-128, -100, -70, -60, -50, -30, -10, 0, 20, 50, 60, 80, 127},
                   PerTensor(0.05f, -10), PerTensor(0.03f, -40)),
      (std::vector<int32_t>{-40, -40, -40, -47, -51, -51, -40, -30, -2, 60, 77, 110, 127}));
}

// Input scale 0.1, zero point 128: the reluish multiplier's exponent is +4, so the saturating
// left shifts run. Float answers: 60 up to x = -3, 58.1 at -2.8, 76.8 at 1.2, 204 at 7.2.
TEST(QuantizedHardSwishTest, Uint8WithLeftShiftedReluish) {
  EXPECT_EQ(RunHardSwish(TensorType::kUInt8, {0, 50, 98, 100, 128, 140, 158, 170, 200, 255},
                         PerTensor(0.1f, 128), PerTensor(0.05f, 60)),
            (std::vector<int32_t>{60, 60, 60, 58, 60, 77, 120, 144, 204, 255}));
}

// Input scale 0.004: the reluish multiplier's exponent is -1, so it is applied with a rounding
// right shift. Float answer at 50 (x = 0.2): 0.1067 / 0.002 + 20 = 73.3.
TEST(QuantizedHardSwishTest, Uint8WithRightShiftedReluish) {
  EXPECT_EQ(RunHardSwish(TensorType::kUInt8, {0, 50, 98, 100, 128, 140, 158, 170, 200, 255},
                         PerTensor(0.004f, 0), PerTensor(0.002f, 20)),
            (std::vector<int32_t>{20, 73, 131, 133, 170, 186, 211, 229, 255, 255}));
}

// Upstream's Prepare refuses an output multiplier exponent above 0: input scale / 128 at least
// the output scale.
TEST(QuantizedHardSwishTest, InputScale128TimesTheOutputIsRefused) {
  QuantizedRunner refused("HARD_SWISH");
  refused.AddInput({TensorType::kInt8, {1}, {0}, PerTensor(1.28f, 0)});
  refused.AddOutput(TensorType::kInt8, {1}, PerTensor(0.01f, 0));
  const Status status = refused.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "HARD_SWISH input scale is 128 times the output scale or more");

  QuantizedRunner accepted("HARD_SWISH");
  accepted.AddInput({TensorType::kInt8, {1}, {0}, PerTensor(1.27f, 0)});
  accepted.AddOutput(TensorType::kInt8, {1}, PerTensor(0.01f, 0));
  EXPECT_TRUE(accepted.runner().Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
