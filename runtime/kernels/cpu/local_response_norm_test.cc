#include "runtime/kernels/cpu/local_response_norm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<float> RunLrn(int32_t radius, float bias, float alpha, float beta) {
  KernelRunner k("LOCAL_RESPONSE_NORMALIZATION");
  k.options().radius = radius;
  k.options().bias = bias;
  k.options().alpha = alpha;
  k.options().beta = beta;
  k.AddFloatInput({1, 1, 1, 6}, {-1.1f, 0.6f, 0.7f, 1.2f, -0.7f, 0.1f});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 6});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5f) << i;
}

// Figures of upstream's local_response_norm_test.cc.
TEST(LocalResponseNormTest, UpstreamFigures) {
  // SameAsL2Norm: every input divided by 2.
  ExpectNear(RunLrn(20, 0, 1, 0.5f), {-0.55f, 0.3f, 0.35f, 0.6f, -0.35f, 0.05f});
  // WithAlpha: divided by 4.
  ExpectNear(RunLrn(20, 0, 4, 0.5f), {-0.275f, 0.15f, 0.175f, 0.3f, -0.175f, 0.025f});
  // WithBias: divided by 5.
  ExpectNear(RunLrn(20, 9, 4, 0.5f), {-0.22f, 0.12f, 0.14f, 0.24f, -0.14f, 0.02f});
  // SmallRadius: each window is clipped to the depth.
  ExpectNear(RunLrn(2, 9, 4, 0.5f),
             {-0.264926f, 0.125109f, 0.140112f, 0.267261f, -0.161788f, 0.0244266f});
}

TEST(LocalResponseNormTest, RankOtherThanFourIsAnError) {
  KernelRunner k("LOCAL_RESPONSE_NORMALIZATION");
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
