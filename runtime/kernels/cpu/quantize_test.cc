#include "runtime/kernels/cpu/quantize.h"

#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

TEST(QuantizeTest, FloatToInt8RoundsHalfAwayFromZeroAndSaturates) {
  QuantizedRunner r("QUANTIZE");
  r.runner().AddFloatInput(
      {6}, {0.25f, -0.25f, 0.74f, 100.0f, -100.0f, std::numeric_limits<float>::infinity()});
  r.AddOutput(TensorType::kInt8, {6}, PerTensor(0.5f, 3));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{4, 2, 4, 127, -128, 127}));
}

TEST(QuantizeTest, Int8ToUint8Requantizes) {
  QuantizedRunner r("QUANTIZE");
  r.AddInput({TensorType::kInt8, {3}, {-128, 0, 127}, PerTensor(0.5f, 0)});
  r.AddOutput(TensorType::kUInt8, {3}, PerTensor(0.25f, 128));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{0, 128, 255}));
}

TEST(QuantizeTest, FloatOutputIsRefused) {
  QuantizedRunner r("QUANTIZE");
  r.runner().AddFloatInput({1}, {1.0f});
  r.runner().AddOutput(TensorType::kFloat32, {1});
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot quantize to float32");
}

}  // namespace
}  // namespace tfa::runtime
