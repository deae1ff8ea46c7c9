// A delegate kernel that runs its partition on libXNNPACK 0.0~git20220216 (Debian 12).
//
// The partition is split, in execution order, into maximal runs of nodes the library can express
// (XnnpackCannotRun accepts them and the library defines each alone; one xnn_runtime per run)
// and single nodes it cannot, which run on this runtime's CPU kernels as CpuPartitionKernel runs
// them. DEQUANTIZE and DENSIFY nodes of
// constant data are unpacked once at creation into weights the kernel owns, as upstream's
// delegate unpacks static fp16/int8/sparse weights (PrepareOpsToDelegate), and cost nothing per
// Invoke.
//
// Tensors: the partition's boundary tensors are XNNPACK external values bound to the
// interpreter's buffers (no copies: XNNPACK reads and writes TFLite's buffers in place); they
// are bound again with xnn_setup_runtime only when a buffer moved, as upstream's Subgraph::Invoke
// does. Constants are static values (fp16 ones through a float32 copy the kernel owns); tensors
// produced and consumed inside one run are XNNPACK internal values, placed in the workspace its
// memory planner sizes; tensors that cross between a run and a CPU node have storage of their
// own here.
#ifndef RUNTIME_DELEGATES_XNNPACK_XNNPACK_PARTITION_KERNEL_H_
#define RUNTIME_DELEGATES_XNNPACK_XNNPACK_PARTITION_KERNEL_H_

#include <xnnpack.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/delegate.h"
#include "runtime/delegates/cpu_partition_kernel.h"
#include "runtime/delegates/xnnpack/xnnpack_library.h"

namespace tfa::runtime {

// What one kernel ran where and what libXNNPACK holds for it.
struct XnnpackPartitionStats {
  struct CpuNode {
    int32_t node = -1;
    std::string op;
    std::string reason;  // why libXNNPACK does not run it
  };
  int32_t subgraph = 0;
  std::vector<int32_t> nodes;      // the partition's, in execution order
  int32_t xnnpack_nodes = 0;       // in an xnn_runtime
  int32_t unpacked_nodes = 0;      // DEQUANTIZE / DENSIFY of constants, unpacked at creation
  std::vector<CpuNode> cpu_nodes;  // run by this runtime's CPU kernels
  int32_t xnnpack_runtimes = 0;
  // libXNNPACK's bytes, measured with its allocator. What xnn_create_runtime_v2 kept, split
  // into the workspace for internal values and the rest (packed weights, operator structs, the
  // runtime's tables); what the first xnn_setup_runtime added (indirection buffers).
  uint64_t packed_weights_and_operators_bytes = 0;
  uint64_t workspace_bytes = 0;
  uint64_t setup_bytes = 0;
  // This kernel's own storage: float32 copies of fp16 and unpacked weights, and the tensors
  // crossing between an XNNPACK run and a CPU node.
  uint64_t kernel_owned_bytes = 0;
};

class XnnpackPartitionKernel : public DelegateKernel {
 public:
  // `stats` is filled as the kernel is created and run. Errors name the node libXNNPACK refused.
  [[nodiscard]] static Result<std::unique_ptr<XnnpackPartitionKernel>> Create(
      const DelegatePartition& partition, std::shared_ptr<XnnpackPartitionStats> stats);
  ~XnnpackPartitionKernel() override;

  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

 private:
  struct XnnpackRun;
  struct CpuStep;
  class KernelView;
  class RunBuilder;

  explicit XnnpackPartitionKernel(const DelegatePartition& partition,
                                  std::shared_ptr<XnnpackPartitionStats> stats);
  RuntimeTensor* Local(int32_t tensor);
  bool IsStatic(int32_t tensor) const;
  uint8_t* OwnedStorage(uint64_t bytes);
  Status UnpackStatic(int32_t node);
  std::optional<std::string> RefusedByLibrary(int32_t node);
  Status AddXnnpackRun(const std::vector<int32_t>& nodes);
  Status AddCpuStep(int32_t node);
  bool ComputedByKernel(int32_t node) const;
  Status AddKernelStep(int32_t node);
  void ReleasePackedWeights();
  void Bind(const KernelContext& context);
  Status InvokeRun(XnnpackRun& run);

  DelegatePartition partition_;
  std::shared_ptr<XnnpackPartitionStats> stats_;
  XnnpackLibrary* library_ = nullptr;
  std::map<int32_t, RuntimeTensor> tensors_;  // node-based: addresses stay valid for contexts
  std::map<int32_t, bool> static_;            // tensors whose data is known at creation
  std::map<int32_t, int32_t> unpackable_;     // tensor -> the DEQUANTIZE / DENSIFY making it
  std::vector<std::unique_ptr<uint64_t[]>> storage_;
  std::map<int32_t, size_t> weight_storage_;  // float32 weight copies: tensor -> storage_ index
  // In execution order: each step is an XNNPACK run or a CPU node.
  std::vector<std::unique_ptr<XnnpackRun>> runs_;
  std::vector<std::unique_ptr<CpuStep>> cpu_steps_;
  struct Step {
    XnnpackRun* run = nullptr;
    CpuStep* cpu = nullptr;
  };
  std::vector<Step> steps_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_XNNPACK_PARTITION_KERNEL_H_
