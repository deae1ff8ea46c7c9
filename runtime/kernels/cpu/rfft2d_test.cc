#include "runtime/kernels/cpu/rfft2d.h"

#include <gtest/gtest.h>

#include <complex>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using Complex = std::complex<float>;

void ExpectNear(const std::vector<Complex>& actual, const std::vector<Complex>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i].real(), expected[i].real(), 1e-6) << i;
    EXPECT_NEAR(actual[i].imag(), expected[i].imag(), 1e-6) << i;
  }
}

// A unit impulse at position 1 of 4: X[k] = exp(-2 pi i k / 4) for k = 0..2.
TEST(Rfft2DTest, ForwardSignConventionAndHalfSpectrum) {
  KernelRunner k("RFFT2D");
  k.AddFloatInput({1, 4}, {0, 1, 0, 0});
  k.AddInt32Input({2}, {1, 4});
  k.AddOutput(TensorType::kComplex64, {1, 3});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output<Complex>(), {{1, 0}, {0, -1}, {-1, 0}});
}

// [[1, 2], [3, 4]]: sums 10, column difference -2, row difference -4, diagonal 0.
TEST(Rfft2DTest, TwoDimensions) {
  KernelRunner k("RFFT2D");
  k.AddFloatInput({2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({2}, {2, 2});
  k.AddOutput(TensorType::kComplex64, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output<Complex>(), {{10, 0}, {-2, 0}, {-4, 0}, {0, 0}});
}

// Input [1, 1] zero-padded to 4: 1 + exp(-pi i k / 2).
TEST(Rfft2DTest, ZeroPadsToTheFftLength) {
  KernelRunner k("RFFT2D");
  k.AddFloatInput({1, 2}, {1, 1});
  k.AddInt32Input({2}, {1, 4});
  k.AddOutput(TensorType::kComplex64, {1, 3});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output<Complex>(), {{2, 0}, {1, -1}, {0, 0}});
}

TEST(Rfft2DTest, RefusesLengthsThatAreNotPowersOfTwo) {
  KernelRunner k("RFFT2D");
  k.AddFloatInput({1, 3}, {1, 2, 3});
  k.AddInt32Input({2}, {1, 3});
  k.AddOutput(TensorType::kComplex64, {1, 2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
