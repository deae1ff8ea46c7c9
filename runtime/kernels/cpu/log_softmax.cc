#include "runtime/kernels/cpu/log_softmax.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_softmax.h"

namespace tfa::runtime {
namespace {

Status CheckShapes(const KernelContext& context) {
  const RuntimeTensor& in = context.input(0);
  if (in.Rank() < 1) return Status::Error("input must have at least one dimension");
  return CheckOutputShape(context.output(0), in.shape);
}

struct LogSoftmaxQuantization {
  QuantParams in, out;
};

Result<LogSoftmaxQuantization> GetQuantizedParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckShapes(context));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  // LogSoftmaxPrepare: TF_LITE_ENSURE_EQ(output scale, 16.0 / 256), an exact comparison, and the
  // zero point of the type's largest value.
  if (static_cast<double>(po->scale) != 16.0 / 256) {
    return Status::Error(
        "output must have scale 16/256 (upstream's fixed log_softmax "
        "quantization), got " +
        ScaleText(po->scale));
  }
  const int32_t zero_point = in.type == TensorType::kUInt8 ? 255 : 127;
  if (po->zero_point != zero_point) {
    return Status::Error(std::string(TensorTypeName(in.type)) + " output must have zero point " +
                         std::to_string(zero_point) +
                         " (upstream's fixed log_softmax quantization), got " +
                         std::to_string(po->zero_point));
  }
  return LogSoftmaxQuantization{*pi, *po};
}

template <typename T>
void RunQuantizedLogSoftmax(const RuntimeTensor& in, RuntimeTensor& out,
                            const LogSoftmaxQuantization& q) {
  const int64_t depth = in.shape.back();
  if (depth == 0 || in.NumElements() == 0) return;
  const int64_t rows = in.NumElements() / depth;
  // Upstream's LogSoftmaxPrepare fills the table with beta kBeta = 1.0.
  const std::array<float, 256> table = SoftmaxExpTable(q.in.scale, 1.0f);
  const float* exp_of = table.data() + 255;  // exp_of[x - max] = exp(s_in * (x - max))
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  const float input_scale = q.in.scale;
  const float output_scale = q.out.scale;
  const T* x = in.Data<const T>();
  T* y = out.Data<T>();
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * depth;
    T* yr = y + r * depth;
    T max = std::numeric_limits<T>::min();
    for (int64_t i = 0; i < depth; ++i) max = std::max(max, xr[i]);
    float sum = 0.0f;
    for (int64_t i = 0; i < depth; ++i) {
      sum += exp_of[static_cast<int32_t>(xr[i]) - static_cast<int32_t>(max)];
    }
    const float log_sum = std::log(sum);
    // optimized_ops::LogSoftmax<T>, operation for operation in float (no fused multiply-add).
    const float scale = input_scale / output_scale;
    const float precomputed = (input_scale * static_cast<float>(max) + log_sum) / output_scale;
    for (int64_t i = 0; i < depth; ++i) {
      const float log_prob = scale * static_cast<float>(xr[i]) - precomputed;
      // int32_t prob_quantized = std::rint(log_prob) + zero_point: a float sum, then converted.
      const int32_t v =
          TruncateToInt32LikeX86(std::rint(log_prob) + static_cast<float>(q.out.zero_point));
      yr[i] = static_cast<T>(std::min(std::max(v, kMin), kMax));
    }
  }
}

}  // namespace

Status PrepareLogSoftmax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  return CheckShapes(context);
}

Status EvalLogSoftmax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareLogSoftmax(context));
  const RuntimeTensor& in = context.input(0);
  const int64_t depth = in.shape.back();
  if (depth == 0 || in.NumElements() == 0) return Status::Ok();
  const int64_t rows = in.NumElements() / depth;
  const float* x = in.Data<const float>();
  float* y = context.output(0).Data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const Eigen::Map<const Eigen::ArrayXf> xr(x + r * depth, depth);
    Eigen::Map<Eigen::ArrayXf> yr(y + r * depth, depth);
    const float max = xr.maxCoeff();
    const float log_sum = std::log((xr - max).exp().sum());
    yr = xr - max - log_sum;
  }
  return Status::Ok();
}

Status PrepareQuantizedLogSoftmax(KernelContext& context) {
  return GetQuantizedParams(context).status();
}

Status EvalQuantizedLogSoftmax(KernelContext& context) {
  auto q = GetQuantizedParams(context);
  if (!q.ok()) return q.status();
  if (context.input(0).type == TensorType::kInt8) {
    RunQuantizedLogSoftmax<int8_t>(context.input(0), context.output(0), *q);
  } else {
    RunQuantizedLogSoftmax<uint8_t>(context.input(0), context.output(0), *q);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
