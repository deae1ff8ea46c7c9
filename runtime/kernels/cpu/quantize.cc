#include "runtime/kernels/cpu/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

template <typename Out>
void FromFloat(const RuntimeTensor& in, QuantParams p, QuantizedRange range, Out* out) {
  const float* x = in.Data<const float>();
  const double scale = p.scale;
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const double q = std::round(static_cast<double>(x[i]) / scale);
    if (std::isnan(q)) {
      out[i] = static_cast<Out>(p.zero_point);
      continue;
    }
    // Clamp in double first: a huge or infinite input must not overflow the int conversion.
    const double clamped = std::min(std::max(q + p.zero_point, static_cast<double>(range.min)),
                                    static_cast<double>(range.max));
    out[i] = static_cast<Out>(static_cast<int32_t>(clamped));
  }
}

template <typename In, typename Out>
void Requantize(const RuntimeTensor& in, QuantParams pi, QuantParams po, QuantizedRange range,
                Out* out) {
  const QuantizedMultiplier m =
      QuantizeMultiplier(static_cast<double>(pi.scale) / static_cast<double>(po.scale));
  const In* x = in.Data<const In>();
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v =
        MultiplyByQuantizedMultiplier(int32_t{x[i]} - pi.zero_point, m) + po.zero_point;
    out[i] = static_cast<Out>(range.Clamp(v));
  }
}

}  // namespace

Status PrepareQuantize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  if (in.type == TensorType::kInt16) {
    // Upstream requantizes int16 to int8, to int32, or to int16 when both zero points are 0.
    if (out.type != TensorType::kInt8 && out.type != TensorType::kInt16 &&
        out.type != TensorType::kInt32)
      return Status::Error(std::string("cannot requantize int16 to ") + TensorTypeName(out.type));
    auto pi = PerTensorParams(in, "input");
    if (!pi.ok()) return pi.status();
    auto po = PerTensorParams(out, "output");
    if (!po.ok()) return po.status();
    if (out.type == TensorType::kInt16 && (pi->zero_point != 0 || po->zero_point != 0))
      return Status::Error("int16 to int16 requantization needs zero points 0");
    return Status::Ok();
  }
  if (in.type == TensorType::kInt32) {
    // quantize.cc requantizes int32 (an application's quantized int32 inputs) to int8 or int16.
    if (out.type != TensorType::kInt8 && out.type != TensorType::kInt16)
      return Status::Error(std::string("cannot requantize int32 to ") + TensorTypeName(out.type));
    TFA_RETURN_IF_ERROR(PerTensorParams(in, "input").status());
    return PerTensorParams(out, "output").status();
  }
  if (out.type == TensorType::kInt16) {
    // Upstream quantizes float32 to int16 symmetrically only (tflite/kernels/quantize.cc Prepare
    // requires zero point 0), then rounds as for int8 (AffineQuantize).
    TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input of an int16 QUANTIZE"));
    auto params = PerTensorParams(out, "output");
    if (!params.ok()) return params.status();
    if (params->zero_point != 0) return Status::Error("int16 output has a nonzero zero point");
    return Status::Ok();
  }
  if (!IsQuantizedType(out.type)) {
    return Status::Error(std::string("cannot quantize to ") + TensorTypeName(out.type));
  }
  if (in.type != TensorType::kFloat32 && !IsQuantizedType(in.type))
    return Status::Error(std::string("cannot quantize ") + TensorTypeName(in.type));
  if (IsQuantizedType(in.type)) TFA_RETURN_IF_ERROR(PerTensorParams(in, "input").status());
  return PerTensorParams(out, "output").status();
}

Status EvalQuantize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareQuantize(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const QuantParams po = PerTensorParams(out, "output").value();
  if (in.type == TensorType::kInt16) {
    const QuantParams pi = PerTensorParams(in, "input").value();
    if (out.type == TensorType::kInt8) {
      Requantize<int16_t>(in, pi, po, TypeRange(TensorType::kInt8), out.Data<int8_t>());
    } else if (out.type == TensorType::kInt32) {
      Requantize<int16_t>(
          in, pi, po,
          QuantizedRange{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
          out.Data<int32_t>());
    } else {
      Requantize<int16_t>(in, pi, po, QuantizedRange{-32768, 32767}, out.Data<int16_t>());
    }
    return Status::Ok();
  }
  if (in.type == TensorType::kInt32) {
    const QuantParams pi = PerTensorParams(in, "input").value();
    if (out.type == TensorType::kInt8) {
      Requantize<int32_t>(in, pi, po, TypeRange(TensorType::kInt8), out.Data<int8_t>());
    } else {
      Requantize<int32_t>(in, pi, po, QuantizedRange{-32768, 32767}, out.Data<int16_t>());
    }
    return Status::Ok();
  }
  if (out.type == TensorType::kInt16) {
    FromFloat(in, po, QuantizedRange{-32768, 32767}, out.Data<int16_t>());
    return Status::Ok();
  }
  const QuantizedRange range = TypeRange(out.type);
  const bool to_int8 = out.type == TensorType::kInt8;
  if (in.type == TensorType::kFloat32) {
    if (to_int8) {
      FromFloat(in, po, range, out.Data<int8_t>());
    } else {
      FromFloat(in, po, range, out.Data<uint8_t>());
    }
    return Status::Ok();
  }
  const QuantParams pi = PerTensorParams(in, "input").value();
  if (in.type == TensorType::kInt8) {
    if (to_int8) {
      Requantize<int8_t>(in, pi, po, range, out.Data<int8_t>());
    } else {
      Requantize<int8_t>(in, pi, po, range, out.Data<uint8_t>());
    }
  } else if (to_int8) {
    Requantize<uint8_t>(in, pi, po, range, out.Data<int8_t>());
  } else {
    Requantize<uint8_t>(in, pi, po, range, out.Data<uint8_t>());
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
