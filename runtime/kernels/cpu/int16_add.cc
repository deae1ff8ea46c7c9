#include "runtime/kernels/cpu/int16_add.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr int kInt16AddLeftShift = 15;  // 65535 << 15 still fits the int32 sum

enum class Int16AddPath { kPlain, kGeneralScale, kPowerOfTwoScale };

struct Int16AddParams {
  Int16AddPath path = Int16AddPath::kPlain;
  QuantizedRange range;
  // General scales.
  QuantizedMultiplier a, b, out;
  int32_t zero_a = 0, zero_b = 0, zero_out = 0;
  // Power-of-two scales: each input's right shift to the output's scale (one of them is 0).
  int shift_a = 0, shift_b = 0;
};

bool IsQuantized(const RuntimeTensor& t) {
  return t.quantization && !t.quantization->scale.empty();
}

// CalculateActivationRange<int16_t>: the activation's integer bounds, not rescaled.
Result<QuantizedRange> PlainActivationRange(Activation activation) {
  switch (activation) {
    case Activation::kNone:
      return QuantizedRange{-32768, 32767};
    case Activation::kRelu:
      return QuantizedRange{0, 32767};
    case Activation::kRelu6:
      return QuantizedRange{0, 6};
    case Activation::kReluN1To1:
      return QuantizedRange{-1, 1};
    default:
      break;
  }
  return Status::Error(std::string("fused activation ") + ActivationName(activation) +
                       " is not supported");
}

// `subtract`: SUB (tflite/kernels/sub.cc), which also broadcasts on power-of-two scales and, on
// general scales, takes zero points other than 0; ADD (add.cc) takes neither.
Result<Int16AddParams> GetParams(const KernelContext& context, bool subtract) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(a, TensorType::kInt16, "input 0"));
  TFA_RETURN_IF_ERROR(CheckType(b, TensorType::kInt16, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(out, TensorType::kInt16, "output"));
  auto shape = BroadcastShape(a.shape, b.shape);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, *shape));
  const Activation activation = context.options().fused_activation;
  Int16AddParams p;
  // Eval takes the plain sum when the output has no quantization, the quantized paths when it
  // has; Prepare decides on input 0's quantization.
  if (!IsQuantized(out)) {
    // sub.cc has no plain int16 path: it would derive multipliers from zero scales.
    if (subtract) return Status::Error("an int16 SUB needs quantized tensors");
    auto range = PlainActivationRange(activation);
    if (!range.ok()) return range.status();
    p.range = *range;
    return p;
  }
  if (!IsQuantized(a) || !IsQuantized(b)) {
    return Status::Error("a quantized int16 output needs quantized inputs");
  }
  auto qa = PerTensorParams(a, "input 0");
  if (!qa.ok()) return qa.status();
  auto qb = PerTensorParams(b, "input 1");
  if (!qb.ok()) return qb.status();
  auto qo = PerTensorParams(out, "output");
  if (!qo.ok()) return qo.status();
  const bool symmetric = qa->zero_point == 0 && qb->zero_point == 0 && qo->zero_point == 0;
  if (!subtract && !symmetric) {
    return Status::Error("int16 quantization is symmetric: every zero point must be 0");
  }
  auto range = QuantizedActivationRange(activation, TensorType::kInt16, *qo);
  if (!range.ok()) return range.status();
  p.range = *range;
  const std::optional<int> log2_a = CheckedLog2(qa->scale), log2_b = CheckedLog2(qb->scale),
                           log2_out = CheckedLog2(qo->scale);
  if (context.options().pot_scale_int16 && log2_a && log2_b && log2_out) {
    if (!symmetric) {
      return Status::Error("power-of-two int16 scales need every zero point to be 0");
    }
    p.path = Int16AddPath::kPowerOfTwoScale;
    p.shift_a = *log2_out - *log2_a;
    p.shift_b = *log2_out - *log2_b;
    if (p.shift_a < 0 || p.shift_b < 0 || (p.shift_a != 0 && p.shift_b != 0)) {
      return Status::Error(
          "with power-of-two int16 scales, one input's scale must equal the "
          "output's and the other's be no larger");
    }
    if (p.shift_a > 15 || p.shift_b > 15) {
      return Status::Error(
          "a power-of-two int16 input scale is more than 2^15 below the "
          "output's (not supported)");
    }
    if (!subtract && a.shape != b.shape) {
      // Upstream's power-of-two kernel reads both inputs flat, element by element.
      return Status::Error("the power-of-two int16 ADD does not broadcast");
    }
    return p;
  }
  p.path = Int16AddPath::kGeneralScale;
  p.zero_a = qa->zero_point;
  p.zero_b = qb->zero_point;
  p.zero_out = qo->zero_point;
  const double twice_max = 2 * static_cast<double>(std::max(qa->scale, qb->scale));
  p.a = QuantizeMultiplier(static_cast<double>(qa->scale) / twice_max);
  p.b = QuantizeMultiplier(static_cast<double>(qb->scale) / twice_max);
  p.out = QuantizeMultiplier(
      twice_max / (static_cast<double>(1 << kInt16AddLeftShift) * static_cast<double>(qo->scale)));
  return p;
}

template <typename Op>
void Broadcast(KernelContext& context, Op op) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const int16_t* pa = a.Data<const int16_t>();
  const int16_t* pb = b.Data<const int16_t>();
  int16_t* po = out.Data<int16_t>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = static_cast<int16_t>(op(pa[ia], pb[ib]));
  });
}

Status Eval(KernelContext& context, bool subtract) {
  auto p = GetParams(context, subtract);
  if (!p.ok()) return p.status();
  const QuantizedRange range = p->range;
  const int32_t sign = subtract ? -1 : 1;
  switch (p->path) {
    case Int16AddPath::kPlain:
      Broadcast(context, [range](int16_t x, int16_t y) {
        return range.Clamp(
            static_cast<int16_t>(static_cast<uint16_t>(x) + static_cast<uint16_t>(y)));
      });
      break;
    case Int16AddPath::kGeneralScale: {
      const QuantizedMultiplier ma = p->a, mb = p->b, mo = p->out;
      const int32_t za = p->zero_a, zb = p->zero_b, zo = p->zero_out;
      Broadcast(context, [=](int16_t x, int16_t y) {
        const int32_t sum =
            MultiplyByQuantizedMultiplier((x - za) * (1 << kInt16AddLeftShift), ma) +
            sign * MultiplyByQuantizedMultiplier((y - zb) * (1 << kInt16AddLeftShift), mb);
        return range.Clamp(MultiplyByQuantizedMultiplier(sum, mo) + zo);
      });
      break;
    }
    case Int16AddPath::kPowerOfTwoScale: {
      const int sa = p->shift_a, sb = p->shift_b;
      Broadcast(context, [=](int16_t x, int16_t y) {
        const int32_t sum = RoundingDivideByPOT(x, sa) + sign * RoundingDivideByPOT(y, sb);
        const int32_t saturated = std::clamp<int32_t>(sum, std::numeric_limits<int16_t>::min(),
                                                      std::numeric_limits<int16_t>::max());
        return range.Clamp(saturated);
      });
      break;
    }
  }
  return Status::Ok();
}

}  // namespace

Status PrepareInt16Add(KernelContext& context) { return GetParams(context, false).status(); }
Status EvalInt16Add(KernelContext& context) { return Eval(context, false); }
Status PrepareInt16Sub(KernelContext& context) { return GetParams(context, true).status(); }
Status EvalInt16Sub(KernelContext& context) { return Eval(context, true); }

}  // namespace tfa::runtime
