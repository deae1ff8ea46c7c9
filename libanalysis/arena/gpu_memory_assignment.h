// How upstream's GPU delegate shares device memory between the runtime tensors of one inference
// context (tflite/delegates/gpu/common/memory_management*, used by
// tflite/delegates/gpu/cl/inference_context.cc, GetBufferAssignment and
// AllocateBufferBasedTensors):
//
// - each tensor is a usage record: its bytes and the first and last task (GPU node) using it;
// - GREEDY_BEST assigns the records to shared objects: GreedyBySizeDistPriority, replaced by
//   GreedyByBreadth when that one's objects sum to strictly less;
// - where the device supports sub-buffers, GreedyBySize also lays the records out as offsets in
//   one buffer, each offset aligned to the device's base address alignment; the offsets win when
//   their total is no larger than the objects' (unaligned) sum;
// - either way one parent buffer is created: the offsets' total, or the objects one after
//   another, each rounded up to the alignment. Without sub-buffers, one buffer per object.
//
// The records' order matters (ties keep it), as upstream's stable sorts do.
#ifndef LIBANALYSIS_ARENA_GPU_MEMORY_ASSIGNMENT_H_
#define LIBANALYSIS_ARENA_GPU_MEMORY_ASSIGNMENT_H_

#include <cstdint>
#include <vector>

namespace tfa {

struct GpuUsageRecord {
  uint64_t bytes = 0;
  uint32_t first_task = 0;
  uint32_t last_task = 0;  // inclusive, >= first_task
};

struct GpuObjectsAssignment {
  std::vector<uint32_t> object_of;  // per record
  std::vector<uint64_t> object_bytes;

  uint64_t TotalBytes() const;
};

struct GpuOffsetsAssignment {
  std::vector<uint64_t> offsets;  // per record
  uint64_t total_bytes = 0;       // max(offset + bytes)
};

// upstream's GreedyBySizeDistPriorityAssignment (greedy_by_size_assignment.cc).
GpuObjectsAssignment AssignGreedyBySizeDistance(const std::vector<GpuUsageRecord>& records);
// upstream's GreedyByBreadthAssignment (greedy_by_breadth_assignment.cc).
GpuObjectsAssignment AssignGreedyByBreadth(const std::vector<GpuUsageRecord>& records);
// upstream's BestGreedy (memory_management.cc): the first, unless the second is strictly smaller.
GpuObjectsAssignment AssignGreedyBest(const std::vector<GpuUsageRecord>& records);
// upstream's GreedyBySizeAssignment for offsets; `alignment` >= 1.
GpuOffsetsAssignment AssignGreedyBySizeOffsets(const std::vector<GpuUsageRecord>& records,
                                               uint64_t alignment);

// Where each record lives and what the inference context allocates for them.
struct GpuSharedBuffers {
  bool uses_offsets = false;           // one buffer, GreedyBySize offsets
  std::vector<uint64_t> offsets;       // per record, in the parent buffer (sub-buffers only)
  std::vector<uint64_t> buffer_bytes;  // the buffers created (one parent with sub-buffers)
  uint64_t total_bytes = 0;            // sum of buffer_bytes
  GpuObjectsAssignment objects;        // GREEDY_BEST, whichever layout won
};

// AllocateBufferBasedTensors: `base_alignment` is the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN in
// bytes; `sub_buffers` whether it supports them (OpenCL 1.1 and buffer storage).
GpuSharedBuffers PlanGpuSharedBuffers(const std::vector<GpuUsageRecord>& records,
                                      uint64_t base_alignment, bool sub_buffers);

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_GPU_MEMORY_ASSIGNMENT_H_
