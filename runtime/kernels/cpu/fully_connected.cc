#include "runtime/kernels/cpu/fully_connected.h"

#include "runtime/kernels/cpu/gemm.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct FcShape {
  int64_t batch, in_dim, units;
};

Result<FcShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& weights = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(weights, TensorType::kFloat32, "weights"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(weights, 2, "weights"));
  if (context.options().weights_format != 0)
    return Status::Error("only the default weights format is supported");
  FcShape s{0, weights.Dim(1), weights.Dim(0)};
  if (s.in_dim == 0 || in.NumElements() % s.in_dim != 0) {
    return Status::Error("input " + ShapeString(in.shape) + " does not fit weights " +
                         ShapeString(weights.shape));
  }
  s.batch = in.NumElements() / s.in_dim;
  if (context.has_input(2)) {
    TFA_RETURN_IF_ERROR(CheckType(context.input(2), TensorType::kFloat32, "bias"));
    if (context.input(2).NumElements() != s.units)
      return Status::Error("bias size differs from the units");
  }
  std::vector<int32_t> shape;
  if (context.options().keep_num_dims) {
    shape = in.shape;
    shape.back() = static_cast<int32_t>(s.units);
  } else {
    shape = {static_cast<int32_t>(s.batch), static_cast<int32_t>(s.units)};
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return s;
}

}  // namespace

Status PrepareFullyConnected(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  TFA_RETURN_IF_ERROR(GetActivationRange(context.options().fused_activation).status());
  return Status::Ok();
}

Status EvalFullyConnected(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  GemmTransposedB({s->batch, s->units, s->in_dim, s->in_dim, s->in_dim, s->units},
                  context.input(0).Data<const float>(), context.input(1).Data<const float>(), bias,
                  range->min, range->max, context.output(0).Data<float>(), context.thread_pool);
  return Status::Ok();
}

}  // namespace tfa::runtime
