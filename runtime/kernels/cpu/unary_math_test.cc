#include "runtime/kernels/cpu/unary_math.h"

#include <gtest/gtest.h>

#include <complex>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(UnaryMathTest, RsqrtAndLog) {
  KernelRunner rsqrt("RSQRT");
  rsqrt.AddFloatInput({3}, {1, 4, 0.25f});
  rsqrt.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(rsqrt.Run().ok());
  EXPECT_EQ(rsqrt.Output(), (std::vector<float>{1, 0.5f, 2}));
  KernelRunner log("LOG");
  log.AddFloatInput({2}, {1, 1});
  log.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(log.Run().ok());
  EXPECT_EQ(log.Output(), (std::vector<float>{0, 0}));
}

TEST(UnaryMathTest, GeluExactAndApproximate) {
  // gelu(0) = 0; gelu(x) ~ x for large x; gelu(-x) ~ 0 for large x.
  for (bool approximate : {false, true}) {
    KernelRunner k("GELU");
    k.node_data().gelu_approximate = approximate;
    k.AddFloatInput({3}, {0, 10, -10});
    k.AddOutput(TensorType::kFloat32, {3});
    ASSERT_TRUE(k.Run().ok());
    const auto out = k.Output();
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_FLOAT_EQ(out[1], 10.0f);
    EXPECT_NEAR(out[2], 0.0f, 1e-6);
  }
  // gelu(1) = 0.5 * (1 + erf(1 / sqrt 2)) = 0.841345; the tanh form gives 0.841192.
  KernelRunner exact("GELU");
  exact.AddFloatInput({1}, {1});
  exact.AddOutput(TensorType::kFloat32, {1});
  ASSERT_TRUE(exact.Run().ok());
  EXPECT_NEAR(exact.Output()[0], 0.841345f, 1e-6);
  KernelRunner tanh_form("GELU");
  tanh_form.node_data().gelu_approximate = true;
  tanh_form.AddFloatInput({1}, {1});
  tanh_form.AddOutput(TensorType::kFloat32, {1});
  ASSERT_TRUE(tanh_form.Run().ok());
  EXPECT_NEAR(tanh_form.Output()[0], 0.841192f, 1e-6);
}

TEST(UnaryMathTest, ComplexAbs) {
  KernelRunner k("COMPLEX_ABS");
  k.AddInput(TensorType::kComplex64, {2}, std::vector<std::complex<float>>{{3, 4}, {0, -2}});
  k.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 2}));
}

TEST(UnaryMathTest, ComplexAbsRefusesFloatInput) {
  KernelRunner k("COMPLEX_ABS");
  k.AddFloatInput({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
