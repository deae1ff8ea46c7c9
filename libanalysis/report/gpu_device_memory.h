// The device memory one GPU delegate partition allocates, as upstream's OpenCL inference context
// does (tflite/delegates/gpu/cl/inference_context.cc, api.cc), with BUFFER storage:
//
// - runtime tensors: every non-constant tensor the partition's GPU nodes read or write, and its
//   boundary tensors. Each is B*H*W*D*align(C, 4) elements (the PHWC4 layout pads channels to
//   slices of 4), of the precision's float size, or its own size for non-float types; int8 and
//   uint8 activations are float on the device. Upstream reads a TFLite shape as BHWC: rank 1 is
//   (d0,1,1,1), rank 2 (d0,1,1,d1), rank 3 (d0,1,d1,d2) (model_builder_helper.cc). Their usage
//   records run over the GPU nodes in order (inputs from task 0, outputs to the last task + 1)
//   and share one parent buffer (gpu_memory_assignment.h);
// - staging buffers: the delegate hands TFLite's CPU tensors to the context through a
//   TwoStepTensorTie per boundary input and output, which allocates a float32 BHWC buffer of the
//   same padded size;
// - constants: the weights the GPU nodes read, uploaded as floats.
//
// Nodes whose inputs are all constants (DEQUANTIZE of fp16 weights, DENSIFY) are no GPU nodes:
// the delegate folds them into constants when it builds its model.
//
// This plan runs one task per GPU node, as this project's OpenCL runtime does; upstream fuses
// elementwise ops into their producers first, which gpu_fused_memory.h plans (the report's
// figure). Upstream rearranges weights per kernel; they are counted dense.
#ifndef LIBANALYSIS_REPORT_GPU_DEVICE_MEMORY_H_
#define LIBANALYSIS_REPORT_GPU_DEVICE_MEMORY_H_

#include <cstdint>
#include <vector>

#include "libanalysis/arena/gpu_memory_assignment.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

// CL_DEVICE_MEM_BASE_ADDR_ALIGN of PoCL (1024 bits), the analyser's default; a run on a device
// plans with the device's own value.
inline constexpr uint64_t kDefaultGpuBaseAlignment = 128;

struct GpuPartitionMemory {
  std::vector<int32_t> runtime_tensors;  // the tensor of each record, by tensor index
  std::vector<GpuUsageRecord> records;
  GpuSharedBuffers shared;
  std::vector<int32_t> staged;  // boundary inputs, then outputs
  std::vector<uint64_t> staged_bytes;
  std::vector<int32_t> constants;  // uploaded, by tensor index
  uint64_t staging_bytes = 0;
  uint64_t constant_bytes = 0;

  uint64_t total_bytes() const { return shared.total_bytes + staging_bytes + constant_bytes; }
};

struct GpuMemoryOptions {
  uint64_t float_bytes = 4;  // 2 where upstream computes in fp16
  uint64_t base_alignment = kDefaultGpuBaseAlignment;
};

// The options a phone's GPU plans with under `profile`'s options: fp16 tensors and weights when
// is_precision_loss_allowed is 1 (upstream's F16 or F32_F16 on a device with cl_khr_fp16: both
// store 2-byte floats), float32 otherwise; PoCL's alignment.
GpuMemoryOptions GpuMemoryOptionsFor(const DelegateProfile& profile);

// The partition of `nodes` (execution order) with boundary `inputs` and `outputs` (constants
// and -1 among them are skipped). Errors name the tensor whose size is unknown or overflows.
[[nodiscard]] Result<GpuPartitionMemory> PlanGpuPartitionMemory(const Subgraph& subgraph,
                                                                const std::vector<int32_t>& nodes,
                                                                const std::vector<int32_t>& inputs,
                                                                const std::vector<int32_t>& outputs,
                                                                const GpuMemoryOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_GPU_DEVICE_MEMORY_H_
