#include "runtime/kernels/cpu/quantized_softmax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

// Expected values not derived by hand below come from a standalone transcription of upstream's
// x86-64 path (optimized_ops.h PopulateSoftmaxLookupTable, Softmax<In, Out> and
// QuantizeSoftmaxOutput, LiteRT 007168de), compiled apart from this kernel; the hand derivations
// in the comments agree with them.

std::vector<int32_t> Int16Output(QuantizedRunner& r) {
  const auto v = r.runner().Output<int16_t>();
  return {v.begin(), v.end()};
}

TEST(QuantizedSoftmaxTest, EqualInt8InputsShareTheProbability) {
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kInt8, {1, 4}, {5, 5, 5, 5}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 4}, PerTensor(1.0f / 256, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  // 0.25 * 256 = 64, stored 64 - 128.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-64, -64, -64, -64}));
}

TEST(QuantizedSoftmaxTest, Int8RowsWithBetaOneAndTwo) {
  // Two rows of three at input scale 0.5: x = {0, 0.5, 1} and {-2, 0, 2}.
  const std::vector<int32_t> input{0, 1, 2, -4, 0, 4};
  {
    QuantizedRunner r("SOFTMAX");
    r.runner().options().beta = 1.0f;
    r.AddInput({TensorType::kInt8, {2, 3}, input, PerTensor(0.5f, 0)});
    r.AddOutput(TensorType::kInt8, {2, 3}, PerTensor(1.0f / 256, -128));
    ASSERT_TRUE(r.runner().Run().ok());
    // Row 0: e^-1, e^-0.5, 1 over 1.9744 = 0.1863, 0.3072, 0.5065 -> 48, 79, 130 (of 256).
    // Row 1: e^-4, e^-2, 1 over 1.1536 = 0.0159, 0.1173, 0.8668 -> 4, 30, 222.
    EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-80, -49, 2, -124, -98, 94}));
  }
  {
    QuantizedRunner r("SOFTMAX");
    r.runner().options().beta = 2.0f;
    r.AddInput({TensorType::kInt8, {2, 3}, input, PerTensor(0.5f, 0)});
    r.AddOutput(TensorType::kInt8, {2, 3}, PerTensor(1.0f / 256, -128));
    ASSERT_TRUE(r.runner().Run().ok());
    // Row 0: e^-2, e^-1, 1 over 1.5032 = 0.0900, 0.2447, 0.6652 -> 23, 63, 170.
    // Row 1: e^-8, e^-4, 1 -> 0.0003, 0.0180, 0.9817 -> 0, 5, 251.
    EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-105, -65, 42, -128, -123, 123}));
  }
}

TEST(QuantizedSoftmaxTest, Uint8RowsSaturateAtOne) {
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kUInt8, {3, 2}, {10, 10, 0, 255, 100, 107}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kUInt8, {3, 2}, PerTensor(1.0f / 256, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // {0.5, 0.5}; {e^-25.5 ~ 0, 1}: 256 clamps to 255; e^-0.7 = 0.4966: {0.3318, 0.6682} -> 85, 171.
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{128, 128, 0, 255, 85, 171}));
}

TEST(QuantizedSoftmaxTest, Uint8OutputZeroPointIsIgnoredAsUpstreamOnX86) {
  // Upstream's non-aarch64 QuantizeSoftmaxOutput<uint8_t> is (int)(p / scale + 0.5f): the output
  // zero point (which SoftmaxPrepare does not check for uint8) takes no part.
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kUInt8, {3, 2}, {10, 10, 0, 255, 100, 107}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kUInt8, {3, 2}, PerTensor(1.0f / 256, 10));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{128, 128, 0, 255, 85, 171}));
}

TEST(QuantizedSoftmaxTest, Int8InputInt16Output) {
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kInt8, {3, 2}, {7, 7, 127, 127, -3, 1}, PerTensor(0.25f, 0)});
  r.AddOutput(TensorType::kInt16, {3, 2}, PerTensor(1.0f / 32768, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // Halves are 16384; x = {-0.75, 0.25}: 0.2689, 0.7311 of 32768 = 8812.8, 23955.2.
  EXPECT_EQ(Int16Output(r), (std::vector<int32_t>{16384, 16384, 16384, 16384, 8813, 23955}));
}

TEST(QuantizedSoftmaxTest, SingleElementRowsClampToInt16Max) {
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kInt8, {2, 1}, {-100, 50}, PerTensor(0.25f, 0)});
  r.AddOutput(TensorType::kInt16, {2, 1}, PerTensor(1.0f / 32768, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // p = 1 is 32768, one past int16's largest value.
  EXPECT_EQ(Int16Output(r), (std::vector<int32_t>{32767, 32767}));
}

TEST(QuantizedSoftmaxTest, Uint8InputInt16OutputWithBeta) {
  QuantizedRunner r("SOFTMAX");
  r.runner().options().beta = 1.5f;
  r.AddInput({TensorType::kUInt8, {2, 3}, {0, 128, 255, 60, 40, 20}, PerTensor(0.05f, 0)});
  r.AddOutput(TensorType::kInt16, {2, 3}, PerTensor(1.0f / 32768, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // Row 0: beta * scale = 0.075 per step: e^-19.125, e^-9.525, 1 -> 0, 2.4, 32765.6.
  EXPECT_EQ(Int16Output(r), (std::vector<int32_t>{0, 2, 32766, 25742, 5744, 1282}));
}

TEST(QuantizedSoftmaxTest, Int8MatchesDoubleSoftmaxWithinOneUnit) {
  const int rows = 6, depth = 37;
  const auto values = testing::PseudoRandomValues(rows * depth, -128, 127, 7);
  const float scale = 0.07f;
  QuantizedRunner r("SOFTMAX");
  r.runner().options().beta = 0.8f;
  r.AddInput({TensorType::kInt8, {rows, depth}, values, PerTensor(scale, 3)});
  r.AddOutput(TensorType::kInt8, {rows, depth}, PerTensor(1.0f / 256, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto out = r.Output(TensorType::kInt8);
  for (int row = 0; row < rows; ++row) {
    const int32_t* x = values.data() + row * depth;
    const int32_t max = *std::max_element(x, x + depth);
    double sum = 0.0;
    for (int i = 0; i < depth; ++i) sum += std::exp(0.8 * scale * (x[i] - max));
    for (int i = 0; i < depth; ++i) {
      const double p = std::exp(0.8 * scale * (x[i] - max)) / sum;
      const auto expected = std::min(127, static_cast<int32_t>(std::lround(p * 256)) - 128);
      EXPECT_LE(std::abs(out[static_cast<size_t>(row * depth + i)] - expected), 1) << row << i;
    }
  }
}

TEST(QuantizedSoftmaxTest, InPlaceGivesTheSameRows) {
  // Upstream shares the output with input 0 (kTfLiteInplaceOpInput0Shared).
  QuantizedRunner r("SOFTMAX");
  r.runner().options().beta = 2.0f;
  RuntimeTensor& in =
      r.AddInput({TensorType::kInt8, {2, 3}, {0, 1, 2, -4, 0, 4}, PerTensor(0.5f, 0)});
  RuntimeTensor& out = r.AddOutput(TensorType::kInt8, {2, 3}, PerTensor(1.0f / 256, -128));
  out.data = in.data;
  ASSERT_TRUE(r.runner().Run().ok());
  const auto* y = reinterpret_cast<const int8_t*>(in.data);
  EXPECT_EQ(std::vector<int32_t>(y, y + 6), (std::vector<int32_t>{-105, -65, 42, -128, -123, 123}));
}

TEST(QuantizedSoftmaxTest, Int8OutputQuantizationIsFixed) {
  {
    QuantizedRunner r("SOFTMAX");
    r.AddInput({TensorType::kInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1.0f / 256, 0));
    const Status s = r.runner().Run();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(
        s.message(),
        "int8 output must have zero point -128 (upstream's fixed softmax quantization), got 0");
  }
  {
    QuantizedRunner r("SOFTMAX");
    r.AddInput({TensorType::kInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1.0f / 128, -128));
    const Status s = r.runner().Run();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(),
              "int8 output must have scale 1/256 within 0.1% (upstream's fixed softmax "
              "quantization), got 0.0078125");
  }
  {
    // Within upstream's tolerance (0.001 / 256).
    QuantizedRunner r("SOFTMAX");
    r.AddInput({TensorType::kInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1.0005f / 256, -128));
    EXPECT_TRUE(r.runner().Run().ok());
  }
}

TEST(QuantizedSoftmaxTest, OutputTypeMustMatchOrBeInt16) {
  QuantizedRunner r("SOFTMAX");
  r.AddInput({TensorType::kUInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1.0f / 256, -128));
  const Status s = r.runner().Run();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "uint8 input takes a uint8 or int16 output, got int8");
}

TEST(QuantizedSoftmaxTest, ExpTableIsUpstreamsPopulateSoftmaxLookupTable) {
  const auto table = SoftmaxExpTable(0.5f, 2.0f);
  EXPECT_EQ(table[255], 1.0f);
  EXPECT_EQ(table[254], std::exp(-1.0f));
  EXPECT_EQ(table[0], std::exp(-255.0f));  // 0 in float
}

}  // namespace
}  // namespace tfa::runtime
