#include "runtime/delegates/xnnpack/xnnpack_sin_cos.h"

#include <cmath>

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

// The constants of src/f32-vsin/rational-5-4.c.in, rounded to float as XNNPACK writes them.
constexpr float kPi = 3.1415927f;
constexpr float kHalfPi = 1.5707964f;
constexpr float kInverseTwoPi = 0.15915494f;
// 2*pi in two parts: 11 bits of mantissa, then the rest.
constexpr float kTwoPiHigh = 6.28125f;
constexpr float kTwoPiLow = 1.9353072e-3f;
constexpr float kAlpha3 = -1.3314664364e-01f;
constexpr float kAlpha5 = 3.2340581529e-03f;
constexpr float kBeta2 = 3.3519912511e-02f;
constexpr float kBeta4 = 4.8770775902e-04f;

// x less the nearest multiple of 2*pi, as XNNPACK reduces it (round half to even, as the SIMD
// round instruction does in the default rounding mode).
float ReduceByTwoPi(float x) {
  const float turns = std::nearbyint(x * kInverseTwoPi);
  x = std::fma(-turns, kTwoPiHigh, x);
  return std::fma(-turns, kTwoPiLow, x);
}

// The rational approximation of sin on [-pi, pi], after XNNPACK's three folding steps.
float RationalSin(float x) {
  x = std::fmin(x, kPi - x);
  x = std::fmax(x, -kPi - x);
  x = std::fmin(x, kPi - x);
  const float x2 = x * x;
  float p = std::fma(x2, kAlpha5, kAlpha3);
  p = std::fma(x2, p, 1.0f);
  p = x * p;
  float q = std::fma(x2, kBeta4, kBeta2);
  q = std::fma(x2, q, 1.0f);
  return p / q;
}

Status EvalXnnpackSin(KernelContext& context) { return MapUnaryFloat(context, &XnnpackSin); }

Status EvalXnnpackCos(KernelContext& context) { return MapUnaryFloat(context, &XnnpackCos); }

const KernelRegistration kXnnpackSin = {PrepareUnaryFloat, EvalXnnpackSin};
const KernelRegistration kXnnpackCos = {PrepareUnaryFloat, EvalXnnpackCos};

}  // namespace

float XnnpackSin(float x) { return RationalSin(ReduceByTwoPi(x)); }

// XNNPACK's cosine is the sine of pi/2 - x, taken after the reduction.
float XnnpackCos(float x) { return RationalSin(kHalfPi - ReduceByTwoPi(x)); }

const KernelRegistration* FindXnnpackCpuStepKernel(const std::string& op) {
  if (op == "SIN") return &kXnnpackSin;
  if (op == "COS") return &kXnnpackCos;
  return FindCpuKernel(op);
}

}  // namespace tfa::runtime
