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

// Upstream's quantize_test.cc Int32Int8SameScale and Int32Int16SameScale (facts copied): int32
// stored at scale 0.5 requantized to int8 with zero point -1 and to int16 (saturating).
TEST(QuantizeTest, Int32RequantizesToInt8AndInt16) {
  QuantizedRunner to8("QUANTIZE");
  to8.AddInput(
      {TensorType::kInt32, {1, 1, 2, 5}, {2, 4, 6, 8, 10, 12, 14, 16, 18, 20}, PerTensor(0.5f, 0)});
  to8.AddOutput(TensorType::kInt8, {1, 1, 2, 5}, PerTensor(0.5f, -1));
  ASSERT_TRUE(to8.runner().Run().ok());
  EXPECT_EQ(to8.Output(TensorType::kInt8),
            (std::vector<int32_t>{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}));

  QuantizedRunner to16("QUANTIZE");
  to16.AddInput({TensorType::kInt32,
                 {1, 1, 2, 5},
                 {0, 2, 4, 6, 8, 10, 12, 14, 16, 75534},
                 PerTensor(0.5f, 0)});
  to16.AddOutput(TensorType::kInt16, {1, 1, 2, 5}, PerTensor(0.5f, 0));
  ASSERT_TRUE(to16.runner().Run().ok());
  EXPECT_EQ(to16.Output(TensorType::kInt16),
            (std::vector<int32_t>{0, 2, 4, 6, 8, 10, 12, 14, 16, 32767}));
}

}  // namespace
}  // namespace tfa::runtime
