#include "libanalysis/report/delegate_memory.h"

#include <optional>
#include <set>
#include <unordered_map>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

constexpr uint64_t kXnnExtraBytes = 16;  // XNN_EXTRA_BYTES (XNNPACK include/xnnpack.h)

// Adds up byte counts with overflow checks, naming the tensor that breaks them.
class ByteSum {
 public:
  explicit ByteSum(const Subgraph& subgraph) : subgraph_(subgraph) {}

  // elements(tensor) * element_bytes, aligned up to `alignment` first when non-zero.
  Status Add(int32_t tensor, uint64_t element_bytes, uint64_t alignment = 0) {
    const Tensor& t = subgraph_.tensors[static_cast<size_t>(tensor)];
    std::optional<uint64_t> bytes = element_bytes;
    for (int32_t d : t.shape) {
      if (!bytes) break;
      bytes = d < 0 ? std::nullopt : CheckedMul(*bytes, static_cast<uint64_t>(d));
    }
    std::optional<uint64_t> start = alignment ? CheckedAlignUp(total_, alignment) : total_;
    std::optional<uint64_t> sum = bytes && start ? CheckedAdd(*start, *bytes) : std::nullopt;
    if (!sum) {
      return Status::Error(SubgraphLabel(subgraph_) + ": tensor " + std::to_string(tensor) + " (" +
                           t.name + "): delegate memory size overflows");
    }
    total_ = *sum;
    return Status::Ok();
  }
  uint64_t total() const { return total_; }

 private:
  const Subgraph& subgraph_;
  uint64_t total_ = 0;
};

// The model nodes the profile's delegate kernels replace, in plan order.
std::vector<int32_t> DelegatedNodes(const Subgraph& subgraph, const DelegateProfile& profile) {
  std::vector<int32_t> nodes;
  for (int32_t planned : subgraph.execution_plan) {
    const Node& kernel = subgraph.nodes[static_cast<size_t>(planned)];
    if (kernel.kind != NodeKind::kDelegateKernel || kernel.op != profile.name) continue;
    nodes.insert(nodes.end(), kernel.replaces.begin(), kernel.replaces.end());
  }
  return nodes;
}

bool IsOp(const Node& node, const char* op) {
  return node.kind == NodeKind::kBuiltin && node.op == op;
}

// PrepareOpsToDelegate skips an fp16 DEQUANTIZE (no unpacked copy) when every node reading its
// output is a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED reading it as weights.
bool XnnpackSkipsFp16Unpack(const Subgraph& subgraph, const Node& dequantize) {
  const int32_t output = dequantize.outputs[0];
  for (const Node& consumer : subgraph.nodes) {
    if (consumer.kind == NodeKind::kDelegateKernel) continue;
    for (size_t k = 0; k < consumer.inputs.size(); ++k) {
      if (consumer.inputs[k] != output) continue;
      const bool gemm = IsOp(consumer, "CONV_2D") || IsOp(consumer, "DEPTHWISE_CONV_2D") ||
                        IsOp(consumer, "FULLY_CONNECTED");
      if (!gemm || k == 0) return false;
    }
  }
  return true;
}

uint64_t XnnpackWeightBytes(const Tensor& weights) {
  return weights.type == TensorType::kInt8 || weights.type == TensorType::kUInt8 ? 1 : 4;
}

Result<std::vector<DelegateMemoryPart>> XnnpackParts(const Subgraph& subgraph,
                                                     const std::vector<int32_t>& nodes) {
  ByteSum unpacked(subgraph);
  ByteSum packed(subgraph);
  for (int32_t node_index : nodes) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    if (IsXnnpackStaticUnpackNode(subgraph, node)) {
      const Tensor& input = subgraph.tensors[static_cast<size_t>(node.inputs[0])];
      const bool skipped = IsOp(node, "DEQUANTIZE") && input.type == TensorType::kFloat16 &&
                           XnnpackSkipsFp16Unpack(subgraph, node);
      if (skipped) continue;
      const Tensor& output = subgraph.tensors[static_cast<size_t>(node.outputs[0])];
      const uint64_t element = output.type == TensorType::kFloat16 ? 2
                               : output.type == TensorType::kInt8  ? 1
                                                                   : 4;
      TFA_RETURN_IF_ERROR(unpacked.Add(node.outputs[0], element, kXnnExtraBytes));
      continue;
    }
    int filter = -1, bias = -1;
    if (IsOp(node, "CONV_2D") || IsOp(node, "DEPTHWISE_CONV_2D") || IsOp(node, "FULLY_CONNECTED") ||
        (node.kind == NodeKind::kCustom && node.op == "Convolution2DTransposeBias")) {
      filter = 1;
      bias = 2;
    } else if (IsOp(node, "TRANSPOSE_CONV")) {
      filter = 1;
      bias = 3;
    } else if (IsOp(node, "BATCH_MATMUL")) {
      filter = 1;
    }
    if (filter < 0 || static_cast<size_t>(filter) >= node.inputs.size()) continue;
    const int32_t weights = node.inputs[static_cast<size_t>(filter)];
    if (weights < 0) continue;
    const Tensor& w = subgraph.tensors[static_cast<size_t>(weights)];
    // Only static (or delegate-unpacked) weights are packed ahead of time.
    const bool is_static = w.is_constant() || [&] {
      for (int32_t other : nodes) {
        const Node& producer = subgraph.nodes[static_cast<size_t>(other)];
        if (!producer.outputs.empty() && producer.outputs[0] == weights &&
            IsXnnpackStaticUnpackNode(subgraph, producer)) {
          return true;
        }
      }
      return false;
    }();
    if (!is_static) continue;
    TFA_RETURN_IF_ERROR(packed.Add(weights, XnnpackWeightBytes(w)));
    if (bias >= 0 && static_cast<size_t>(bias) < node.inputs.size() &&
        node.inputs[static_cast<size_t>(bias)] >= 0) {
      TFA_RETURN_IF_ERROR(packed.Add(node.inputs[static_cast<size_t>(bias)], 4));
    }
  }
  return std::vector<DelegateMemoryPart>{
      {"unpacked_static_weights", unpacked.total(),
       "outputs of the fp16/int8 DEQUANTIZE and DENSIFY nodes XNNPACK unpacks at "
       "PrepareOpsToDelegate, each aligned to XNN_EXTRA_BYTES (16); fp16 weights fed straight "
       "to CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED are skipped"},
      {"packed_weights", packed.total(),
       "static filters and biases of the delegated convolutions, FULLY_CONNECTED and "
       "BATCH_MATMUL, repacked on the heap in the compute type (4 bytes per element, 1 for "
       "8-bit weights); channels not rounded up to XNNPACK's tiles, so a lower bound"},
  };
}

Result<std::vector<DelegateMemoryPart>> GpuParts(const Subgraph& subgraph,
                                                 const std::vector<int32_t>& nodes) {
  std::set<int32_t> activations, constants;
  for (int32_t node_index : nodes) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    for (const IdList* list : {&node.inputs, &node.outputs}) {
      for (int32_t tensor : *list) {
        if (tensor < 0) continue;
        const bool constant = subgraph.tensors[static_cast<size_t>(tensor)].is_constant();
        (constant ? constants : activations).insert(tensor);
      }
    }
  }
  ByteSum device(subgraph);
  for (int32_t tensor : activations) TFA_RETURN_IF_ERROR(device.Add(tensor, 4));
  ByteSum uploaded(subgraph);
  for (int32_t tensor : constants) TFA_RETURN_IF_ERROR(uploaded.Add(tensor, 4));
  return std::vector<DelegateMemoryPart>{
      {"device_tensors", device.total(),
       "every non-constant tensor a delegated node reads or writes, as float32 device memory; "
       "no sharing between intermediates assumed, so an upper bound"},
      {"uploaded_constants", uploaded.total(),
       "constants read by delegated nodes, uploaded as float32"},
  };
}

}  // namespace

Result<DelegateMemory> EstimateDelegateMemory(const Subgraph& delegated,
                                              const DelegateProfile& profile) {
  DelegateMemory memory;
  memory.delegate = profile.name;
  const std::vector<int32_t> nodes = DelegatedNodes(delegated, profile);
  Result<std::vector<DelegateMemoryPart>> parts = std::vector<DelegateMemoryPart>{};
  if (profile.kernel.delegate_kernel == "gpu") {
    parts = GpuParts(delegated, nodes);
  } else if (profile.name == "xnnpack") {
    parts = XnnpackParts(delegated, nodes);
  }
  if (!parts.ok()) return parts.status();
  memory.parts = std::move(*parts);
  for (const DelegateMemoryPart& part : memory.parts) {
    const std::optional<uint64_t> total = CheckedAdd(memory.total_bytes, part.bytes);
    if (!total) return Status::Error(SubgraphLabel(delegated) + ": delegate memory overflows");
    memory.total_bytes = *total;
  }
  return memory;
}

}  // namespace tfa
