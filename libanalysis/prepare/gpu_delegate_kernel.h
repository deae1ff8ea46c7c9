// What upstream's GPU delegate kernel adds to the interpreter's tensors when it is created
// (tflite/delegates/gpu/delegate.cc, common/model_builder.cc, common/object_reader.cc).
//
// With quantized ops allowed, the kernel reads every non-constant int8/uint8 tensor of its
// subset as a float: for each it adds a float32 twin of the same shape (arena_rw), first for the
// kernel's inputs, then its outputs (PrecreateIOTensors), then for the tensors its nodes' parsers
// read, node by node. Its Prepare lists the twins of its quantized inputs and outputs as the
// node's temporaries (GetRequiredTemporaries): the CPU-side float buffers the GPU copies through.
// The other twins are never planned; only their count matters (it shifts later numbering), and
// the order within one node follows its inputs then outputs, which is an assumption about the
// parsers that does not change any planned figure.
#ifndef LIBANALYSIS_PREPARE_GPU_DELEGATE_KERNEL_H_
#define LIBANALYSIS_PREPARE_GPU_DELEGATE_KERNEL_H_

#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

// `kernel` is a kDelegateKernel node of `subgraph` (its `replaces` are nodes of `subgraph`).
// Without quantized ops (upstream's allow_quant_ops = false) the kernel adds nothing.
KernelPrepareEffect GpuDelegateKernelTensors(const Subgraph& subgraph, const Node& kernel,
                                             bool allow_quant_ops);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_GPU_DELEGATE_KERNEL_H_
