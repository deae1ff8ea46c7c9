#include "runtime/kernels/cpu/int4_conv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// Upstream unpacks an int4 filter to int8 and runs its int8-filter kernel: the outputs are
// those of the same filter stored as int8 (CONV_2D on int8 and int16 input, DEPTHWISE_CONV_2D on
// int8), per-channel scales included.
template <typename T>
std::vector<T> RunWithFilter(const std::string& op, TensorType input_type, TensorType filter_type,
                             std::vector<int32_t> filter_shape) {
  std::vector<int8_t> filter{1, -8, 7, 3, -2, 0, 5, -1, 4, -6, 2, 6, -3, 1, 0, -7};
  filter.resize(
      static_cast<size_t>(filter_shape[0] * filter_shape[1] * filter_shape[2] * filter_shape[3]));
  KernelRunner k(op);
  k.options().padding = Padding::kValid;
  k.options().stride_h = k.options().stride_w = 1;
  const bool int16 = input_type == TensorType::kInt16;
  Quantization in_q{{0.5f}, {int16 ? 0 : 3}, 0}, out_q{{0.25f}, {int16 ? 0 : -2}, 0};
  Quantization w_q{{0.1f, 0.2f}, {0, 0}, op == "CONV_2D" ? 0 : 3};
  std::vector<T> input(2 * 2 * 2);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<T>(static_cast<int>(i * 7) - 20);
  k.AddInput(input_type, {1, 2, 2, 2}, input).quantization = &in_q;
  RuntimeTensor& w = filter_type == TensorType::kInt4
                         ? k.AddInput(TensorType::kInt4, filter_shape, PackInt4(filter))
                         : k.AddInput(TensorType::kInt8, filter_shape, filter);
  w.quantization = &w_q;
  w.is_constant = true;
  if (int16) {
    k.AddInput(TensorType::kInt64, {2}, std::vector<int64_t>{10, -20});
  } else {
    k.AddInput(TensorType::kInt32, {2}, std::vector<int32_t>{10, -20});
  }
  k.AddOutput(input_type, {1, 1, 1, 2}).quantization = &out_q;
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

TEST(Int4ConvTest, Int4FiltersEqualTheirInt8Unpacking) {
  EXPECT_EQ(RunWithFilter<int8_t>("CONV_2D", TensorType::kInt8, TensorType::kInt4, {2, 2, 2, 2}),
            RunWithFilter<int8_t>("CONV_2D", TensorType::kInt8, TensorType::kInt8, {2, 2, 2, 2}));
  EXPECT_EQ(RunWithFilter<int16_t>("CONV_2D", TensorType::kInt16, TensorType::kInt4, {2, 2, 2, 2}),
            RunWithFilter<int16_t>("CONV_2D", TensorType::kInt16, TensorType::kInt8, {2, 2, 2, 2}));
  // Depthwise: filter [1, 2, 2, 2] over two channels (8 of the 16 values).
  EXPECT_EQ(RunWithFilter<int8_t>("DEPTHWISE_CONV_2D", TensorType::kInt8, TensorType::kInt4,
                                  {1, 2, 2, 2}),
            RunWithFilter<int8_t>("DEPTHWISE_CONV_2D", TensorType::kInt8, TensorType::kInt8,
                                  {1, 2, 2, 2}));
}

}  // namespace
}  // namespace tfa::runtime
