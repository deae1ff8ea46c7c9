#include "runtime/kernels/cpu/quantized_concatenation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/kernels/cpu/concatenation.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

// Whether every input already has the output's quantization (then bytes are copied).
Result<bool> SameQuantization(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareConcatenation(context));
  auto out = PerTensorParams(context.output(0), "output");
  if (!out.ok()) return out.status();
  bool same = true;
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const std::string role = "input " + std::to_string(i);
    auto in = PerTensorParams(context.input(i), role.c_str());
    if (!in.ok()) return in.status();
    if (in->scale == out->scale && in->zero_point == out->zero_point) continue;
    if (context.output(0).type == TensorType::kInt8) {
      return Status::Error(role + " quantization differs from the output's (int8 is not rescaled)");
    }
    same = false;
  }
  return same;
}

}  // namespace

Status PrepareQuantizedConcatenation(KernelContext& context) {
  return SameQuantization(context).status();
}

Status EvalQuantizedConcatenation(KernelContext& context) {
  auto same = SameQuantization(context);
  if (!same.ok()) return same.status();
  if (*same) return EvalConcatenation(context);
  RuntimeTensor& out = context.output(0);
  const QuantParams po = PerTensorParams(out, "output").value();
  const int axis =
      context.options().axis < 0 ? context.options().axis + out.Rank() : context.options().axis;
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= out.Dim(d);
  int64_t inner = 1;
  for (int d = axis + 1; d < out.Rank(); ++d) inner *= out.Dim(d);
  const int64_t out_row = out.Dim(axis) * inner;
  const float inverse_output_scale = 1.0f / po.scale;
  auto* dst = out.Data<uint8_t>();
  int64_t column = 0;
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const RuntimeTensor& in = context.input(i);
    const QuantParams pi = PerTensorParams(in, "input").value();
    const float scale = pi.scale * inverse_output_scale;
    const float bias = static_cast<float>(-pi.zero_point) * scale;
    const int64_t row = in.Dim(axis) * inner;
    const auto* src = in.Data<const uint8_t>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < row; ++j) {
        const int32_t v =
            static_cast<int32_t>(std::round(static_cast<float>(src[o * row + j]) * scale + bias)) +
            po.zero_point;
        dst[o * out_row + column + j] = static_cast<uint8_t>(std::clamp(v, 0, 255));
      }
    }
    column += row;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
