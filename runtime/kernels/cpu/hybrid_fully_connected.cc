#include "runtime/kernels/cpu/hybrid_fully_connected.h"

#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

struct HybridFcShape {
  HybridWeights weights;
  int64_t batch = 0;
};

Result<HybridFcShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(context.input(1), 2, "weights"));
  if (context.options().weights_format != 0)
    return Status::Error("only the default weights format is supported");
  TFA_RETURN_IF_ERROR(CheckDenseWeights(context.input(1)));
  auto weights = ReadHybridWeights(context.input(1), "weights");
  if (!weights.ok()) return weights.status();
  HybridFcShape s{*weights, 0};
  if (s.weights.cols == 0 || in.NumElements() % s.weights.cols != 0) {
    return Status::Error("input " + ShapeString(in.shape) + " does not fit weights " +
                         ShapeString(context.input(1).shape));
  }
  s.batch = in.NumElements() / s.weights.cols;
  if (context.has_input(2)) {
    TFA_RETURN_IF_ERROR(CheckType(context.input(2), TensorType::kFloat32, "bias"));
    if (context.input(2).NumElements() != s.weights.rows)
      return Status::Error("bias size differs from the units");
  }
  std::vector<int32_t> shape;
  if (context.options().keep_num_dims) {
    shape = in.shape;
    shape.back() = static_cast<int32_t>(s.weights.rows);
  } else {
    shape = {static_cast<int32_t>(s.batch), static_cast<int32_t>(s.weights.rows)};
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return s;
}

}  // namespace

bool IsHybridFullyConnected(const KernelContext& context) {
  return context.inputs.size() >= 2 && context.inputs[0] && context.inputs[1] &&
         context.inputs[0]->type == TensorType::kFloat32 &&
         context.inputs[1]->type == TensorType::kInt8;
}

Status PrepareHybridFullyConnected(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  TFA_RETURN_IF_ERROR(GetActivationRange(context.options().fused_activation).status());
  context.scratch_bytes = static_cast<uint64_t>(s->batch * s->weights.cols);
  return Status::Ok();
}

Status EvalHybridFullyConnected(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  float* out = context.output(0).Data<float>();
  const int64_t units = s->weights.rows;
  for (int64_t b = 0; b < s->batch; ++b) {
    for (int64_t u = 0; u < units; ++u)
      out[b * units + u] = context.has_input(2) ? context.input(2).Data<const float>()[u] : 0.0f;
  }
  HybridMatrixBatchVectorMultiplyAccumulate(s->weights, context.input(0).Data<const float>(),
                                            s->batch, context.options().asymmetric_quantize_inputs,
                                            reinterpret_cast<int8_t*>(context.scratch), out);
  for (int64_t i = 0; i < s->batch * units; ++i) out[i] = range->Apply(out[i]);
  return Status::Ok();
}

}  // namespace tfa::runtime
