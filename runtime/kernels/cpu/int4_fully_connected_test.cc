#include "runtime/kernels/cpu/int4_fully_connected.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Two int4 values a byte, the even one in the low nibble.
std::vector<uint8_t> PackInt4(const std::vector<int8_t>& values) {
  std::vector<uint8_t> bytes((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i)
    bytes[i / 2] |= static_cast<uint8_t>((values[i] & 0xF) << (i % 2 == 0 ? 0 : 4));
  return bytes;
}

// [units, 32] weights, all zero but the (unit, column, value) entries.
std::vector<int8_t> Weights(int units, std::vector<std::array<int, 3>> entries) {
  std::vector<int8_t> w(static_cast<size_t>(units * 32), 0);
  for (const auto& [unit, column, value] : entries)
    w[static_cast<size_t>(unit * 32 + column)] = static_cast<int8_t>(value);
  return w;
}

// The input [1, 32]: 1 and -0.5 first, zeros after.
std::vector<float> Input() {
  std::vector<float> x(32, 0.0f);
  x[0] = 1.0f;
  x[1] = -0.5f;
  return x;
}

TEST(Int4FullyConnectedTest, UnpacksTheLowNibbleFirstSignExtended) {
  const std::vector<uint8_t> packed{0x8F, 0x17};
  EXPECT_EQ(UnpackInt4(packed.data(), 4), (std::vector<int8_t>{-1, -8, 7, 1}));
  EXPECT_EQ(UnpackInt4(packed.data(), 3), (std::vector<int8_t>{-1, -8, 7}));
}

// fully_connected_common.h merge: a -8 second in its pair (p + 16) sets the whole byte.
TEST(Int4FullyConnectedTest, PackedKernelCountsMinusEightAsPlusEight) {
  std::vector<int8_t> row(32, 1);
  row[16] = -8;  // pairs with row[0]
  row[3] = -8;   // first in its pair with row[19]
  const std::vector<int8_t> kernel = PackedKernelRow(row.data(), 32);
  EXPECT_EQ(kernel[0], 8);
  EXPECT_EQ(kernel[16], 8);
  EXPECT_EQ(kernel[3], 8);
  EXPECT_EQ(kernel[19], 1);
  EXPECT_EQ(kernel[1], 1);
}

// The packed 4-bit path, worked by hand from the reference routines: the input quantizes to
// q = [127, -64, 0...] at 1/127 (round half away), its offset is (127 - 64) * -7 = -441, and each
// output is (-441 / 127) * 0.5 + bias + (sum of (w + 7) * q / 127) * 0.5:
//   unit 0 (w0 = 1, w1 = 2): 0.25 + 0.5 * (-441 + 8 * 127 + 9 * -64) / 127 = 0.25 - 0.5 / 127;
//   unit 1 (w0 = 1, w16 = -8, so w0 counts as 8): 0.5 * 8 * 127 / 127 = 4;
//   unit 2 (zeros): 0;  unit 3 (w1 = -8): 0.5 * 8 * -64 / 127.
TEST(Int4FullyConnectedTest, PackedPathAsUpstreamsReferenceComputesIt) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization scale{{0.5f}, {0}, 0};
  k.AddFloatInput({1, 32}, Input());
  RuntimeTensor& w =
      k.AddInput(TensorType::kInt4, {4, 32},
                 PackInt4(Weights(4, {{0, 0, 1}, {0, 1, 2}, {1, 0, 1}, {1, 16, -8}, {3, 1, -8}})));
  w.quantization = &scale;
  w.is_constant = true;
  k.AddFloatInput({4}, {0.25f, 0, 0, 0});
  k.AddOutput(TensorType::kFloat32, {1, 4});
  // The planned temporaries: int8 input [1, 32], factors [1], sums [1, 4], offsets [1].
  k.AddTemporary(TensorType::kInt8, {1, 32});
  k.AddTemporary(TensorType::kFloat32, {1});
  k.AddTemporary(TensorType::kInt32, {1, 4});
  k.AddTemporary(TensorType::kInt32, {1});
  ASSERT_TRUE(k.Run().ok());
  const auto out = k.Output();
  EXPECT_NEAR(out[0], 0.25f - 0.5f / 127, 1e-7);
  EXPECT_NEAR(out[1], 4.0f, 1e-6);
  EXPECT_NEAR(out[2], 0.0f, 1e-7);
  EXPECT_NEAR(out[3], -0.5f * 8 * 64 / 127, 1e-6);
}

// EvalBlockwise4Bit, by hand: the input quantizes asymmetrically at 1.5 / 255 with zero point
// -43 to q = [127, -128, -43...]; each block's products and weight sums, times its scale, less
// -43 times the scaled weight sums, times 1.5 / 255:
//   unit 0 (w0 = 1, scales 0.5): (63.5 + 43 * 0.5) * 1.5 / 255 = 0.5;
//   unit 1 (w17 = -2, scales 0.25): (21.5 - 43 * 0.5) = 0;
//   unit 2 (w1 = 3, scales 2): (-768 + 43 * 6) * 1.5 / 255 = -3, kept below 0 though the node
//   asks for RELU: upstream's blockwise path applies no activation.
TEST(Int4FullyConnectedTest, BlockwisePathAsUpstreamComputesIt) {
  KernelRunner k("FULLY_CONNECTED");
  k.options().fused_activation = Activation::kRelu;
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 16;
  k.AddFloatInput({1, 32}, Input());
  RuntimeTensor& w = k.AddInput(TensorType::kInt4, {4, 32},
                                PackInt4(Weights(4, {{0, 0, 1}, {1, 17, -2}, {2, 1, 3}})));
  w.quantization = &blockwise;
  w.is_constant = true;
  k.AddOutput(TensorType::kFloat32, {1, 4});
  // float16 scales [4 units, 2 blocks]: 0.5, 0.25, 2, 1, passed after the node's intermediates.
  std::vector<uint16_t> scales{0x3800, 0x3800, 0x3400, 0x3400, 0x4000, 0x4000, 0x3C00, 0x3C00};
  RuntimeTensor& scale_tensor = k.AddIntermediate(TensorType::kFloat16, nullptr);
  scale_tensor.shape = {4, 2};
  scale_tensor.data = reinterpret_cast<uint8_t*>(scales.data());
  scale_tensor.bytes = scales.size() * sizeof(uint16_t);
  ASSERT_TRUE(k.Run().ok());
  const auto out = k.Output();
  EXPECT_NEAR(out[0], 0.5f, 1e-6);
  EXPECT_NEAR(out[1], 0.0f, 1e-6);
  EXPECT_NEAR(out[2], -3.0f, 1e-5);
  EXPECT_NEAR(out[3], 0.0f, 1e-6);
}

// Off the packed path (here 3 units) upstream's hybrid kernel requires affine quantization.
TEST(Int4FullyConnectedTest, RefusesBlockwiseWeightsOffThePackedPath) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 16;
  k.AddFloatInput({1, 32}, Input());
  RuntimeTensor& w = k.AddInput(TensorType::kInt4, {3, 32}, PackInt4(Weights(3, {})));
  w.quantization = &blockwise;
  w.is_constant = true;
  k.AddOutput(TensorType::kFloat32, {1, 3});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("kTfLiteAffineQuantization"), std::string::npos);
}

TEST(Int4FullyConnectedTest, RefusesANonZeroZeroPointAsUpstreamsPrepare) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization scale{{0.5f}, {1}, 0};
  k.AddFloatInput({1, 32}, Input());
  k.AddInput(TensorType::kInt4, {4, 32}, PackInt4(Weights(4, {}))).quantization = &scale;
  k.AddOutput(TensorType::kFloat32, {1, 4});
  EXPECT_EQ(k.Run().message(), "Unsupported filter quantization zero-point value.");
}

// int8 input (and the hybrid kernel off the packed path): the same outputs as int8 weights of
// the same values.
TEST(Int4FullyConnectedTest, UnpackedPathsEqualInt8Weights) {
  const std::vector<int8_t> values{1, -8, 7, 3, -2, 0};
  for (TensorType input_type : {TensorType::kInt8, TensorType::kFloat32}) {
    std::vector<std::vector<float>> outputs;
    for (TensorType weight_type : {TensorType::kInt4, TensorType::kInt8}) {
      KernelRunner k("FULLY_CONNECTED");
      Quantization in_q{{0.5f}, {1}, 0}, w_q{{0.25f}, {0}, 0}, out_q{{0.125f}, {-3}, 0};
      if (input_type == TensorType::kInt8) {
        k.AddInput(TensorType::kInt8, {2, 3}, std::vector<int8_t>{5, -7, 9, 0, 2, -1})
            .quantization = &in_q;
      } else {
        k.AddFloatInput({2, 3}, {0.5f, -1, 2, 0, 0.25f, -3});
      }
      RuntimeTensor& w = weight_type == TensorType::kInt4
                             ? k.AddInput(TensorType::kInt4, {2, 3}, PackInt4(values))
                             : k.AddInput(TensorType::kInt8, {2, 3}, values);
      w.quantization = &w_q;
      w.is_constant = true;
      RuntimeTensor& out = k.AddOutput(input_type, {2, 2});
      if (input_type == TensorType::kInt8) out.quantization = &out_q;
      ASSERT_TRUE(k.Run().ok());
      if (input_type == TensorType::kInt8) {
        const auto bytes = k.Output<int8_t>();
        outputs.emplace_back(bytes.begin(), bytes.end());
      } else {
        outputs.push_back(k.Output());
      }
    }
    EXPECT_EQ(outputs[0], outputs[1]);
  }
}

}  // namespace
}  // namespace tfa::runtime
