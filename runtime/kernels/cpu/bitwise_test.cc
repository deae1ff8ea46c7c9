// The figures of upstream's tflite/kernels/bitwise_xor_test.cc and right_shift_test.cc.
#include "runtime/kernels/cpu/bitwise.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> Compute(const std::string& op, TensorType type, std::vector<int32_t> a_shape,
                       const std::vector<T>& a, std::vector<int32_t> b_shape,
                       const std::vector<T>& b) {
  KernelRunner k(op);
  k.AddInput(type, std::move(a_shape), a);
  k.AddInput(type, std::move(b_shape), b);
  k.AddOutput(type, {1, 1, 1, 4});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

template <typename T>
void ExpectSimple(const std::string& op, TensorType type, const std::vector<T>& a,
                  const std::vector<T>& expected) {
  EXPECT_EQ(Compute<T>(op, type, {1, 1, 1, 4}, a, {1, 1, 1, 4}, {5, 0, 7, 11}), expected)
      << op << " " << TensorTypeName(type);
}

TEST(BitwiseTest, XorOfEachType) {
  ExpectSimple<int8_t>("BITWISE_XOR", TensorType::kInt8, {0, 5, 3, 14}, {5, 5, 4, 5});
  ExpectSimple<int16_t>("BITWISE_XOR", TensorType::kInt16, {0, 5, 3, 14}, {5, 5, 4, 5});
  ExpectSimple<int32_t>("BITWISE_XOR", TensorType::kInt32, {0, 5, 3, 14}, {5, 5, 4, 5});
  ExpectSimple<uint8_t>("BITWISE_XOR", TensorType::kUInt8, {0, 5, 3, 14}, {5, 5, 4, 5});
  ExpectSimple<uint16_t>("BITWISE_XOR", TensorType::kUInt16, {0, 5, 3, 14}, {5, 5, 4, 5});
  ExpectSimple<uint32_t>("BITWISE_XOR", TensorType::kUInt32, {0, 5, 3, 14}, {5, 5, 4, 5});
}

TEST(BitwiseTest, XorBroadcasts) {
  EXPECT_EQ(Compute<int32_t>("BITWISE_XOR", TensorType::kInt32, {1, 1, 1, 1}, {5}, {1, 1, 1, 4},
                             {0, -5, -3, 14}),
            (std::vector<int32_t>{5, -2, -8, 11}));
  EXPECT_EQ(Compute<uint32_t>("BITWISE_XOR", TensorType::kUInt32, {1, 1, 1, 4}, {0, 5, 3, 14},
                              {1, 1, 1, 1}, {5}),
            (std::vector<uint32_t>{5, 0, 6, 11}));
}

// Shifts past the width clamp to width - 1; signed values shift arithmetically.
TEST(BitwiseTest, RightShiftOfEachType) {
  ExpectSimple<int8_t>("RIGHT_SHIFT", TensorType::kInt8, {-1, -5, -3, -14}, {-1, -5, -1, -1});
  ExpectSimple<int16_t>("RIGHT_SHIFT", TensorType::kInt16, {-1, -5, -3, -14}, {-1, -5, -1, -1});
  ExpectSimple<int32_t>("RIGHT_SHIFT", TensorType::kInt32, {-1, -5, -3, -14}, {-1, -5, -1, -1});
  ExpectSimple<uint8_t>("RIGHT_SHIFT", TensorType::kUInt8, {1, 5, 3, 14}, {0, 5, 0, 0});
  ExpectSimple<uint16_t>("RIGHT_SHIFT", TensorType::kUInt16, {1, 5, 3, 14}, {0, 5, 0, 0});
  ExpectSimple<uint32_t>("RIGHT_SHIFT", TensorType::kUInt32, {1, 5, 3, 14}, {0, 5, 0, 0});
}

// A negative shift clamps to 0.
TEST(BitwiseTest, RightShiftBroadcasts) {
  EXPECT_EQ(Compute<int32_t>("RIGHT_SHIFT", TensorType::kInt32, {1, 1, 1, 4}, {-1, -5, -3, -14},
                             {1, 1, 1, 1}, {2}),
            (std::vector<int32_t>{-1, -2, -1, -4}));
  EXPECT_EQ(Compute<int32_t>("RIGHT_SHIFT", TensorType::kInt32, {1, 1, 1, 1}, {4}, {1, 1, 1, 4},
                             {1, -2, 3, -4}),
            (std::vector<int32_t>{2, 4, 0, 4}));
  EXPECT_EQ(Compute<uint32_t>("RIGHT_SHIFT", TensorType::kUInt32, {1, 1, 1, 4}, {5, 0, 7, 11},
                              {1, 1, 1, 1}, {2}),
            (std::vector<uint32_t>{1, 0, 1, 2}));
  EXPECT_EQ(Compute<uint32_t>("RIGHT_SHIFT", TensorType::kUInt32, {1, 1, 1, 1}, {4}, {1, 1, 1, 4},
                              {1, 2, 3, 4}),
            (std::vector<uint32_t>{2, 1, 0, 0}));
}

TEST(BitwiseTest, RefusesWhatUpstreamRefuses) {
  KernelRunner mixed("BITWISE_XOR");
  mixed.AddInput<int32_t>(TensorType::kInt32, {2}, {1, 2});
  mixed.AddInput<int8_t>(TensorType::kInt8, {2}, {1, 2});
  mixed.AddOutput(TensorType::kInt32, {2});
  EXPECT_FALSE(mixed.Run().ok());

  KernelRunner wide("RIGHT_SHIFT");
  wide.AddInput<int64_t>(TensorType::kInt64, {2}, {1, 2});
  wide.AddInput<int64_t>(TensorType::kInt64, {2}, {1, 2});
  wide.AddOutput(TensorType::kInt64, {2});
  EXPECT_FALSE(wide.Run().ok());

  KernelRunner five_d("BITWISE_XOR");
  five_d.AddInput<int32_t>(TensorType::kInt32, {1, 1, 1, 1, 2}, {1, 2});
  five_d.AddInput<int32_t>(TensorType::kInt32, {1}, {3});
  five_d.AddOutput(TensorType::kInt32, {1, 1, 1, 1, 2});
  EXPECT_FALSE(five_d.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
