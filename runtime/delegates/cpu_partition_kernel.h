// A delegate kernel that runs its partition node by node with CPU kernels: every node of the
// partition, in the partition's execution order. The sample delegates and the simulated delegates
// run on it, so their outputs can be compared with a CPU-only run bit for bit.
//
// Boundary tensors are bound to the interpreter's buffers at every call (the arena may place them
// anywhere); constants keep pointing into the model; every other tensor the nodes touch is
// internal to the partition, has no arena space (as upstream plans it) and lives in storage this
// kernel owns, shared between tensors whose lifetimes in the partition do not overlap.
#ifndef RUNTIME_DELEGATES_CPU_PARTITION_KERNEL_H_
#define RUNTIME_DELEGATES_CPU_PARTITION_KERNEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/delegate.h"

namespace tfa::runtime {

// Finds the kernel for an op name; nullptr when there is none.
using KernelLookup = const KernelRegistration* (*)(const std::string& op);

class CpuPartitionKernel : public DelegateKernel {
 public:
  // Errors name the first node whose op `lookup` has no kernel for.
  [[nodiscard]] static Result<std::unique_ptr<CpuPartitionKernel>> Create(
      const DelegatePartition& partition, KernelLookup lookup);

  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

  const DelegatePartition& partition() const { return partition_; }
  // How many nodes the last Eval ran (all of the partition's, or the error stopped it).
  size_t nodes_evaluated() const { return nodes_evaluated_; }
  // The bytes the internal tensors share: where each lives is planned by its lifetime.
  uint64_t internal_bytes() const { return internal_bytes_; }

 private:
  struct Step {
    int32_t node = -1;
    const KernelRegistration* kernel = nullptr;
    KernelContext context;
  };

  explicit CpuPartitionKernel(const DelegatePartition& partition) : partition_(partition) {}
  RuntimeTensor* Local(int32_t tensor);
  // Local(tensor), or a float32 copy of it when it is an fp16 constant.
  RuntimeTensor* FloatView(int32_t tensor);
  bool IsBoundary(int32_t tensor) const;
  // Points every internal tensor into `internal_storage_`, sharing bytes between lifetimes.
  void PlaceInternalTensors();
  void Bind(const KernelContext& context);

  DelegatePartition partition_;
  std::map<int32_t, RuntimeTensor> tensors_;       // node-based: addresses stay valid for contexts
  std::map<int32_t, RuntimeTensor> float_copies_;  // of fp16 constants, by tensor
  std::vector<std::unique_ptr<float[]>> storage_;  // the float copies' values
  std::unique_ptr<float[]> internal_storage_;
  uint64_t internal_bytes_ = 0;
  std::vector<Step> steps_;
  std::unique_ptr<float[]> scratch_;
  size_t nodes_evaluated_ = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_CPU_PARTITION_KERNEL_H_
