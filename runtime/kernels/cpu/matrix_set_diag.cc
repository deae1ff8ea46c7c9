#include "runtime/kernels/cpu/matrix_set_diag.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kTypes = {TensorType::kFloat32, TensorType::kInt64, TensorType::kInt32,
                               TensorType::kInt16,   TensorType::kInt8,  TensorType::kUInt8};

struct Matrices {
  int64_t count = 1;
  int64_t rows = 0, cols = 0;
};

Matrices Layout(const RuntimeTensor& input) {
  Matrices m;
  const int rank = input.Rank();
  for (int d = 0; d < rank - 2; ++d) m.count *= input.Dim(d);
  m.rows = input.Dim(rank - 2);
  m.cols = input.Dim(rank - 1);
  return m;
}

}  // namespace

Status PrepareMatrixSetDiag(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& diagonal = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(input, kTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(diagonal, input.type, "diagonal"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), input.type, "output"));
  if (input.Rank() < 2)
    return Status::Error("input " + ShapeString(input.shape) + " is not a matrix");
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), input.shape));
  const Matrices m = Layout(input);
  const int64_t needed = m.count * std::min(m.rows, m.cols);
  if (diagonal.NumElements() < needed) {
    return Status::Error("diagonal " + ShapeString(diagonal.shape) + " holds fewer than the " +
                         std::to_string(needed) + " values upstream reads");
  }
  return Status::Ok();
}

Status EvalMatrixSetDiag(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareMatrixSetDiag(context));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& diagonal = context.input(1);
  RuntimeTensor& output = context.output(0);
  if (output.data != input.data && input.bytes > 0)
    std::memmove(output.data, input.data, input.bytes);
  const Matrices m = Layout(input);
  const auto size = static_cast<int64_t>(*ElementSize(input.type));
  const int64_t length = std::min(m.rows, m.cols);
  for (int64_t b = 0; b < m.count; ++b) {
    for (int64_t i = 0; i < length; ++i) {
      std::memcpy(output.data + ((b * m.rows + i) * m.cols + i) * size,
                  diagonal.data + (b * length + i) * size, static_cast<size_t>(size));
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
