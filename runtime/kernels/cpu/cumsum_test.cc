#include "runtime/kernels/cpu/cumsum.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> RunCumsum(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
                         int32_t axis, bool exclusive, bool reverse) {
  KernelRunner k("CUMSUM");
  k.options().exclusive = exclusive;
  k.options().reverse = reverse;
  k.AddInput<T>(type, shape, values);
  k.AddInt32Input({1}, {axis});
  k.AddOutput(type, shape);
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

const std::vector<int32_t> kOneToEight = {1, 2, 3, 4, 5, 6, 7, 8};

// Figures of upstream's cumsum_test.cc.
TEST(CumsumTest, UpstreamInt32Figures) {
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {2, 4}, kOneToEight, 1, false, false),
            (std::vector<int32_t>{1, 3, 6, 10, 5, 11, 18, 26}));
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {2, 4}, kOneToEight, 0, false, false),
            (std::vector<int32_t>{1, 2, 3, 4, 6, 8, 10, 12}));
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {8}, kOneToEight, 0, false, false),
            (std::vector<int32_t>{1, 3, 6, 10, 15, 21, 28, 36}));
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {2, 4}, kOneToEight, 1, false, true),
            (std::vector<int32_t>{10, 9, 7, 4, 26, 21, 15, 8}));
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {2, 4}, kOneToEight, 1, true, false),
            (std::vector<int32_t>{0, 1, 3, 6, 0, 5, 11, 18}));
}

TEST(CumsumTest, UpstreamInt64AndFloatFigures) {
  EXPECT_EQ(RunCumsum<int64_t>(TensorType::kInt64, {2, 4},
                               {100000000001, 100000000002, 100000000003, 100000000004,
                                100000000005, 100000000006, 100000000007, 100000000008},
                               1, false, false),
            (std::vector<int64_t>{100000000001, 200000000003, 300000000006, 400000000010,
                                  100000000005, 200000000011, 300000000018, 400000000026}));
  EXPECT_EQ(
      RunCumsum<float>(TensorType::kFloat32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}, 1, false, false),
      (std::vector<float>{1, 3, 6, 10, 5, 11, 18, 26}));
}

// Upstream's Int32OverflowWrapsWithoutUb / Int64OverflowWrapsWithoutUb.
TEST(CumsumTest, IntegerSumsWrap) {
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {2}, {std::numeric_limits<int32_t>::max(), 1}, 0,
                               false, false),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(RunCumsum<int64_t>(TensorType::kInt64, {2}, {std::numeric_limits<int64_t>::max(), 1}, 0,
                               false, false),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()}));
}

TEST(CumsumTest, NegativeAxisCountsFromTheEnd) {
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {1, 1, 2}, {1, 2}, -1, false, false),
            (std::vector<int32_t>{1, 3}));
}

TEST(CumsumTest, ReverseExclusive) {
  EXPECT_EQ(RunCumsum<int32_t>(TensorType::kInt32, {4}, {1, 2, 3, 4}, 0, true, true),
            (std::vector<int32_t>{9, 7, 4, 0}));
}

// Upstream's InvalidAxisRejected.
TEST(CumsumTest, AxisOutOfRangeIsAnError) {
  KernelRunner k("CUMSUM");
  k.AddInt32Input({2}, {1, 2});
  k.AddInt32Input({1}, {1});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_EQ(k.Run().message(), "axis 1 is out of range for rank 1");
}

TEST(CumsumTest, Int8IsAnError) {
  KernelRunner k("CUMSUM");
  k.AddInput<int8_t>(TensorType::kInt8, {2}, {1, 2});
  k.AddInt32Input({1}, {0});
  k.AddOutput(TensorType::kInt8, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
