#include "runtime/kernels/cpu/quantized_reduce.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::PseudoRandomValues;
using testing::QuantizedRunner;

TEST(QuantizedReduceTest, MeanWithoutKeepDimsFoldsTheCountIntoTheMultiplier) {
  QuantizedRunner r("MEAN");
  // Two channels over a 1x3 image: (1, 2, 4) and (-5, -6, -6) around zero point 2.
  r.AddInput({TensorType::kInt8, {1, 1, 3, 2}, {3, -3, 4, -4, 6, -4}, PerTensor(0.5f, 2)});
  r.runner().AddInt32Input({2}, {1, 2});
  r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(0.25f, -1));
  ASSERT_TRUE(r.runner().Run().ok());
  // Means 7/3 * 0.5 = 1.1667 -> 4.67 -> 5 - 1 = 4; -17/3 * 0.5 = -2.83 -> -11.33 -> -11 - 1.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{4, -12}));
}

TEST(QuantizedReduceTest, SpatialMeanWithKeepDimsMatchesFloatWithinOneUnit) {
  for (bool keep_dims : {true, false}) {
    QuantizedRunner r("MEAN");
    r.runner().options().keep_dims = keep_dims;
    const auto values = PseudoRandomValues(7 * 7 * 5, -128, 127, 3);
    r.AddInput({TensorType::kInt8, {1, 7, 7, 5}, values, PerTensor(0.1f, -7)});
    r.runner().AddInt32Input({2}, {1, 2});
    const std::vector<int32_t> shape =
        keep_dims ? std::vector<int32_t>{1, 1, 1, 5} : std::vector<int32_t>{1, 5};
    r.AddOutput(TensorType::kInt8, shape, PerTensor(0.02f, 3));
    ASSERT_TRUE(r.runner().Run().ok());
    const auto out = r.Output(TensorType::kInt8);
    for (int c = 0; c < 5; ++c) {
      double sum = 0;
      for (int p = 0; p < 49; ++p) sum += 0.1 * (values[static_cast<size_t>(p * 5 + c)] + 7);
      const auto expected = static_cast<int32_t>(std::lround(sum / 49 / 0.02)) + 3;
      EXPECT_LE(std::abs(out[static_cast<size_t>(c)] - std::clamp(expected, -128, 127)), 1)
          << c << (keep_dims ? " keep_dims" : "");
    }
  }
}

}  // namespace
}  // namespace tfa::runtime
