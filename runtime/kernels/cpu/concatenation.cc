#include "runtime/kernels/cpu/concatenation.h"

#include <array>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// concatenation.cc Prepare's list; float16 and bfloat16 are copied like the others.
constexpr std::array kConcatenationTypes = {
    TensorType::kFloat32, TensorType::kFloat16, TensorType::kBFloat16, TensorType::kUInt8,
    TensorType::kInt8,    TensorType::kInt16,   TensorType::kInt32,    TensorType::kInt64,
    TensorType::kBool,    TensorType::kUInt32};

// Upstream copies int16 without rescaling but checks every zero point is 0 (scales may differ).
bool HasNonZeroZeroPoint(const RuntimeTensor& t) {
  return t.type == TensorType::kInt16 && t.quantization != nullptr &&
         !t.quantization->zero_point.empty() && t.quantization->zero_point[0] != 0;
}

Result<int> Axis(const KernelContext& context) {
  if (context.inputs.empty()) return Status::Error("has no inputs");
  TFA_RETURN_IF_ERROR(CheckArity(context, context.inputs.size(), context.inputs.size(), 1));
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(out, kConcatenationTypes, "output"));
  if (HasNonZeroZeroPoint(out)) return Status::Error("an int16 output zero point must be 0");
  auto axis = ResolveAxis(context.options().axis, out.Rank());
  if (!axis.ok()) return axis.status();
  if (context.options().fused_activation != Activation::kNone) {
    return Status::Error("a fused activation on CONCATENATION is not supported");
  }
  std::vector<int32_t> shape = context.input(0).shape;
  if (static_cast<int>(shape.size()) != out.Rank())
    return Status::Error("input 0 rank differs from the output's");
  shape[static_cast<size_t>(*axis)] = 0;
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const RuntimeTensor& in = context.input(i);
    TFA_RETURN_IF_ERROR(CheckType(in, out.type, "input"));
    if (HasNonZeroZeroPoint(in))
      return Status::Error("input " + std::to_string(i) + " int16 zero point must be 0");
    if (in.Rank() != out.Rank())
      return Status::Error("input " + std::to_string(i) + " rank differs");
    for (int d = 0; d < out.Rank(); ++d) {
      if (d != *axis && in.Dim(d) != out.Dim(d)) {
        return Status::Error("input " + std::to_string(i) + " " + ShapeString(in.shape) +
                             " does not fit");
      }
    }
    shape[static_cast<size_t>(*axis)] += in.Dim(*axis);
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, shape));
  return *axis;
}

}  // namespace

Status PrepareConcatenation(KernelContext& context) { return Axis(context).status(); }

Status EvalConcatenation(KernelContext& context) {
  auto axis = Axis(context);
  if (!axis.ok()) return axis.status();
  RuntimeTensor& out = context.output(0);
  const uint64_t element = ElementSize(out.type).value_or(0);
  int64_t outer = 1;
  for (int d = 0; d < *axis; ++d) outer *= out.Dim(d);
  int64_t inner = 1;
  for (int d = *axis + 1; d < out.Rank(); ++d) inner *= out.Dim(d);
  const uint64_t out_row = static_cast<uint64_t>(out.Dim(*axis) * inner) * element;
  uint64_t column = 0;
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const RuntimeTensor& in = context.input(i);
    const uint64_t row = static_cast<uint64_t>(in.Dim(*axis) * inner) * element;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(out.data + static_cast<uint64_t>(o) * out_row + column,
                  in.data + static_cast<uint64_t>(o) * row, row);
    }
    column += row;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
