// How upstream's GPU delegate fuses its operations before it assigns memory: GraphToGpuModel
// (tflite/delegates/gpu/common/gpu_model.cc) maps each graph node to a GPU task, then
//   1. MergeElementwiseNodes fuses linkable elementwise tasks with one another: a one-input
//      elementwise into the one-input elementwise it feeds (TYPE_0), and the two-input
//      elementwise that reads a value both directly and through one or two one-input
//      elementwise tasks (TYPE_1 to TYPE_3, e.g. x * sigmoid(x));
//   2. MergeNodes fuses a linkable task into the task whose single output it alone reads, as its
//      first input, once its other inputs are written (elementwise ops after a convolution);
//   3. RemoveUnusedTensors drops the values no task reads or writes any longer.
// Only the values the fused tasks read or write get device memory, over the fused task indices.
//
// The tasks carry only runtime values: constants are attributes of the GPU operations.
// Two implementations: the reference mirrors upstream's scans (quadratic); the fast one keeps the
// producers and readers of each value, for partitions of many nodes. They agree (property test).
#ifndef LIBANALYSIS_REPORT_GPU_TASK_FUSION_H_
#define LIBANALYSIS_REPORT_GPU_TASK_FUSION_H_

#include <cstdint>
#include <set>
#include <vector>

namespace tfa {

struct GpuTask {
  std::vector<int32_t> inputs;  // runtime values, the linking one first
  std::vector<int32_t> outputs;
  bool linkable = false;            // upstream's GPUOperation::IsLinkable (elementwise ops)
  uint32_t elementwise_inputs = 0;  // GetElementwiseInputsCount: its runtime inputs, if linkable
  std::vector<int32_t> nodes;       // the graph nodes it stands for, in fusing order

  bool operator==(const GpuTask&) const = default;
};

struct GpuTaskGraph {
  std::vector<GpuTask> tasks;  // execution order
  std::set<int32_t> inputs;    // the partition's boundary inputs
  std::set<int32_t> outputs;   // its boundary outputs
};

// The tasks after MergeElementwiseNodes and MergeNodes.
std::vector<GpuTask> FuseGpuTasks(const GpuTaskGraph& graph);
std::vector<GpuTask> FuseGpuTasksReference(const GpuTaskGraph& graph);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_GPU_TASK_FUSION_H_
