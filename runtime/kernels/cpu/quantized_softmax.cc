#include "runtime/kernels/cpu/quantized_softmax.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

struct SoftmaxQuantization {
  QuantParams in, out;
};

Result<SoftmaxQuantization> GetParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  if (in.Rank() < 1) return Status::Error("input must have at least one dimension");
  // Upstream's SoftmaxEval takes uint8 -> uint8 or int16 and int8 -> int8 or int16.
  if (out.type != in.type && out.type != TensorType::kInt16) {
    return Status::Error(std::string(TensorTypeName(in.type)) + " input takes a " +
                         TensorTypeName(in.type) + " or int16 output, got " +
                         TensorTypeName(out.type));
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  if (in.type == TensorType::kInt8 && out.type == TensorType::kInt8) {
    // SoftmaxPrepare: TF_LITE_ENSURE_EQ(zero_point, -128) and
    // TF_LITE_ENSURE_NEAR(scale, 1.f / 256, 0.001f * 1.f / 256), all in float.
    if (po->zero_point != -128) {
      return Status::Error(
          "int8 output must have zero point -128 (upstream's fixed softmax "
          "quantization), got " +
          std::to_string(po->zero_point));
    }
    const float expected = 1.f / 256;
    const float delta = po->scale > expected ? po->scale - expected : expected - po->scale;
    if (delta > 0.001f * 1.f / 256) {
      return Status::Error(
          "int8 output must have scale 1/256 within 0.1% (upstream's fixed "
          "softmax quantization), got " +
          ScaleText(po->scale));
    }
  }
  return SoftmaxQuantization{*pi, *po};
}

// Stored output of a rescaled probability p (probability / output scale) before the clamp.
template <typename Out>
int32_t QuantizeProbability(float p, int32_t zero_point) {
  if constexpr (std::is_same_v<Out, uint8_t>) {
    // optimized_ops.h: `#if !__aarch64__` QuantizeSoftmaxOutput<uint8_t> is
    // static_cast<int32_t>(prob_rescaled + 0.5f), without the zero point.
    return TruncateToInt32LikeX86(p + 0.5f);
  } else {
    // static_cast<int32_t>(std::round(prob_rescaled)) + zero_point, the sum wrapping as on x86.
    return static_cast<int32_t>(static_cast<uint32_t>(TruncateToInt32LikeX86(std::round(p))) +
                                static_cast<uint32_t>(zero_point));
  }
}

template <typename In, typename Out>
void RunSoftmax(const RuntimeTensor& in, RuntimeTensor& out, const SoftmaxQuantization& q,
                float beta) {
  const int64_t depth = in.shape.back();
  if (depth == 0 || in.NumElements() == 0) return;
  const int64_t rows = in.NumElements() / depth;
  const std::array<float, 256> table = SoftmaxExpTable(q.in.scale, beta);
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  // In place is allowed (upstream registers SOFTMAX with kTfLiteInplaceOpInput0Shared): a row is
  // read fully before it is written, and each output reads only its own input.
  const In* x = in.Data<const In>();
  Out* y = out.Data<Out>();
  for (int64_t r = 0; r < rows; ++r) {
    const In* xr = x + r * depth;
    Out* yr = y + r * depth;
    int32_t max = std::numeric_limits<In>::min();
    for (int64_t i = 0; i < depth; ++i) max = std::max(max, static_cast<int32_t>(xr[i]));
    // table[255 - max + x] = exp(-input_scale * beta * (max - x)).
    const float* exp_of = table.data() + 255;
    auto exp_at = [&](In v) { return exp_of[static_cast<int32_t>(v) - max]; };
    float sum = 0.0f;
    for (int64_t i = 0; i < depth; ++i) sum += exp_at(xr[i]);
    const float inverse = 1.0f / (sum * q.out.scale);
    for (int64_t i = 0; i < depth; ++i) {
      const int32_t v = QuantizeProbability<Out>(exp_at(xr[i]) * inverse, q.out.zero_point);
      yr[i] = static_cast<Out>(std::min(std::max(v, kMin), kMax));
    }
  }
}

}  // namespace

std::array<float, 256> SoftmaxExpTable(float input_scale, float beta) {
  std::array<float, 256> table{};
  const float scale = -input_scale * beta;
  for (int32_t d = 0; d <= 255; ++d) {
    table[static_cast<size_t>(255 - d)] = std::exp(scale * static_cast<float>(d));
  }
  return table;
}

std::string ScaleText(float x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), x);
  return std::string(buffer, result.ptr);
}

int32_t TruncateToInt32LikeX86(float x) {
  if (!(x >= -2147483648.0f && x < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(x);
}

Status PrepareQuantizedSoftmax(KernelContext& context) { return GetParams(context).status(); }

Status EvalQuantizedSoftmax(KernelContext& context) {
  auto q = GetParams(context);
  if (!q.ok()) return q.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const float beta = context.options().beta;
  const bool int16_out = out.type == TensorType::kInt16;
  if (in.type == TensorType::kInt8) {
    if (int16_out) {
      RunSoftmax<int8_t, int16_t>(in, out, *q, beta);
    } else {
      RunSoftmax<int8_t, int8_t>(in, out, *q, beta);
    }
    return Status::Ok();
  }
  if (int16_out) {
    RunSoftmax<uint8_t, int16_t>(in, out, *q, beta);
  } else {
    RunSoftmax<uint8_t, uint8_t>(in, out, *q, beta);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
