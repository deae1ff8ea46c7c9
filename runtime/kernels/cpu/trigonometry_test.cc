#include "runtime/kernels/cpu/trigonometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(TrigonometryTest, SinOfEachElement) {
  KernelRunner k("SIN");
  k.AddFloatInput({2, 2}, {0.0f, 1.0f, -2.5f, 3.0f});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(),
            (std::vector<float>{std::sin(0.0f), std::sin(1.0f), std::sin(-2.5f), std::sin(3.0f)}));
}

TEST(TrigonometryTest, CosOfEachElement) {
  KernelRunner k("COS");
  k.AddFloatInput({3}, {0.0f, 1.0f, -2.5f});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1.0f, std::cos(1.0f), std::cos(-2.5f)}));
}

// Upstream's GenericPrepare accepts float32 only for SIN and COS.
TEST(TrigonometryTest, Int32InputIsAnError) {
  KernelRunner k("SIN");
  k.AddInt32Input({2}, {0, 1});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_FALSE(k.Run().ok());
}

template <typename T>
std::vector<T> RunAtan2(TensorType type, std::vector<int32_t> shape, const std::vector<T>& y,
                        const std::vector<T>& x) {
  KernelRunner k("ATAN2");
  k.AddInput<T>(type, shape, y);
  k.AddInput<T>(type, shape, x);
  k.AddOutput(type, shape);
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

// Figures of upstream's atan2_test.cc (TestScalar, TestBatch).
TEST(TrigonometryTest, Atan2UpstreamFigures) {
  const float half_pi = static_cast<float>(M_PI / 2);
  EXPECT_EQ(RunAtan2<float>(TensorType::kFloat32, {}, {0}, {0}), (std::vector<float>{0}));
  EXPECT_FLOAT_EQ(RunAtan2<float>(TensorType::kFloat32, {}, {1}, {0})[0], half_pi);
  EXPECT_EQ(RunAtan2<float>(TensorType::kFloat32, {}, {0}, {1}), (std::vector<float>{0}));
  EXPECT_FLOAT_EQ(RunAtan2<float>(TensorType::kFloat32, {}, {-1}, {0})[0], -half_pi);
  const std::vector<float> y = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
  const std::vector<float> x = {0.8f, 0.7f, 0.6f, 0.5f, 0.4f, 0.3f, 0.2f, 0.1f};
  const std::vector<float> got = RunAtan2<float>(TensorType::kFloat32, {4, 2, 1}, y, x);
  ASSERT_EQ(got.size(), 8u);
  for (size_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(got[i], std::atan2(y[i], x[i])) << i;
  const std::vector<double> got64 =
      RunAtan2<double>(TensorType::kFloat64, {2}, {0.1, -0.7}, {0.8, 0.2});
  EXPECT_EQ(got64, (std::vector<double>{std::atan2(0.1, 0.8), std::atan2(-0.7, 0.2)}));
}

TEST(TrigonometryTest, Atan2OfDifferentShapesIsAnError) {
  KernelRunner k("ATAN2");
  k.AddFloatInput({2}, {1, 2});
  k.AddFloatInput({1}, {1});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_EQ(k.Run().message(), "y [2] and x [1] differ in shape");
}

}  // namespace
}  // namespace tfa::runtime
