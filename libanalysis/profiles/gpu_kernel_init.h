// What upstream's GPU delegate kernel checks when the interpreter creates it, after its Prepare
// chose the nodes: the kernel's init builds the GPU graph of its partition
// (tflite/delegates/gpu/common/model_builder.cc BuildModelEnforceIO, called from the delegate
// kernel's Prepare in tflite/delegates/gpu/delegate.cc), and every op parser's Parse runs then.
// Parse makes checks IsSupported does not, so a partition the delegate chose can still fail here:
// the kernel's init logs "TfLiteGpuDelegate Init: <message>" and returns no kernel, its Prepare
// fails, and the interpreter takes the delegate back (plan/model_plan.h, DelegateFailure).
//
// Reproduced, in upstream's order (first failure wins):
//   1. the partition's non-constant inputs, then its outputs, become GPU values
//      (PrecreateInputTensors / PrecreateOutputTensors): ObjectReader::ReadNonConstantTensor;
//   2. each node's parser, in partition order (constant fp16 DEQUANTIZE nodes skipped), reads
//      its runtime inputs and outputs as values, and the constants it copies as float data:
//      - a value needs rank 1 to 4 (ExtractTensorShape: "Tensor "NAME" has bad input dims
//        size: R."); a quantized int8 / uint8 value with quantized ops allowed needs per-tensor
//        affine parameters (PopulateQuantParams);
//      - float data is read from float32, float16, int8, int16, uint8 and int32 constants only
//        (CreateVectorCopyData: "Unsupported data type for float32 tensor"; sparse constants:
//        float32 and float16 only);
//      - FULLY_CONNECTED with constant weights: 2-D weights whose width equals the input's
//        channel count (its last dimension): "Amount of input channels should match weights
//        width";
//      - LSTM: the full kernel's cell state needs batch 1 ("Batched execution is not supported
//        for LSTM"); the basic kernel needs 5 inputs, 4 outputs, 2-D weights and a gate
//        activation depth that is a multiple of 4;
//      a parser's failure reads "OP: message".
// Not reproduced: the other parsers' own attribute checks (their options mostly pass
// IsSupported's checks already) and the graph transformations after the build.
#ifndef LIBANALYSIS_PROFILES_GPU_KERNEL_INIT_H_
#define LIBANALYSIS_PROFILES_GPU_KERNEL_INIT_H_

#include <optional>
#include <string>

#include "libanalysis/model/graph.h"

namespace tfa {

// Upstream's words for a kernel that failed its init, around GpuKernelInitError's message.
inline constexpr const char* kGpuKernelInitLogPrefix = "TfLiteGpuDelegate Init: ";
inline constexpr const char* kGpuKernelRegistrationName = "TfLiteGpuDelegateV2";

// The message the GPU delegate kernel `kernel` (a kDelegateKernel node of `graph`, whose
// `replaces` nodes are in `graph` as the delegate saw them) fails its init with, or nothing when
// its graph builds. `allow_quant_ops`: the delegate's option (quantized values get float twins).
std::optional<std::string> GpuKernelInitError(const Subgraph& graph, const Node& kernel,
                                              bool allow_quant_ops);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_GPU_KERNEL_INIT_H_
