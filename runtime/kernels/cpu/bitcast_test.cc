// The figures of upstream's tflite/kernels/bitcast_test.cc (little-endian).
#include "runtime/kernels/cpu/bitcast.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(BitcastTest, Int32ToUint32) {
  KernelRunner k("BITCAST");
  k.AddInput<int32_t>(
      TensorType::kInt32, {2, 3},
      {std::numeric_limits<int32_t>::min(), -100, -1, 0, 100, std::numeric_limits<int32_t>::max()});
  k.AddOutput(TensorType::kUInt32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<uint32_t>(),
            (std::vector<uint32_t>{0x80000000u, 0xffffff9cu, 0xffffffffu, 0, 100, 0x7fffffffu}));
}

TEST(BitcastTest, Uint32ToInt16AddsADimension) {
  KernelRunner k("BITCAST");
  k.AddInput<uint32_t>(TensorType::kUInt32, {2, 1}, {65536u, 65535u});
  k.AddOutput(TensorType::kInt16, {2, 1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{0, 1, -1, 0}));
}

TEST(BitcastTest, Int16ToUint32DropsTheLastDimension) {
  KernelRunner k("BITCAST");
  k.AddInput<int16_t>(TensorType::kInt16, {2, 1, 2}, {0, 1, -1, 0});
  k.AddOutput(TensorType::kUInt32, {2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<uint32_t>(), (std::vector<uint32_t>{65536u, 65535u}));
}

// Upstream's BitcastInt16ToUint32WrongShape: "7 != 2".
TEST(BitcastTest, ALastDimensionOtherThanTheRatioIsRefused) {
  KernelRunner k("BITCAST");
  k.AddInput<int16_t>(TensorType::kInt16, {2, 2, 7}, std::vector<int16_t>(28));
  k.AddOutput(TensorType::kUInt32, {2, 7});
  EXPECT_EQ(k.Run().message(), "input [2,2,7] does not end in 2 int16 elements per uint32");
}

}  // namespace
}  // namespace tfa::runtime
