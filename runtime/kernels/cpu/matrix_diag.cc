#include "runtime/kernels/cpu/matrix_diag.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kMatrixDiagTypes = {TensorType::kFloat32, TensorType::kInt64,
                                         TensorType::kInt32,   TensorType::kInt16,
                                         TensorType::kInt8,    TensorType::kUInt8};

}  // namespace

Status PrepareMatrixDiag(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kMatrixDiagTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  if (in.Rank() < 1) return Status::Error("the diagonal is a scalar");
  std::vector<int32_t> shape = in.shape;
  shape.push_back(in.shape.back());
  return CheckOutputShape(context.output(0), shape);
}

Status EvalMatrixDiag(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareMatrixDiag(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const uint64_t element_bytes = ElementSize(in.type).value_or(1);
  const int64_t n = in.shape.back();
  const int64_t matrices = n == 0 ? 0 : in.NumElements() / n;
  if (out.NumElements() == 0) return Status::Ok();
  std::memset(out.data, 0, static_cast<size_t>(out.NumElements()) * element_bytes);
  for (int64_t m = 0; m < matrices; ++m) {
    for (int64_t i = 0; i < n; ++i) {
      const auto to = static_cast<uint64_t>((m * n + i) * n + i);
      const auto from = static_cast<uint64_t>(m * n + i);
      std::memcpy(out.data + to * element_bytes, in.data + from * element_bytes, element_bytes);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
