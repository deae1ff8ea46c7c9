#include "runtime/kernels/cpu/complex_parts.h"

#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Upstream's complex_support_test.cc: the same eight values for REAL, IMAG and COMPLEX_ABS, in
// both widths, at ArrayFloatNear's default tolerance (1e-5).
template <typename T>
std::vector<std::complex<T>> UpstreamValues(bool real_test) {
  // RealOpTest's first and third imaginary parts are 0 where the other tests' are 7 and 3.5.
  const T first = real_test ? T{0} : T{7}, third = real_test ? T{0} : T{3.5};
  return {{T{75}, first}, {T{-6}, T{-1}}, {T{9}, third}, {T{-10}, T{5}},
          {T{-3}, T{2}},  {T{-6}, T{11}}, {T{0}, T{0}},  {T(22.1), T(33.3)}};
}

template <typename T>
std::vector<T> RunPart(const char* op, bool real_test) {
  constexpr bool kDouble = sizeof(T) == 8;
  KernelRunner k(op);
  k.AddInput(kDouble ? TensorType::kComplex128 : TensorType::kComplex64, {2, 4},
             UpstreamValues<T>(real_test));
  k.AddOutput(kDouble ? TensorType::kFloat64 : TensorType::kFloat32, {2, 4});
  EXPECT_TRUE(k.Run().ok()) << op;
  return k.Output<T>();
}

template <typename T>
void ExpectNear(const std::vector<T>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(ComplexPartsTest, UpstreamReal) {
  const std::vector<float> want = {75, -6, 9, -10, -3, -6, 0, 22.1f};
  ExpectNear(RunPart<float>("REAL", true), want);
  ExpectNear(RunPart<double>("REAL", true), want);
}

TEST(ComplexPartsTest, UpstreamImag) {
  const std::vector<float> want = {7, -1, 3.5f, 5, 2, 11, 0, 33.3f};
  ExpectNear(RunPart<float>("IMAG", false), want);
  ExpectNear(RunPart<double>("IMAG", false), want);
}

TEST(ComplexPartsTest, UpstreamComplexAbs) {
  const std::vector<float> want = {75.32596f,  6.0827627f, 9.656604f, 11.18034f,
                                   3.6055512f, 12.529964f, 0.f,       39.966236f};
  ExpectNear(RunPart<float>("COMPLEX_ABS", false), want);
  ExpectNear(RunPart<double>("COMPLEX_ABS", false), want);
}

// IncompatibleType64Test / IncompatibleType128Test, and a real input.
TEST(ComplexPartsTest, RefusesWhatUpstreamRefuses) {
  KernelRunner wide_output("COMPLEX_ABS");
  wide_output.AddInput(TensorType::kComplex64, {1}, std::vector<std::complex<float>>{{3, 4}});
  wide_output.AddOutput(TensorType::kFloat64, {1});
  EXPECT_FALSE(wide_output.Run().ok());
  KernelRunner narrow_output("REAL");
  narrow_output.AddInput(TensorType::kComplex128, {1}, std::vector<std::complex<double>>{{3, 4}});
  narrow_output.AddOutput(TensorType::kFloat32, {1});
  EXPECT_FALSE(narrow_output.Run().ok());
  KernelRunner real_input("IMAG");
  real_input.AddFloatInput({2}, {1, 2});
  real_input.AddOutput(TensorType::kFloat32, {2});
  const Status status = real_input.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "input is float32, expected complex64 or complex128");
}

}  // namespace
}  // namespace tfa::runtime
