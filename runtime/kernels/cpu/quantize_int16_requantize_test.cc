// QUANTIZE from int16: upstream's Requantize ((x - zp_in) rescaled by s_in / s_out with the
// double-rounding fixed-point multiply, plus zp_out, clamped), to int8, int16 or int32.
#include "runtime/kernels/cpu/quantize.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;

// Scale 2^-10 to 2^-4: x / 64 as multiplier 2^30 with shift -5, i.e. a rounding halving then a
// rounding shift by 5. Rounding twice moves 95 (1.48) and 31 (0.48) up a step, as upstream does:
//   95 -> 48 -> 2; 96 -> 48 -> 2; -95 -> -47 -> -1; -96 -> -48 -> -2; 63 -> 32 -> 1;
//   31 -> 16 -> 1; the extremes saturate. Plus zero point 3.
TEST(QuantizeInt16Test, ToInt8RoundsTwiceAsUpstream) {
  KernelRunner k("QUANTIZE");
  const Quantization in_q = PerTensor(1.0f / 1024, 0), out_q = PerTensor(1.0f / 16, 3);
  k.AddInput(TensorType::kInt16, {9},
             std::vector<int16_t>{95, 96, -95, -96, 32767, -32768, 0, 63, 31})
      .quantization = &in_q;
  k.AddOutput(TensorType::kInt8, {9}).quantization = &out_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{5, 5, 2, 1, 127, -128, 3, 4, 4}));
}

// Scales 0.000731 and 0.0417, zero points 5 and -9; expected values from a standalone
// transcription of upstream's QuantizeMultiplier and reference_ops::Requantize.
TEST(QuantizeInt16Test, ToInt8WithAwkwardScales) {
  KernelRunner k("QUANTIZE");
  const Quantization in_q = PerTensor(0.000731f, 5), out_q = PerTensor(0.0417f, -9);
  k.AddInput(TensorType::kInt16, {8},
             std::vector<int16_t>{-30000, -1234, -1, 0, 1, 777, 12345, 32767})
      .quantization = &in_q;
  k.AddOutput(TensorType::kInt8, {8}).quantization = &out_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{-128, -31, -9, -9, -9, 5, 127, 127}));
}

// Scale 2^-12 to 2^-10: x / 4 as a rounding halving then a rounding shift by 1:
//   5 -> 3 -> 2 (1.25 up a step); 6 -> 3 -> 2; -5 -> -2 -> -1; -6 -> -3 -> -2; -2 -> -1 -> -1;
//   2 -> 1 -> 1; 32767 -> 16384 -> 8192; -32768 -> -16384 -> -8192.
TEST(QuantizeInt16Test, ToInt16) {
  KernelRunner k("QUANTIZE");
  const Quantization in_q = PerTensor(1.0f / 4096, 0), out_q = PerTensor(1.0f / 1024, 0);
  k.AddInput(TensorType::kInt16, {8}, std::vector<int16_t>{-32768, -6, -5, -2, 2, 5, 6, 32767})
      .quantization = &in_q;
  k.AddOutput(TensorType::kInt16, {8}).quantization = &out_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{-8192, -2, -1, -1, 1, 2, 2, 8192}));
}

// Scale 2^-15 to 2^-16 (keyword_scrambled's output): x * 2 exactly, plus zero point 7; int32
// holds the extremes.
TEST(QuantizeInt16Test, ToInt32) {
  KernelRunner k("QUANTIZE");
  const Quantization in_q = PerTensor(1.0f / 32768, 0), out_q = PerTensor(1.0f / 65536, 7);
  k.AddInput(TensorType::kInt16, {4}, std::vector<int16_t>{-32768, -1, 0, 32767}).quantization =
      &in_q;
  k.AddOutput(TensorType::kInt32, {4}).quantization = &out_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{-65529, 5, 7, 65541}));
}

TEST(QuantizeInt16Test, ToInt16NeedsZeroPointsZero) {
  KernelRunner k("QUANTIZE");
  const Quantization in_q = PerTensor(1.0f, 0), out_q = PerTensor(1.0f, 1);
  k.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{1}).quantization = &in_q;
  k.AddOutput(TensorType::kInt16, {1}).quantization = &out_q;
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int16 to int16 requantization needs zero points 0");
}

// Upstream requantizes int16 to int8 or int16 only, and int8 to int8 or uint8 only.
TEST(QuantizeInt16Test, ToUint8AndFromInt8ToInt16AreRefused) {
  KernelRunner to_uint8("QUANTIZE");
  const Quantization q = PerTensor(1.0f, 0);
  to_uint8.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{1}).quantization = &q;
  to_uint8.AddOutput(TensorType::kUInt8, {1}).quantization = &q;
  EXPECT_FALSE(to_uint8.Run().ok());

  KernelRunner from_int8("QUANTIZE");
  from_int8.AddInput(TensorType::kInt8, {1}, std::vector<int8_t>{1}).quantization = &q;
  from_int8.AddOutput(TensorType::kInt16, {1}).quantization = &q;
  EXPECT_FALSE(from_int8.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
