#include "runtime/kernels/cpu/quantized_elementwise.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr int kAddLeftShift = 20;  // upstream's headroom for int8/uint8 ADD and SUB

struct BinaryParams {
  QuantParams a, b, out;
  QuantizedRange range;
};

Result<BinaryParams> GetParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(b, a.type, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(out, a.type, "output"));
  auto shape = BroadcastShape(a.shape, b.shape);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, *shape));
  BinaryParams p;
  auto pa = PerTensorParams(a, "input 0");
  if (!pa.ok()) return pa.status();
  auto pb = PerTensorParams(b, "input 1");
  if (!pb.ok()) return pb.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  p.a = *pa;
  p.b = *pb;
  p.out = *po;
  auto range = QuantizedActivationRange(context.options().fused_activation, out.type, p.out);
  if (!range.ok()) return range.status();
  p.range = *range;
  return p;
}

// Calls op(stored a, stored b) -> stored output over the broadcast of both inputs.
template <typename T, typename Op>
void Broadcast(KernelContext& context, Op op) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* pa = a.Data<const T>();
  const T* pb = b.Data<const T>();
  T* po = out.Data<T>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = static_cast<T>(op(pa[ia], pb[ib]));
  });
}

template <typename T>
void AddOrSub(KernelContext& context, const BinaryParams& p, bool subtract) {
  // Upstream's float/double mix: 2 * max(float scales) in float, ratios in double.
  const double twice_max = 2.0f * std::max(p.a.scale, p.b.scale);
  const QuantizedMultiplier ma = QuantizeMultiplier(p.a.scale / twice_max);
  const QuantizedMultiplier mb = QuantizeMultiplier(p.b.scale / twice_max);
  const QuantizedMultiplier mo = QuantizeMultiplier(
      twice_max / static_cast<double>(static_cast<float>(1 << kAddLeftShift) * p.out.scale));
  const int32_t zo = p.out.zero_point;
  const QuantizedRange range = p.range;
  // Each input's rescale depends only on its stored byte: two 256-entry tables leave one
  // fixed-point multiply per element (same values, a third of the work).
  std::array<int32_t, 256> scaled_a{}, scaled_b{};
  for (int32_t v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    const auto byte = static_cast<uint8_t>(static_cast<T>(v));
    scaled_a[byte] = MultiplyByQuantizedMultiplier((v - p.a.zero_point) * (1 << kAddLeftShift), ma);
    const int32_t b =
        MultiplyByQuantizedMultiplier((v - p.b.zero_point) * (1 << kAddLeftShift), mb);
    scaled_b[byte] = subtract ? -b : b;
  }
  Broadcast<T>(context, [&](T x, T y) {
    const int32_t sum = scaled_a[static_cast<uint8_t>(x)] + scaled_b[static_cast<uint8_t>(y)];
    return range.Clamp(MultiplyByQuantizedMultiplier(sum, mo) + zo);
  });
}

template <typename T>
void Mul(KernelContext& context, const BinaryParams& p) {
  // Upstream multiplies and divides the float scales in float, then widens.
  const QuantizedMultiplier m =
      QuantizeMultiplier(static_cast<double>(p.a.scale * p.b.scale / p.out.scale));
  const int32_t za = p.a.zero_point, zb = p.b.zero_point, zo = p.out.zero_point;
  const QuantizedRange range = p.range;
  Broadcast<T>(context, [=](T x, T y) {
    return range.Clamp(MultiplyByQuantizedMultiplier((int32_t{x} - za) * (int32_t{y} - zb), m) +
                       zo);
  });
}

// mul.cc's int16 path (16x8 models): reference_integer_ops::Mul, whose int32 product of two
// offset int16 values only fits with every zero point 0.
Result<BinaryParams> GetInt16MulParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt16, "input 0"));
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (p->a.zero_point != 0 || p->b.zero_point != 0 || p->out.zero_point != 0)
    return Status::Error("an int16 MUL needs every zero point to be 0");
  return p;
}

// squared_difference.cc: both inputs, minus their zero points, shifted left 7 and rescaled to
// twice the larger input scale; their difference squared and rescaled to the output. int8 only,
// every multiplier below one (QuantizeMultiplierSmallerThanOneExp checks it), no activation.
struct SquaredDifferenceParams {
  BinaryParams p;
  QuantizedMultiplier a, b, out;
};

constexpr int kSquaredDifferenceLeftShift = 7;

Result<SquaredDifferenceParams> GetSquaredDifferenceParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt8, "input 0"));
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  const double twice_max = 2.0f * std::max(p->a.scale, p->b.scale);
  const double real_out =
      twice_max * twice_max /
      static_cast<double>(static_cast<float>(1 << (2 * kSquaredDifferenceLeftShift)) *
                          p->out.scale);
  if (!(real_out < 1.0))
    return Status::Error("the output scale is too small for SQUARED_DIFFERENCE's rescale");
  SquaredDifferenceParams s;
  s.p = *p;
  s.p.range = TypeRange(TensorType::kInt8);
  s.a = QuantizeMultiplier(p->a.scale / twice_max);
  s.b = QuantizeMultiplier(p->b.scale / twice_max);
  s.out = QuantizeMultiplier(real_out);
  return s;
}

}  // namespace

Status PrepareQuantizedBinary(KernelContext& context) { return GetParams(context).status(); }

Status EvalQuantizedAdd(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    AddOrSub<int8_t>(context, *p, false);
  } else {
    AddOrSub<uint8_t>(context, *p, false);
  }
  return Status::Ok();
}

Status EvalQuantizedSub(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    AddOrSub<int8_t>(context, *p, true);
  } else {
    AddOrSub<uint8_t>(context, *p, true);
  }
  return Status::Ok();
}

Status EvalQuantizedMul(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    Mul<int8_t>(context, *p);
  } else {
    Mul<uint8_t>(context, *p);
  }
  return Status::Ok();
}

Status PrepareQuantizedSquaredDifference(KernelContext& context) {
  return GetSquaredDifferenceParams(context).status();
}

Status EvalQuantizedSquaredDifference(KernelContext& context) {
  auto s = GetSquaredDifferenceParams(context);
  if (!s.ok()) return s.status();
  const SquaredDifferenceParams q = *s;
  Broadcast<int8_t>(context, [q](int8_t x, int8_t y) {
    const int32_t a = MultiplyByQuantizedMultiplier(
        (x - q.p.a.zero_point) * (1 << kSquaredDifferenceLeftShift), q.a);
    const int32_t b = MultiplyByQuantizedMultiplier(
        (y - q.p.b.zero_point) * (1 << kSquaredDifferenceLeftShift), q.b);
    const int32_t diff = a - b;
    return q.p.range.Clamp(MultiplyByQuantizedMultiplier(diff * diff, q.out) + q.p.out.zero_point);
  });
  return Status::Ok();
}

Status PrepareInt16Mul(KernelContext& context) { return GetInt16MulParams(context).status(); }

Status EvalInt16Mul(KernelContext& context) {
  auto p = GetInt16MulParams(context);
  if (!p.ok()) return p.status();
  Mul<int16_t>(context, *p);
  return Status::Ok();
}

}  // namespace tfa::runtime
