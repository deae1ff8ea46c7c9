#include "runtime/kernels/cpu/arg_min_max.h"

#include <cmath>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// The checks that need no axis value (upstream's Prepare before ResizeOutput).
Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& axis = context.input(1);
  if (axis.NumElements() != 1)
    return Status::Error("axis has shape " + ShapeString(axis.shape) + ", expected one value");
  if (axis.type != TensorType::kInt32 && axis.type != TensorType::kInt64) {
    return Status::Error(std::string("axis has type ") + TensorTypeName(axis.type) +
                         ", expected int32 or int64");
  }
  const TensorType out = context.output(0).type;
  if (out != TensorType::kInt32 && out != TensorType::kInt64) {
    return Status::Error(std::string("output has type ") + TensorTypeName(out) +
                         ", expected int32 or int64");
  }
  switch (input.type) {
    case TensorType::kFloat32:
    case TensorType::kUInt8:
    case TensorType::kInt8:
    case TensorType::kInt32:
    case TensorType::kBool:
      break;
    default:
      return Status::Error(std::string("input of type ") + TensorTypeName(input.type) +
                           " is not supported (float32, uint8, int8, int32, bool)");
  }
  if (input.Rank() < 1) return Status::Error("input is a scalar");
  return Status::Ok();
}

// The axis from input 1, resolved against the input's rank, and the output shape it gives.
struct Reduction {
  int axis = 0;
  std::vector<int32_t> shape;
};

Result<Reduction> ReadReduction(const KernelContext& context) {
  const RuntimeTensor& input = context.input(0);
  auto values = ReadIndexTensor(context.input(1), "axis");
  if (!values.ok()) return values.status();
  auto axis = ResolveAxis((*values)[0], input.Rank());
  if (!axis.ok()) return axis.status();
  if (input.Dim(*axis) <= 0)
    return Status::Error("cannot compute ArgMin/ArgMax over an empty axis");
  Reduction r{*axis, input.shape};
  r.shape.erase(r.shape.begin() + *axis);
  return r;
}

// Whether `candidate` replaces the best value so far. Upstream's reference comparator for floats
// never takes a NaN and always replaces a NaN (reference/arg_min_max.h); its last-axis scan and
// every integer type compare strictly.
template <typename T, bool kIsMax, bool kNanAware>
bool Replaces(T candidate, T current) {
  if constexpr (kNanAware && std::is_floating_point_v<T>) {
    if (std::isnan(candidate)) return false;
    if (std::isnan(current)) return true;
  }
  if constexpr (kIsMax) {
    return candidate > current;
  } else {
    return candidate < current;
  }
}

template <typename T, typename Index, bool kIsMax, bool kNanAware>
void Scan(const T* in, Index* out, int64_t outer, int64_t axis_size, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* row = in + o * axis_size * inner + i;
      T best = row[0];
      Index best_index = 0;
      for (int64_t a = 1; a < axis_size; ++a) {
        if (Replaces<T, kIsMax, kNanAware>(row[a * inner], best)) {
          best = row[a * inner];
          best_index = static_cast<Index>(a);
        }
      }
      out[o * inner + i] = best_index;
    }
  }
}

template <typename T, typename Index, bool kIsMax>
void Run(const RuntimeTensor& input, int axis, RuntimeTensor& output) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= input.Dim(d);
  for (int d = axis + 1; d < input.Rank(); ++d) inner *= input.Dim(d);
  const T* in = input.Data<const T>();
  Index* out = output.Data<Index>();
  const int64_t axis_size = input.Dim(axis);
  // optimized_ops::ArgMinMax takes the last-axis scan for float32, int8 and uint8 only.
  constexpr bool kLastAxisTypes =
      std::is_same_v<T, float> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
  if (inner == 1 && kLastAxisTypes) {
    Scan<T, Index, kIsMax, false>(in, out, outer, axis_size, 1);
    return;
  }
  Scan<T, Index, kIsMax, true>(in, out, outer, axis_size, inner);
}

template <typename Index, bool kIsMax>
Status RunIndexed(const RuntimeTensor& input, int axis, RuntimeTensor& output) {
  switch (input.type) {
    case TensorType::kFloat32:
      Run<float, Index, kIsMax>(input, axis, output);
      return Status::Ok();
    case TensorType::kUInt8:
      Run<uint8_t, Index, kIsMax>(input, axis, output);
      return Status::Ok();
    case TensorType::kInt8:
      Run<int8_t, Index, kIsMax>(input, axis, output);
      return Status::Ok();
    case TensorType::kInt32:
      Run<int32_t, Index, kIsMax>(input, axis, output);
      return Status::Ok();
    case TensorType::kBool:
      Run<bool, Index, kIsMax>(input, axis, output);
      return Status::Ok();
    default:
      return Status::Error(std::string("input of type ") + TensorTypeName(input.type) +
                           " is not supported");
  }
}

template <bool kIsMax>
Status EvalArgMinMax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  auto reduction = ReadReduction(context);
  if (!reduction.ok()) return reduction.status();
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, reduction->shape)
                          .WithContext("the axis read at Eval gives another output shape than "
                                       "the plan's (upstream would resize the output)"));
  if (output.NumElements() == 0) return Status::Ok();
  if (output.type == TensorType::kInt32)
    return RunIndexed<int32_t, kIsMax>(context.input(0), reduction->axis, output);
  return RunIndexed<int64_t, kIsMax>(context.input(0), reduction->axis, output);
}

}  // namespace

Status PrepareArgMinMax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  // A non-constant axis is only known at Eval (upstream's dynamic output).
  if (!context.input(1).is_constant) return Status::Ok();
  auto reduction = ReadReduction(context);
  if (!reduction.ok()) return reduction.status();
  return CheckOutputShape(context.output(0), reduction->shape);
}

Status EvalArgMax(KernelContext& context) { return EvalArgMinMax<true>(context); }
Status EvalArgMin(KernelContext& context) { return EvalArgMinMax<false>(context); }

}  // namespace tfa::runtime
