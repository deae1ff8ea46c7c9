#include "libanalysis/report/gpu_device_memory.h"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/report/gpu_fused_memory.h"
#include "libanalysis/report/gpu_task_fusion.h"

namespace tfa {
namespace {

bool IsEightBit(TensorType type) { return type == TensorType::kInt8 || type == TensorType::kUInt8; }

bool HasScale(const Tensor& t) { return !t.quantization->scale.empty(); }

// Bytes per element on the device: floats (and the float twins of 8-bit activations) at the
// precision's size, other types at their own.
std::optional<uint64_t> DeviceElementBytes(const Tensor& t, uint64_t float_bytes) {
  if (t.type == TensorType::kFloat32 || t.type == TensorType::kFloat16 || IsEightBit(t.type))
    return float_bytes;
  const std::optional<uint32_t> size = ElementSize(t.type);
  if (!size) return std::nullopt;
  return *size;
}

// B*H*W*D*align(C, 4) elements of upstream's BHWC(D) view of the TFLite shape.
std::optional<uint64_t> PaddedElements(const Tensor& t) {
  const size_t rank = t.shape.size();
  if (rank > 5) return std::nullopt;
  std::optional<uint64_t> elements = 1;
  for (size_t i = 0; i < rank; ++i) {
    const int32_t d = t.shape[i];
    if (d < 0) return std::nullopt;
    // The last dimension is C for ranks 2 to 5; a rank-1 tensor is B (upstream's BHWC(d0,1,1,1)).
    const uint64_t extent = rank >= 2 && i == rank - 1 ? (static_cast<uint64_t>(d) + 3) / 4 * 4
                                                       : static_cast<uint64_t>(d);
    elements = CheckedMul(*elements, extent);
    if (!elements) return std::nullopt;
  }
  // Rank 0 and 1 have C = 1, padded to 4.
  if (rank < 2) elements = CheckedMul(*elements, 4);
  return elements;
}

// Whether upstream's delegate reads the constant as float weights (CreateVectorCopyData<float>:
// float32, float16, and quantized 8-bit or int32 data it dequantizes).
bool UploadsConstant(const Tensor& t) {
  return t.type == TensorType::kFloat32 || t.type == TensorType::kFloat16 ||
         (HasScale(t) && (IsEightBit(t.type) || t.type == TensorType::kInt32));
}

// The TFLite ops upstream's GPU delegate maps to a linkable elementwise GPU operation
// (tflite/delegates/gpu/common/selectors/operation_selector.cc: the one- and two-input
// elementwise ops, ReLU and PReLU). Their fused activations, which upstream adds as a ReLU task of
// their own, are fused back by the same rules and are left out here.
bool IsLinkableOp(const std::string& op) {
  static const std::set<std::string> kLinkable = {
      "ABS",           "ADD",        "COS",        "DIV",       "ELU",          "EQUAL",
      "EXP",           "FLOOR",      "FLOOR_DIV",  "FLOOR_MOD", "GELU",         "GREATER",
      "GREATER_EQUAL", "HARD_SWISH", "LEAKY_RELU", "LESS",      "LESS_EQUAL",   "LOG",
      "LOGISTIC",      "MAXIMUM",    "MINIMUM",    "MUL",       "NEG",          "NOT_EQUAL",
      "POW",           "PRELU",      "RELU",       "RELU6",     "RELU_0_TO_1",  "RELU_N1_TO_1",
      "RSQRT",         "SIN",        "SQRT",       "SQUARE",    "SQUARED_DIFF", "SUB",
      "TANH"};
  return kLinkable.count(op) > 0;
}

// upstream's BHWC view of a TFLite shape (model_builder_helper.cc); nullopt above rank 4.
std::optional<std::array<int64_t, 4>> Bhwc(const Tensor& t) {
  const auto& s = t.shape;
  switch (s.size()) {
    case 0:
      return std::array<int64_t, 4>{1, 1, 1, 1};
    case 1:
      return std::array<int64_t, 4>{s[0], 1, 1, 1};
    case 2:
      return std::array<int64_t, 4>{s[0], 1, 1, s[1]};
    case 3:
      return std::array<int64_t, 4>{s[0], 1, s[1], s[2]};
    case 4:
      return std::array<int64_t, 4>{s[0], s[1], s[2], s[3]};
    default:
      return std::nullopt;
  }
}

// upstream's IsAssociativeLinkableOp (gpu_model.cc): an ADD or MUL of several runtime inputs, none
// broadcast along an axis of extent 1. Its most recently written input is moved first, so that it
// links to the task that wrote it.
bool IsAssociativeLinkable(const Subgraph& subgraph, const Node& node,
                           const std::vector<int32_t>& inputs) {
  if (inputs.size() < 2 || (node.op != "ADD" && node.op != "MUL")) return false;
  if (node.outputs.empty() || node.outputs[0] < 0) return false;
  const auto dst = Bhwc(subgraph.tensors[static_cast<size_t>(node.outputs[0])]);
  if (!dst) return false;
  for (int32_t in : inputs) {
    const auto src = Bhwc(subgraph.tensors[static_cast<size_t>(in)]);
    if (!src) return false;
    for (size_t axis = 0; axis < 4; ++axis) {
      if ((*dst)[axis] != (*src)[axis] && (*src)[axis] == 1) return false;
    }
  }
  return true;
}

Status SizeError(const Subgraph& subgraph, int32_t tensor, const char* what) {
  const Tensor& t = subgraph.tensors[static_cast<size_t>(tensor)];
  std::string message = SubgraphLabel(subgraph);
  message += ": tensor ";
  message += std::to_string(tensor);
  message += " (";
  message += t.name;
  message += "): GPU device memory ";
  message += what;
  return Status::Error(message);
}

}  // namespace

GpuMemoryOptions GpuMemoryOptionsFor(const DelegateProfile& profile) {
  GpuMemoryOptions options;
  if (profile.OptionNumber("is_precision_loss_allowed") == 1) options.float_bytes = 2;
  return options;
}

namespace {

// The plan over the tasks, fused as upstream's GpuModel when `fuse`; `task_count` gets their
// number.
Result<GpuPartitionMemory> PlanMemory(const Subgraph& subgraph, const std::vector<int32_t>& nodes,
                                      const std::vector<int32_t>& inputs,
                                      const std::vector<int32_t>& outputs,
                                      const GpuMemoryOptions& options, bool fuse,
                                      uint32_t* task_count) {
  auto tensor = [&](int32_t t) -> const Tensor& {
    return subgraph.tensors[static_cast<size_t>(t)];
  };
  std::set<int32_t> folded_outputs;
  auto is_constant = [&](int32_t t) { return tensor(t).is_constant() || folded_outputs.count(t); };
  // One GPU task per node that is no constant fold, reading its runtime inputs.
  GpuTaskGraph graph;
  for (int32_t t : inputs) {
    if (t >= 0 && !is_constant(t)) graph.inputs.insert(t);
  }
  std::set<int32_t> constants;
  std::map<int32_t, int64_t> last_written;  // the task that last wrote a value; inputs -1
  for (int32_t t : graph.inputs) last_written[t] = -1;
  for (int32_t node_index : nodes) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    bool folds = !node.inputs.empty();
    for (int32_t t : node.inputs) {
      if (t >= 0 && !is_constant(t)) folds = false;
    }
    if (folds) {
      for (int32_t t : node.outputs) {
        if (t >= 0) folded_outputs.insert(t);
      }
      continue;
    }
    GpuTask task;
    for (int32_t t : node.inputs) {
      if (t < 0) continue;
      if (is_constant(t)) {
        if (folded_outputs.count(t) || UploadsConstant(tensor(t))) constants.insert(t);
        continue;
      }
      task.inputs.push_back(t);
    }
    if (IsAssociativeLinkable(subgraph, node, task.inputs)) {
      size_t latest = 0;
      for (size_t j = 1; j < task.inputs.size(); ++j) {
        if (last_written[task.inputs[j]] > last_written[task.inputs[latest]]) latest = j;
      }
      std::swap(task.inputs[0], task.inputs[latest]);
    }
    for (int32_t t : node.outputs) {
      if (t < 0) continue;
      task.outputs.push_back(t);
      last_written[t] = static_cast<int64_t>(graph.tasks.size());
    }
    task.linkable = IsLinkableOp(node.op) && !task.outputs.empty();
    task.elementwise_inputs = task.linkable ? static_cast<uint32_t>(task.inputs.size()) : 0;
    task.nodes = {node_index};
    graph.tasks.push_back(std::move(task));
  }
  for (int32_t t : outputs) {
    if (t >= 0 && !is_constant(t)) graph.outputs.insert(t);
  }
  const std::vector<GpuTask> tasks = fuse ? FuseGpuTasks(graph) : std::move(graph.tasks);
  if (task_count) *task_count = static_cast<uint32_t>(tasks.size());

  // Usage interval per runtime tensor, over the tasks: boundary inputs from task 0, boundary
  // outputs to the last task + 1 (InferenceContext's GetUsages).
  std::map<int32_t, GpuUsageRecord> usage;
  auto use = [&](int32_t t, uint32_t task) {
    auto [it, inserted] = usage.try_emplace(t, GpuUsageRecord{0, task, task});
    if (!inserted) it->second.last_task = task;
  };
  for (int32_t t : inputs) {
    if (graph.inputs.count(t)) use(t, 0);
  }
  uint32_t task_index = 0;
  for (const GpuTask& task : tasks) {
    for (int32_t t : task.inputs) use(t, task_index);
    for (int32_t t : task.outputs) use(t, task_index);
    ++task_index;
  }
  for (int32_t t : outputs) {
    if (graph.outputs.count(t)) use(t, task_index);
  }

  GpuPartitionMemory memory;
  for (auto& [t, record] : usage) {
    const std::optional<uint64_t> element = DeviceElementBytes(tensor(t), options.float_bytes);
    const std::optional<uint64_t> elements = PaddedElements(tensor(t));
    const std::optional<uint64_t> bytes =
        element && elements ? CheckedMul(*element, *elements) : std::nullopt;
    if (!bytes) return SizeError(subgraph, t, "size is unknown or overflows");
    record.bytes = *bytes;
    memory.runtime_tensors.push_back(t);
    memory.records.push_back(record);
  }
  memory.shared = PlanGpuSharedBuffers(memory.records, options.base_alignment, true);
  for (const std::vector<int32_t>* list : {&inputs, &outputs}) {
    for (int32_t t : *list) {
      if (t < 0 || is_constant(t)) continue;
      // Staged as float32 whatever the precision: the CPU side is TFLite's float tensor.
      const std::optional<uint64_t> elements = PaddedElements(tensor(t));
      const std::optional<uint64_t> bytes = elements ? CheckedMul(*elements, 4) : std::nullopt;
      const std::optional<uint64_t> sum =
          bytes ? CheckedAdd(memory.staging_bytes, *bytes) : std::nullopt;
      if (!sum) return SizeError(subgraph, t, "staging size is unknown or overflows");
      memory.staged.push_back(t);
      memory.staged_bytes.push_back(*bytes);
      memory.staging_bytes = *sum;
    }
  }
  for (int32_t t : constants) {
    std::optional<uint64_t> elements = 1;
    for (int32_t d : tensor(t).shape) {
      elements =
          d < 0 || !elements ? std::nullopt : CheckedMul(*elements, static_cast<uint64_t>(d));
    }
    const std::optional<uint64_t> bytes =
        elements ? CheckedMul(*elements, options.float_bytes) : std::nullopt;
    const std::optional<uint64_t> sum =
        bytes ? CheckedAdd(memory.constant_bytes, *bytes) : std::nullopt;
    if (!sum) return SizeError(subgraph, t, "constant size is unknown or overflows");
    memory.constants.push_back(t);
    memory.constant_bytes = *sum;
  }
  return memory;
}

}  // namespace

Result<GpuPartitionMemory> PlanGpuPartitionMemory(const Subgraph& subgraph,
                                                  const std::vector<int32_t>& nodes,
                                                  const std::vector<int32_t>& inputs,
                                                  const std::vector<int32_t>& outputs,
                                                  const GpuMemoryOptions& options) {
  return PlanMemory(subgraph, nodes, inputs, outputs, options, false, nullptr);
}

Result<GpuPartitionMemory> PlanFusedGpuPartitionMemory(const Subgraph& subgraph,
                                                       const std::vector<int32_t>& nodes,
                                                       const std::vector<int32_t>& inputs,
                                                       const std::vector<int32_t>& outputs,
                                                       const GpuMemoryOptions& options) {
  return PlanMemory(subgraph, nodes, inputs, outputs, options, true, nullptr);
}

Result<uint32_t> CountFusedGpuTasks(const Subgraph& subgraph, const std::vector<int32_t>& nodes,
                                    const std::vector<int32_t>& inputs,
                                    const std::vector<int32_t>& outputs) {
  uint32_t tasks = 0;
  auto memory = PlanMemory(subgraph, nodes, inputs, outputs, {}, true, &tasks);
  if (!memory.ok()) return memory.status();
  return tasks;
}

Result<GpuMemoryParts> SumGpuPartitionMemory(const Subgraph& delegated, const std::string& delegate,
                                             const GpuMemoryOptions& options, bool fused) {
  GpuMemoryParts parts;
  for (int32_t planned : delegated.execution_plan) {
    const Node& kernel = delegated.nodes[static_cast<size_t>(planned)];
    if (kernel.kind != NodeKind::kDelegateKernel || kernel.op != delegate) continue;
    const std::vector<int32_t> nodes(kernel.replaces.begin(), kernel.replaces.end());
    const std::vector<int32_t> inputs(kernel.inputs.begin(), kernel.inputs.end());
    const std::vector<int32_t> outputs(kernel.outputs.begin(), kernel.outputs.end());
    auto memory = PlanMemory(delegated, nodes, inputs, outputs, options, fused, nullptr);
    if (!memory.ok()) return memory.status();
    const std::optional<uint64_t> sums[] = {
        CheckedAdd(parts.shared_tensors, memory->shared.total_bytes),
        CheckedAdd(parts.staging_buffers, memory->staging_bytes),
        CheckedAdd(parts.constants, memory->constant_bytes)};
    for (const auto& sum : sums) {
      if (!sum) return Status::Error(SubgraphLabel(delegated) + ": GPU device memory overflows");
    }
    parts = {*sums[0], *sums[1], *sums[2]};
  }
  return parts;
}

}  // namespace tfa
