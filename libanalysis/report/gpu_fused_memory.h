// The GPU delegate's device memory over upstream's fused tasks (gpu_task_fusion.h) rather than one
// task per node, as upstream's inference context allocates it: an elementwise op fused into its
// producer writes no tensor of its own, and the usage intervals run over the fused tasks. The
// report predicts this; this project's OpenCL runtime runs the nodes unfused and allocates
// PlanGpuPartitionMemory's plan, which `run --validate` holds it against.
//
// Not modelled: upstream's graph transformations before the fusion (PAD merged into a
// convolution, a MUL or ADD by a constant folded into weights) and its device-specific fused
// kernels (GPUSubgraphFromGraph).
//
// Defined in gpu_device_memory.cc, beside the unfused plan they share all but the tasks with.
#ifndef LIBANALYSIS_REPORT_GPU_FUSED_MEMORY_H_
#define LIBANALYSIS_REPORT_GPU_FUSED_MEMORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/gpu_device_memory.h"

namespace tfa {

// PlanGpuPartitionMemory's plan, over upstream's fused tasks.
[[nodiscard]] Result<GpuPartitionMemory> PlanFusedGpuPartitionMemory(
    const Subgraph& subgraph, const std::vector<int32_t>& nodes, const std::vector<int32_t>& inputs,
    const std::vector<int32_t>& outputs, const GpuMemoryOptions& options);

// The GPU tasks PlanFusedGpuPartitionMemory runs the records over.
[[nodiscard]] Result<uint32_t> CountFusedGpuTasks(const Subgraph& subgraph,
                                                  const std::vector<int32_t>& nodes,
                                                  const std::vector<int32_t>& inputs,
                                                  const std::vector<int32_t>& outputs);

// The parts summed over the partitions of `delegated` that the kernels named `delegate` run:
// fused as upstream's inference context, or unfused as this project's runtime.
struct GpuMemoryParts {
  uint64_t shared_tensors = 0;
  uint64_t staging_buffers = 0;
  uint64_t constants = 0;
};
[[nodiscard]] Result<GpuMemoryParts> SumGpuPartitionMemory(const Subgraph& delegated,
                                                           const std::string& delegate,
                                                           const GpuMemoryOptions& options,
                                                           bool fused);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_GPU_FUSED_MEMORY_H_
