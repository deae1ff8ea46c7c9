#include "runtime/kernels/cpu/split.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

struct SplitPlan {
  int axis = 0;
  std::vector<int64_t> sizes;  // along the axis, one per output
};

Status CheckOutputs(const KernelContext& context, const RuntimeTensor& in, const SplitPlan& plan) {
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(in, "input"));
  if (plan.sizes.size() != context.outputs.size())
    return Status::Error("output count differs from the split count");
  for (size_t i = 0; i < plan.sizes.size(); ++i) {
    if (!context.outputs[i]) return Status::Error("output " + std::to_string(i) + " is absent");
    TFA_RETURN_IF_ERROR(CheckType(*context.outputs[i], in.type, "output"));
    std::vector<int32_t> shape = in.shape;
    shape[static_cast<size_t>(plan.axis)] = static_cast<int32_t>(plan.sizes[i]);
    TFA_RETURN_IF_ERROR(CheckOutputShape(*context.outputs[i], shape));
  }
  return Status::Ok();
}

Result<SplitPlan> EqualPlan(const KernelContext& context) {
  if (context.inputs.size() != 2 || !context.inputs[0] || !context.inputs[1])
    return Status::Error("expects 2 inputs");
  const RuntimeTensor& in = context.input(1);
  auto axis_values = ReadIndexTensor(context.input(0), "axis");
  if (!axis_values.ok()) return axis_values.status();
  if (axis_values->size() != 1) return Status::Error("axis must hold one value");
  auto axis = ResolveAxis((*axis_values)[0], in.Rank());
  if (!axis.ok()) return axis.status();
  const int64_t parts = static_cast<int64_t>(context.outputs.size());
  if (parts == 0 || in.Dim(*axis) % parts != 0)
    return Status::Error("dimension does not split evenly");
  SplitPlan plan{*axis, std::vector<int64_t>(static_cast<size_t>(parts), in.Dim(*axis) / parts)};
  TFA_RETURN_IF_ERROR(CheckOutputs(context, in, plan));
  return plan;
}

Result<SplitPlan> VariablePlan(const KernelContext& context) {
  if (context.inputs.size() != 3 || !context.inputs[0] || !context.inputs[1] ||
      !context.inputs[2]) {
    return Status::Error("expects 3 inputs");
  }
  const RuntimeTensor& in = context.input(0);
  auto axis_values = ReadIndexTensor(context.input(2), "axis");
  if (!axis_values.ok()) return axis_values.status();
  if (axis_values->size() != 1) return Status::Error("axis must hold one value");
  auto axis = ResolveAxis((*axis_values)[0], in.Rank());
  if (!axis.ok()) return axis.status();
  auto sizes = ReadIndexTensor(context.input(1), "size_splits");
  if (!sizes.ok()) return sizes.status();
  int64_t known = 0;
  int unknown = -1;
  for (size_t i = 0; i < sizes->size(); ++i) {
    if ((*sizes)[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if ((*sizes)[i] < 0) {
      return Status::Error("size_splits holds an invalid value");
    } else {
      known += (*sizes)[i];
    }
  }
  if (unknown >= 0) (*sizes)[static_cast<size_t>(unknown)] = in.Dim(*axis) - known;
  SplitPlan plan{*axis, *sizes};
  int64_t sum = 0;
  for (int64_t s : plan.sizes) sum += s;
  if (sum != in.Dim(*axis) || (unknown >= 0 && known > in.Dim(*axis)))
    return Status::Error("size_splits do not add up");
  TFA_RETURN_IF_ERROR(CheckOutputs(context, in, plan));
  return plan;
}

void Run(const RuntimeTensor& in, const SplitPlan& plan, KernelContext& context) {
  const uint64_t element = ElementSize(in.type).value_or(0);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < plan.axis; ++d) outer *= in.Dim(d);
  for (int d = plan.axis + 1; d < in.Rank(); ++d) inner *= in.Dim(d);
  const uint64_t in_row = static_cast<uint64_t>(in.Dim(plan.axis) * inner) * element;
  uint64_t column = 0;
  for (size_t i = 0; i < plan.sizes.size(); ++i) {
    const uint64_t row = static_cast<uint64_t>(plan.sizes[i] * inner) * element;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(context.outputs[i]->data + static_cast<uint64_t>(o) * row,
                  in.data + static_cast<uint64_t>(o) * in_row + column, row);
    }
    column += row;
  }
}

}  // namespace

Status PrepareSplit(KernelContext& context) { return EqualPlan(context).status(); }

Status EvalSplit(KernelContext& context) {
  auto plan = EqualPlan(context);
  if (!plan.ok()) return plan.status();
  Run(context.input(1), *plan, context);
  return Status::Ok();
}

Status PrepareSplitV(KernelContext& context) { return VariablePlan(context).status(); }

Status EvalSplitV(KernelContext& context) {
  auto plan = VariablePlan(context);
  if (!plan.ok()) return plan.status();
  Run(context.input(0), *plan, context);
  return Status::Ok();
}

}  // namespace tfa::runtime
