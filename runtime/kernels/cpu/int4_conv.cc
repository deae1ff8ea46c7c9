#include "runtime/kernels/cpu/int4_conv.h"

#include "runtime/kernels/cpu/int16x8_conv.h"
#include "runtime/kernels/cpu/int4_fully_connected.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_conv.h"

namespace tfa::runtime {
namespace {

Status PrepareConvUnpacked(KernelContext& context) {
  return HasInt16Input(context) ? PrepareInt16x8Conv2D(context) : PrepareQuantizedConv2D(context);
}
Status EvalConvUnpacked(KernelContext& context) {
  return HasInt16Input(context) ? EvalInt16x8Conv2D(context) : EvalQuantizedConv2D(context);
}

// depthwise_conv.cc takes an int4 filter with int8 input only (its int16 path reads int8
// filter data).
Status CheckDepthwiseInput(const KernelContext& context) {
  return CheckType(context.input(0), TensorType::kInt8, "input of an int4 filter");
}

}  // namespace

bool HasInt4FilterOnIntegerInput(const KernelContext& context) {
  if (!context.has_input(0) || !context.has_input(1)) return false;
  const TensorType input = context.input(0).type;
  return context.input(1).type == TensorType::kInt4 &&
         (input == TensorType::kInt8 || input == TensorType::kInt16);
}

Status PrepareInt4Conv2D(KernelContext& context) {
  return WithUnpackedWeights(context, PrepareConvUnpacked);
}
Status EvalInt4Conv2D(KernelContext& context) {
  return WithUnpackedWeights(context, EvalConvUnpacked);
}

Status PrepareInt4DepthwiseConv2D(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckDepthwiseInput(context));
  return WithUnpackedWeights(context, PrepareQuantizedDepthwiseConv2D);
}
Status EvalInt4DepthwiseConv2D(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckDepthwiseInput(context));
  return WithUnpackedWeights(context, EvalQuantizedDepthwiseConv2D);
}

}  // namespace tfa::runtime
