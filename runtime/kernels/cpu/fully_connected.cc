#include "runtime/kernels/cpu/fully_connected.h"

#include "runtime/kernels/cpu/gemm.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// FULLY_CONNECTED on floats: the shared geometry, float operands and a bias of one value a unit.
Result<FullyConnectedGeometry> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kFloat32, "weights"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  if (context.has_input(2)) {
    TFA_RETURN_IF_ERROR(CheckType(context.input(2), TensorType::kFloat32, "bias"));
    if (context.input(2).NumElements() != s->units)
      return Status::Error("bias size differs from the units");
  }
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
