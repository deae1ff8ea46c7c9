#include "runtime/kernels/cpu/select.h"

#include <algorithm>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

enum class SelectMode {
  kElementwise,  // one shape, or all of one element
  kRankOne,      // SELECT: a scalar or per-row condition
  kBroadcast,    // SELECT_V2: numpy broadcasting
};

struct SelectPlan {
  SelectMode mode = SelectMode::kElementwise;
  uint32_t element = 0;  // bytes per value
};

bool SameQuantization(const RuntimeTensor& a, const RuntimeTensor& b) {
  const Quantization empty;
  return (a.quantization ? *a.quantization : empty) == (b.quantization ? *b.quantization : empty);
}

Result<SelectPlan> Plan(const KernelContext& context, bool version_two) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& condition = context.input(0);
  const RuntimeTensor& x = context.input(1);
  const RuntimeTensor& y = context.input(2);
  const RuntimeTensor& output = context.output(0);
  if (condition.type != TensorType::kBool) {
    return Status::Error(std::string("condition is ") + TensorTypeName(condition.type) +
                         ", expected bool");
  }
  if (y.type != x.type) {
    return Status::Error(std::string("x is ") + TensorTypeName(x.type) + ", y " +
                         TensorTypeName(y.type));
  }
  // Upstream sets the output's type to x's; the runtime runs on the model's.
  TFA_RETURN_IF_ERROR(CheckType(output, x.type, "output"));
  SelectPlan plan;
  plan.element = ElementSize(x.type).value_or(0);
  const bool packed =
      x.type == TensorType::kInt4 || x.type == TensorType::kUInt4 || x.type == TensorType::kInt2;
  if (packed ||
      (plan.element != 1 && plan.element != 2 && plan.element != 4 && plan.element != 8)) {
    return Status::Error(std::string("values of type ") + TensorTypeName(x.type) +
                         " are not supported");
  }
  if (x.type == TensorType::kUInt16 && (!SameQuantization(x, y) || !SameQuantization(x, output)))
    return Status::Error("uint16 x, y and output of different quantization are not supported");

  // Upstream keeps the output's own shape when all four hold one element (mixed scalars).
  if (condition.NumElements() == 1 && x.NumElements() == 1 && y.NumElements() == 1 &&
      output.NumElements() == 1) {
    return plan;
  }
  if (condition.shape == x.shape && x.shape == y.shape) {
    TFA_RETURN_IF_ERROR(CheckOutputShape(output, x.shape));
    return plan;
  }
  if (!version_two) {
    const bool scalar = condition.Rank() == 0;
    const bool per_row = condition.Rank() == 1 && x.Rank() >= 1 && condition.Dim(0) == x.Dim(0);
    if (!scalar && !per_row) {
      return Status::Error("condition " + ShapeString(condition.shape) +
                           " is neither a scalar nor one value per row of x " +
                           ShapeString(x.shape));
    }
    if (x.shape != y.shape) {
      return Status::Error("x " + ShapeString(x.shape) + " and y " + ShapeString(y.shape) +
                           " differ in shape");
    }
    TFA_RETURN_IF_ERROR(CheckOutputShape(output, x.shape));
    plan.mode = SelectMode::kRankOne;
    return plan;
  }
  auto xy = BroadcastShape(x.shape, y.shape);
  if (!xy.ok()) return xy.status();
  auto shape = BroadcastShape(condition.shape, *xy);
  if (!shape.ok()) return shape.status();
  if (shape->size() > 8)
    return Status::Error("output rank " + std::to_string(shape->size()) + " is above 8");
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, *shape));
  plan.mode = SelectMode::kBroadcast;
  return plan;
}

template <typename Word>
void SelectElementwise(const bool* condition, const Word* x, const Word* y, Word* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = condition[i] ? x[i] : y[i];
}

template <typename Word>
void SelectBroadcast(const RuntimeTensor& condition, const RuntimeTensor& x, const RuntimeTensor& y,
                     RuntimeTensor& output) {
  const std::vector<int32_t>& shape = output.shape;
  const int64_t total = output.NumElements();
  if (total == 0) return;
  const std::vector<int64_t> sc = BroadcastStrides(condition.shape, shape);
  const std::vector<int64_t> sx = BroadcastStrides(x.shape, shape);
  const std::vector<int64_t> sy = BroadcastStrides(y.shape, shape);
  const bool* c = condition.Data<const bool>();
  const Word* xd = x.Data<const Word>();
  const Word* yd = y.Data<const Word>();
  Word* out = output.Data<Word>();
  std::vector<int32_t> index(shape.size(), 0);
  int64_t oc = 0, ox = 0, oy = 0;
  for (int64_t o = 0; o < total; ++o) {
    out[o] = c[oc] ? xd[ox] : yd[oy];
    // Advance the output index like an odometer, each input by its (possibly zero) stride.
    for (size_t d = shape.size(); d-- > 0;) {
      ++index[d];
      oc += sc[d];
      ox += sx[d];
      oy += sy[d];
      if (index[d] < shape[d]) break;
      oc -= sc[d] * shape[d];
      ox -= sx[d] * shape[d];
      oy -= sy[d] * shape[d];
      index[d] = 0;
    }
  }
}

template <typename Word>
void Run(const SelectPlan& plan, KernelContext& context) {
  const RuntimeTensor& condition = context.input(0);
  const RuntimeTensor& x = context.input(1);
  const RuntimeTensor& y = context.input(2);
  RuntimeTensor& output = context.output(0);
  switch (plan.mode) {
    case SelectMode::kElementwise:
      SelectElementwise(condition.Data<const bool>(), x.Data<const Word>(), y.Data<const Word>(),
                        output.Data<Word>(), output.NumElements());
      return;
    case SelectMode::kRankOne: {
      // Condition value r picks row r of x or y whole (a scalar condition: one row, all of it).
      const int64_t rows = condition.NumElements();
      const uint64_t row_bytes =
          static_cast<uint64_t>(output.NumElements() / std::max<int64_t>(rows, 1)) * sizeof(Word);
      const bool* c = condition.Data<const bool>();
      for (int64_t r = 0; r < rows; ++r) {
        const RuntimeTensor& from = c[r] ? x : y;
        std::memcpy(output.data + static_cast<uint64_t>(r) * row_bytes,
                    from.data + static_cast<uint64_t>(r) * row_bytes, row_bytes);
      }
      return;
    }
    case SelectMode::kBroadcast:
      SelectBroadcast<Word>(condition, x, y, output);
      return;
  }
}

Status EvalWith(KernelContext& context, bool version_two) {
  auto plan = Plan(context, version_two);
  if (!plan.ok()) return plan.status();
  switch (plan->element) {
    case 1:
      Run<uint8_t>(*plan, context);
      break;
    case 2:
      Run<uint16_t>(*plan, context);
      break;
    case 4:
      Run<uint32_t>(*plan, context);
      break;
    default:
      Run<uint64_t>(*plan, context);
      break;
  }
  return Status::Ok();
}

}  // namespace

Status PrepareSelect(KernelContext& context) { return Plan(context, false).status(); }
Status EvalSelect(KernelContext& context) { return EvalWith(context, false); }
Status PrepareSelectV2(KernelContext& context) { return Plan(context, true).status(); }
Status EvalSelectV2(KernelContext& context) { return EvalWith(context, true); }

}  // namespace tfa::runtime
