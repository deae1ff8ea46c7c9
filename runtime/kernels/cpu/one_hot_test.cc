#include "runtime/kernels/cpu/one_hot.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> RunOneHot(TensorType type, std::vector<int32_t> indices_shape,
                         const std::vector<int32_t>& indices, int32_t depth, int32_t axis, T on,
                         T off, std::vector<int32_t> out_shape) {
  KernelRunner k("ONE_HOT");
  k.options().axis = axis;
  k.AddInt32Input(std::move(indices_shape), indices);
  k.AddInt32Input({}, {depth}).is_constant = true;
  k.AddInput<T>(type, {}, {on});
  k.AddInput<T>(type, {}, {off});
  k.AddOutput(type, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

// Figures of upstream's one_hot_test.cc; index -1 leaves its slice all off.
TEST(OneHotTest, UpstreamFigures) {
  EXPECT_EQ(RunOneHot<int32_t>(TensorType::kInt32, {4}, {0, 2, -1, 1}, 3, -1, 5, 0, {4, 3}),
            (std::vector<int32_t>{5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0}));
  EXPECT_EQ(RunOneHot<int32_t>(TensorType::kInt32, {4}, {0, 2, -1, 1}, 3, 0, 5, 0, {3, 4}),
            (std::vector<int32_t>{5, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0, 0}));
  EXPECT_EQ(RunOneHot<float>(TensorType::kFloat32, {2, 2}, {0, 2, 1, -1}, 3, -1, 2, 0, {2, 2, 3}),
            (std::vector<float>{2, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0}));
  EXPECT_EQ(RunOneHot<uint8_t>(TensorType::kBool, {2}, {0, 1}, 4, -1, 1, 0, {2, 4}),
            (std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 0, 0}));
}

TEST(OneHotTest, Int64Indices) {
  KernelRunner k("ONE_HOT");
  k.options().axis = -1;
  k.AddInput<int64_t>(TensorType::kInt64, {3}, {0, 1, 2});
  k.AddInt32Input({}, {3}).is_constant = true;
  k.AddInt32Input({}, {1});
  k.AddInt32Input({}, {0});
  k.AddOutput(TensorType::kInt32, {3, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST(OneHotTest, ANegativeDepthIsAnError) {
  KernelRunner k("ONE_HOT");
  k.options().axis = -1;
  k.AddInt32Input({1}, {0});
  k.AddInt32Input({}, {-2});
  k.AddFloatInput({}, {1});
  k.AddFloatInput({}, {0});
  k.AddOutput(TensorType::kFloat32, {1, 0});
  EXPECT_EQ(k.Run().message(), "ONE_HOT depth -2 is negative");
}

}  // namespace
}  // namespace tfa::runtime
