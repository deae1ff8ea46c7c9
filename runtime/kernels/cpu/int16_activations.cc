#include "runtime/kernels/cpu/int16_activations.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "runtime/kernels/cpu/fixed_point_activations.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_softmax.h"

namespace tfa::runtime {
namespace {

// sigmoid(i / 24) in unsigned Q0.16, saturated at 65535: the table reference_integer_ops'
// int16 LOGISTIC and TANH interpolate (tflite/kernels/internal/common.h sigmoid_table_uint16).
// Its entries are not reproducible by any single rounding of the formula, so they are data.
constexpr std::array<uint32_t, 256> kSigmoidTable = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

struct Int16Params {
  QuantParams in, out;
};

Result<Int16Params> GetParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kInt16, "input"));
  TFA_RETURN_IF_ERROR(CheckType(out, TensorType::kInt16, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  // Every int16 activation's Prepare: TF_LITE_ENSURE_EQ(zero_point, 0) on both.
  if (pi->zero_point != 0 || po->zero_point != 0) {
    return Status::Error("int16 input and output must have zero point 0, got " +
                         std::to_string(pi->zero_point) + " and " + std::to_string(po->zero_point));
  }
  return Int16Params{*pi, *po};
}

// Upstream divides the float scales in float and widens the quotient to double.
QuantizedMultiplier FloatRatio(float numerator, float denominator) {
  return QuantizeMultiplier(static_cast<double>(numerator / denominator));
}

template <typename F>
void Map(KernelContext& context, F f) {
  const auto* in = context.input(0).Data<const int16_t>();
  auto* out = context.output(0).Data<int16_t>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

// QuantizedReluX (activations.cc): rescale, then clamp to [round(lo / s), round(hi / s)] within
// int16; an infinite bound clamps only to the type.
Status Relu(KernelContext& context, float lo, float hi) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  const QuantizedMultiplier m = FloatRatio(p->in.scale, p->out.scale);
  QuantizedRange range = TypeRange(TensorType::kInt16);
  range.min = std::max(range.min, static_cast<int32_t>(std::round(lo / p->out.scale)));
  if (std::isfinite(hi))
    range.max = std::min(range.max, static_cast<int32_t>(std::round(hi / p->out.scale)));
  Map(context, [&](int16_t x) {
    return static_cast<int16_t>(range.Clamp(MultiplyByQuantizedMultiplier(x, m)));
  });
  return Status::Ok();
}

// How LOGISTIC and TANH read the input: multiplier 0 means the power-of-two scale upstream
// hands to gemmlowp's fixed point, with `left_shift` its extra doubling (TANH at 2^-11).
struct SigmoidInputScaling {
  int32_t multiplier = 0;
  int left_shift = 0;
};

// LOGISTIC and TANH Prepare's int16 rules (activations.cc): a power-of-two input scale whose
// left shift (12 + log2 scale) is one of `pot_shifts`, else an integer multiplier bringing the
// input to 1/(3 * 4096) with a left shift grown until the multiplier passes 32767 / 2; the
// output scale's log2 must round to -15.
Result<SigmoidInputScaling> SigmoidScaling(const Int16Params& p, int max_pot_shift) {
  constexpr int kInputIntegerBits = 3;
  SigmoidInputScaling s;
  const std::optional<int> log2 = CheckedLog2(p.in.scale);
  if (log2) s.left_shift = (15 - kInputIntegerBits) + *log2;
  if (!log2 || s.left_shift < 0 || s.left_shift > max_pot_shift) {
    double multiplier = static_cast<double>(p.in.scale) * 4096.0 * 3.0;
    s.left_shift = 0;
    while (multiplier <= 32767.0 / 2.0 && s.left_shift <= 30) {
      ++s.left_shift;
      multiplier *= 2.0;
    }
    s.multiplier = static_cast<int32_t>(multiplier);
  }
  const std::optional<int> out_log2 = CheckedLog2(p.out.scale);
  if (!out_log2 || *out_log2 != -15)
    return Status::Error("int16 output scale must be 2^-15, got " + ScaleText(p.out.scale));
  return s;
}

int32_t RescaleForTable(int16_t x, int32_t multiplier, int left_shift) {
  const int32_t round = left_shift > 0 ? int32_t{1} << (left_shift - 1) : 0;
  return (int32_t{x} * multiplier + round) >> left_shift;
}

// |v| looked up in the table with `fraction_bits` bits interpolated, saturating at the end.
uint32_t InterpolateSigmoid(uint32_t magnitude, int fraction_bits, uint32_t saturated) {
  const uint32_t index = magnitude >> fraction_bits;
  if (index >= 255) return saturated;
  const uint32_t a = kSigmoidTable[index];
  const uint32_t b = kSigmoidTable[index + 1];
  const uint32_t fraction = magnitude & ((uint32_t{1} << fraction_bits) - 1);
  return (a << fraction_bits) + fraction * (b - a);
}

}  // namespace

int16_t SigmoidTableLogistic(int16_t x, int32_t multiplier, int left_shift) {
  const int32_t v = RescaleForTable(x, multiplier, left_shift);
  uint32_t r = InterpolateSigmoid(static_cast<uint32_t>(std::abs(v)), 9, 0x7FFFu << 10);
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
  return static_cast<int16_t>(r >> 10);
}

int16_t SigmoidTableTanh(int16_t x, int32_t multiplier, int left_shift) {
  const int32_t v = RescaleForTable(x, multiplier, left_shift);
  // tanh(x) = 2 * sigmoid(2x) - 1: one fewer fraction bit than LOGISTIC.
  auto r =
      static_cast<int32_t>(InterpolateSigmoid(static_cast<uint32_t>(std::abs(v)), 8, 0xFFFFu << 8));
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(r >> 8);
}

Status PrepareInt16Relu(KernelContext& context) { return GetParams(context).status(); }

Status EvalInt16Relu(KernelContext& context) {
  return Relu(context, 0.0f, std::numeric_limits<float>::infinity());
}

Status EvalInt16Relu6(KernelContext& context) { return Relu(context, 0.0f, 6.0f); }

Status PrepareInt16LeakyRelu(KernelContext& context) { return GetParams(context).status(); }

// reference_ops::QuantizeLeakyRelu; upstream's default kernel runs its int16 NEON twin
// (optimized_integer_ops::QuantizeLeakyRelu), which computes the same rescales.
Status EvalInt16LeakyRelu(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  const QuantizedMultiplier identity = FloatRatio(p->in.scale, p->out.scale);
  const QuantizedMultiplier negative =
      FloatRatio(p->in.scale * context.options().alpha, p->out.scale);
  const QuantizedRange range = TypeRange(TensorType::kInt16);
  Map(context, [&](int16_t x) {
    return static_cast<int16_t>(
        range.Clamp(MultiplyByQuantizedMultiplier(x, x >= 0 ? identity : negative)));
  });
  return Status::Ok();
}

Status PrepareInt16Logistic(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  // SigmoidPrepare (kGenericOptimized) compares the output scale with 1/32768 exactly.
  if (p->out.scale != 1.0f / 32768)
    return Status::Error("int16 output scale must be 1/32768, got " + ScaleText(p->out.scale));
  return SigmoidScaling(*p, 0).status();
}

Status EvalInt16Logistic(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  auto s = SigmoidScaling(*p, 0);
  if (!s.ok()) return s.status();
  if (s->multiplier == 0) {
    Map(context, [](int16_t x) { return FixedPointLogistic(x, 3); });
  } else {
    Map(context, [&](int16_t x) { return SigmoidTableLogistic(x, s->multiplier, s->left_shift); });
  }
  return Status::Ok();
}

Status PrepareInt16Tanh(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  return SigmoidScaling(*p, 1).status();
}

Status EvalInt16Tanh(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  auto s = SigmoidScaling(*p, 1);
  if (!s.ok()) return s.status();
  if (s->multiplier == 0) {
    // Scale 2^-11: gemmlowp's saturating doubling first, into the 3 integer bits of 2^-12.
    const int shift = s->left_shift;
    Map(context, [shift](int16_t x) {
      const int32_t doubled = std::clamp(int32_t{x} * (1 << shift), -32768, 32767);
      return FixedPointTanh(static_cast<int16_t>(doubled), 3);
    });
  } else {
    Map(context, [&](int16_t x) { return SigmoidTableTanh(x, s->multiplier, s->left_shift); });
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
