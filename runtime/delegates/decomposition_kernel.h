// A STABLEHLO_COMPOSITE a delegate took, computed as its decomposition subgraph computes it
// (tflite/kernels/stablehlo_composite.cc runs that subgraph on the node's inputs), by this
// runtime's CPU kernels inside the delegate kernel. Once a delegate replaced the composite,
// upstream never prepares the decomposition subgraph, so the interpreter gives it no arena
// here either: its tensors live in storage this kernel owns (CpuPartitionKernel's, shared by
// lifetime), boundary tensors are the composite's own.
#ifndef RUNTIME_DELEGATES_DECOMPOSITION_KERNEL_H_
#define RUNTIME_DELEGATES_DECOMPOSITION_KERNEL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/delegate.h"
#include "runtime/delegates/cpu_partition_kernel.h"

namespace tfa::runtime {

class DecompositionKernel : public DelegateKernel {
 public:
  // `inputs` and `outputs`: the composite's tensors as the calling kernel holds them, in the
  // node's order. Errors say why the decomposition cannot stand for the node (arity, shapes,
  // types, an op without a CPU kernel).
  [[nodiscard]] static Result<std::unique_ptr<DecompositionKernel>> Create(
      const Node& composite, const std::vector<const RuntimeTensor*>& inputs,
      const std::vector<const RuntimeTensor*>& outputs, PartitionHost* host,
      const ModelData* model_data);

  // `context` holds the composite's inputs and outputs in the node's order.
  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

  // The bytes of the decomposition's intermediates this kernel owns.
  uint64_t owned_bytes() const;

 private:
  DecompositionKernel() = default;
  // The composite's tensors in the order the inner kernel binds them (sorted tensor indices).
  KernelContext Inner(const KernelContext& outer) const;

  PartitionHost::ModelSubgraph graph_;
  std::vector<RuntimeTensor> tensors_;   // the decomposition's; the inner kernel points here
  std::vector<size_t> input_positions_;  // inner input k is the composite's input at this position
  std::vector<size_t> output_positions_;
  std::unique_ptr<CpuPartitionKernel> kernel_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_DECOMPOSITION_KERNEL_H_
