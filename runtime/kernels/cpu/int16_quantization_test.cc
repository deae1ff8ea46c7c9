// QUANTIZE float32 -> int16 and DEQUANTIZE int16 -> float32: upstream's symmetric int16.
#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::QuantizedRunner;

TEST(Int16QuantizationTest, QuantizeRoundsHalfAwayFromZeroAndSaturates) {
  QuantizedRunner r("QUANTIZE");
  r.runner().AddFloatInput({7}, {0.125f, -0.125f, 0.3f, 1.0f, 5000.0f, -5000.0f,
                                 -std::numeric_limits<float>::infinity()});
  r.AddOutput(TensorType::kInt16, {7}, PerTensor(0.25f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int16_t>(),
            (std::vector<int16_t>{1, -1, 1, 4, 20000, -20000, -32768}));
  QuantizedRunner big("QUANTIZE");
  big.runner().AddFloatInput({2}, {9000.0f, -9000.0f});
  big.AddOutput(TensorType::kInt16, {2}, PerTensor(0.25f, 0));
  ASSERT_TRUE(big.runner().Run().ok());
  EXPECT_EQ(big.runner().Output<int16_t>(), (std::vector<int16_t>{32767, -32768}));
}

TEST(Int16QuantizationTest, QuantizeRefusesANonzeroZeroPoint) {
  QuantizedRunner r("QUANTIZE");
  r.runner().AddFloatInput({1}, {1.0f});
  r.AddOutput(TensorType::kInt16, {1}, PerTensor(0.25f, 3));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int16 output has a nonzero zero point");
}

TEST(Int16QuantizationTest, DequantizeScales) {
  KernelRunner k("DEQUANTIZE");
  RuntimeTensor& in = k.AddInput<int16_t>(TensorType::kInt16, {4}, {-32768, -3, 0, 20000});
  const Quantization q = PerTensor(0.25f, 0);
  in.quantization = &q;
  k.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{-8192, -0.75f, 0, 5000}));
}

}  // namespace
}  // namespace tfa::runtime
