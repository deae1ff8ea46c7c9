#include "runtime/kernels/cpu/complex_parts.h"

#include <complex>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// out[i] = part(in[i]) over complex<T> inputs and T outputs.
template <typename T, typename Part>
void MapParts(const KernelContext& context, Part part) {
  const auto* in = context.input(0).Data<const std::complex<T>>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = part(in[i]);
}

template <typename Part>
Status EvalPart(KernelContext& context, Part part) {
  TFA_RETURN_IF_ERROR(PrepareComplexPart(context));
  if (context.input(0).type == TensorType::kComplex64) {
    MapParts<float>(context, [&](std::complex<float> z) { return part(z); });
  } else {
    MapParts<double>(context, [&](std::complex<double> z) { return part(z); });
  }
  return Status::Ok();
}

}  // namespace

Status PrepareComplexPart(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const TensorType type = context.input(0).type;
  if (type != TensorType::kComplex64 && type != TensorType::kComplex128)
    return Status::Error(std::string("input is ") + TensorTypeName(type) +
                         ", expected complex64 or complex128");
  TFA_RETURN_IF_ERROR(CheckType(
      context.output(0),
      type == TensorType::kComplex64 ? TensorType::kFloat32 : TensorType::kFloat64, "output"));
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalReal(KernelContext& context) {
  return EvalPart(context, [](auto z) { return z.real(); });
}

Status EvalImag(KernelContext& context) {
  return EvalPart(context, [](auto z) { return z.imag(); });
}

Status EvalComplexAbs(KernelContext& context) {
  return EvalPart(context, [](auto z) { return std::abs(z); });
}

}  // namespace tfa::runtime
