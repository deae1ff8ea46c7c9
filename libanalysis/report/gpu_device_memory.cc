#include "libanalysis/report/gpu_device_memory.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"

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

Result<GpuPartitionMemory> PlanGpuPartitionMemory(const Subgraph& subgraph,
                                                  const std::vector<int32_t>& nodes,
                                                  const std::vector<int32_t>& inputs,
                                                  const std::vector<int32_t>& outputs,
                                                  const GpuMemoryOptions& options) {
  auto tensor = [&](int32_t t) -> const Tensor& {
    return subgraph.tensors[static_cast<size_t>(t)];
  };
  std::set<int32_t> folded_outputs;
  auto is_constant = [&](int32_t t) { return tensor(t).is_constant() || folded_outputs.count(t); };
  // Usage interval per runtime tensor, over the GPU nodes (folded nodes are none).
  std::map<int32_t, GpuUsageRecord> usage;
  auto use = [&](int32_t t, uint32_t task) {
    if (t < 0 || is_constant(t)) return;
    auto [it, inserted] = usage.try_emplace(t, GpuUsageRecord{0, task, task});
    if (!inserted) it->second.last_task = task;
  };
  for (int32_t t : inputs) use(t, 0);
  std::set<int32_t> constants;
  uint32_t task = 0;
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
    for (int32_t t : node.inputs) {
      if (t >= 0 && is_constant(t)) {
        if (folded_outputs.count(t) || UploadsConstant(tensor(t))) constants.insert(t);
        continue;
      }
      use(t, task);
    }
    for (int32_t t : node.outputs) use(t, task);
    ++task;
  }
  for (int32_t t : outputs) use(t, task);

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

}  // namespace tfa
