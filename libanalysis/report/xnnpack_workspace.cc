#include "libanalysis/report/xnnpack_workspace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "libanalysis/arena/xnnpack_memory_planner.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/model/tensor_type.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

bool IsBuiltin(const Node& node, std::initializer_list<const char*> ops) {
  if (node.kind != NodeKind::kBuiltin) return false;
  return std::any_of(ops.begin(), ops.end(), [&](const char* op) { return node.op == op; });
}

// The TFLite ops the delegate defines as XNNPACK clamp nodes.
bool IsClamp(const Node& node) {
  return IsBuiltin(node, {"RELU", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1"});
}

// The node types xnn_subgraph_optimize fuses a following clamp into.
bool TakesClamp(const Node& node) {
  if (node.kind == NodeKind::kCustom) return node.op == "Convolution2DTransposeBias";
  return IsClamp(node) ||
         IsBuiltin(node, {"ADD", "AVERAGE_POOL_2D", "CONV_2D", "DIV", "TRANSPOSE_CONV",
                          "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "MUL", "MAX_POOL_2D", "SUB"});
}

// The node types optimize_tensor_allocation_for_in_place_operations lets write over an input.
bool WritesInPlace(const Node& node) {
  return IsClamp(node) || IsBuiltin(node, {"ABS",
                                           "ADD",
                                           "ROUND",
                                           "CEIL",
                                           "DIV",
                                           "ELU",
                                           "FLOOR",
                                           "HARD_SWISH",
                                           "LEAKY_RELU",
                                           "MAXIMUM",
                                           "MINIMUM",
                                           "MUL",
                                           "NEG",
                                           "PRELU",
                                           "LOGISTIC",
                                           "SOFTMAX",
                                           "SQUARE",
                                           "SQRT",
                                           "SQUARED_DIFFERENCE",
                                           "RESHAPE",
                                           "SUB"});
}

// A PAD of H and W only (the delegate pads with zero, or the zero point when quantized).
bool IsSpatialPad(const Subgraph& subgraph, const Node& node, int32_t output) {
  if (!IsBuiltin(node, {"PAD"}) || node.inputs.size() < 2 || node.inputs[1] < 0) return false;
  if (subgraph.tensors[static_cast<size_t>(output)].shape.size() != 4) return false;
  const std::vector<int64_t>& pads =
      *subgraph.tensors[static_cast<size_t>(node.inputs[1])].int_values;
  return pads.size() == 8 && pads[0] == 0 && pads[1] == 0 && pads[6] == 0 && pads[7] == 0;
}

// xnn_tensor_get_size: the elements of the tensor's shape times the element size.
std::optional<uint64_t> ValueBytes(const Tensor& tensor) {
  std::optional<uint64_t> elements = 1;
  for (int32_t d : tensor.shape) {
    if (!elements || d < 0) return std::nullopt;
    elements = CheckedMul(*elements, static_cast<uint64_t>(d));
  }
  return elements ? DataBytes(tensor.type, *elements) : std::nullopt;
}

// A resource tensor is a handle to a variable, not values: the delegate defines it by the
// variable's proxy value and makes it external, or leaves it out (tflite/delegates/xnnpack/
// xnnpack_delegate.cc, Subgraph::Create); it takes no workspace. A variant is a handle too.
bool IsHandle(const Tensor& tensor) {
  return tensor.type == TensorType::kResource || tensor.type == TensorType::kVariant;
}

struct XnnNode {
  const Node* node = nullptr;
  std::vector<int32_t> inputs;  // -1 for absent optional inputs
  std::vector<int32_t> outputs;
  bool fused = false;  // cleared by xnn_subgraph_optimize: no inputs, no outputs
};

struct Usage {
  int32_t producer = -1;
  uint32_t consumers = 0;  // reading slots, +1 for an external output
  int32_t first_consumer = -1;
  uint32_t first = std::numeric_limits<uint32_t>::max();
  uint32_t last = 0;
};

// xnn_subgraph_analyze_consumers_and_producers, with the node slots each value spans.
std::map<int32_t, Usage> Analyze(const std::vector<XnnNode>& nodes,
                                 const std::set<int32_t>& external_outputs) {
  std::map<int32_t, Usage> usage;
  auto touch = [&](int32_t tensor, uint32_t slot) -> Usage& {
    Usage& u = usage[tensor];
    u.first = std::min(u.first, slot);
    u.last = std::max(u.last, slot);
    return u;
  };
  for (uint32_t slot = 0; slot < nodes.size(); ++slot) {
    const XnnNode& n = nodes[slot];
    if (n.fused) continue;
    for (int32_t t : n.inputs) {
      if (t < 0) continue;
      Usage& u = touch(t, slot);
      if (u.consumers++ == 0) u.first_consumer = static_cast<int32_t>(slot);
    }
    for (int32_t t : n.outputs) {
      if (t >= 0) touch(t, slot).producer = static_cast<int32_t>(slot);
    }
  }
  for (int32_t t : external_outputs) {
    if (auto it = usage.find(t); it != usage.end()) ++it->second.consumers;
  }
  return usage;
}

// xnn_subgraph_fusion's clamp and pad rules, over values in id (tensor) order.
size_t FuseNodes(const Subgraph& subgraph, std::vector<XnnNode>& nodes,
                 const std::set<int32_t>& external_outputs) {
  std::map<int32_t, Usage> usage = Analyze(nodes, external_outputs);
  size_t fused = 0;
  for (auto& [tensor, u] : usage) {
    if (u.consumers != 1 || u.producer < 0 || u.first_consumer < 0) continue;
    XnnNode& producer = nodes[static_cast<size_t>(u.producer)];
    XnnNode& consumer = nodes[static_cast<size_t>(u.first_consumer)];
    if (producer.fused || consumer.fused || producer.outputs.empty()) continue;
    if (IsClamp(*consumer.node) && TakesClamp(*producer.node) && !consumer.outputs.empty()) {
      const int32_t fused_output = consumer.outputs[0];
      usage[fused_output].producer = u.producer;
      producer.outputs[0] = fused_output;
      consumer = XnnNode{consumer.node, {}, {}, true};
      ++fused;
    } else if (IsSpatialPad(subgraph, *producer.node, tensor) &&
               IsBuiltin(*consumer.node, {"CONV_2D", "DEPTHWISE_CONV_2D"}) &&
               consumer.node->options->padding == Padding::kValid && !consumer.inputs.empty() &&
               consumer.inputs[0] == tensor) {
      consumer.inputs[0] = producer.inputs[0];
      producer = XnnNode{producer.node, {}, {}, true};
      ++fused;
    }
  }
  return fused;
}

}  // namespace

Result<XnnpackRuntimeWorkspace> PlanXnnpackRuntimeWorkspace(const Subgraph& subgraph,
                                                            int32_t kernel_index,
                                                            const XnnpackPlannerRules& rules) {
  const Node& kernel = subgraph.nodes[static_cast<size_t>(kernel_index)];
  const std::set<int32_t> external(kernel.inputs.begin(), kernel.inputs.end());
  std::set<int32_t> external_outputs(kernel.outputs.begin(), kernel.outputs.end());
  std::set<int32_t> statics;
  std::vector<XnnNode> nodes;
  for (int32_t index : kernel.replaces) {
    const Node& node = subgraph.nodes[static_cast<size_t>(index)];
    if (IsXnnpackStaticUnpackNode(subgraph, node)) {
      statics.insert(node.outputs.begin(), node.outputs.end());
      continue;
    }
    nodes.push_back({&node,
                     {node.inputs.begin(), node.inputs.end()},
                     {node.outputs.begin(), node.outputs.end()}});
  }
  XnnpackRuntimeWorkspace runtime;
  runtime.kernel_node = kernel_index;
  runtime.xnn_nodes = nodes.size();
  runtime.fused_nodes = FuseNodes(subgraph, nodes, external_outputs);
  const std::map<int32_t, Usage> usage = Analyze(nodes, external_outputs);

  // The internal values something reads, in value id order, with their record.
  std::map<int32_t, size_t> record_of;
  std::vector<XnnUsageRecord> records;
  std::vector<uint64_t> tensor_bytes;
  uint64_t sum = 0;
  for (const auto& [tensor, u] : usage) {
    const Tensor& t = subgraph.tensors[static_cast<size_t>(tensor)];
    if (u.consumers == 0 || t.is_constant() || statics.count(tensor) || external.count(tensor) ||
        external_outputs.count(tensor) || IsHandle(t)) {
      continue;
    }
    const std::optional<uint64_t> bytes = ValueBytes(t);
    std::optional<uint64_t> rounded;
    if (bytes) rounded = CheckedAlignUp(*bytes, kXnnExtraBytes);
    if (rounded) rounded = CheckedAlignUp(*rounded, rules.allocation_alignment);
    const std::optional<uint64_t> total = rounded ? CheckedAdd(sum, *rounded) : std::nullopt;
    if (!total) {
      return Status::Error(SubgraphLabel(subgraph) + ": tensor " + std::to_string(tensor) + " (" +
                           t.name + "): XNNPACK workspace size is unknown or overflows");
    }
    sum = *total;
    record_of[tensor] = records.size();
    records.push_back({*rounded, u.first, u.last});
    tensor_bytes.push_back(*bytes);
  }

  std::map<size_t, size_t> reuses;  // record -> the record whose memory it takes
  for (const XnnNode& n : nodes) {
    if (!rules.in_place || n.fused || !WritesInPlace(*n.node) || n.outputs.empty()) continue;
    const auto output = record_of.find(n.outputs[0]);
    if (output == record_of.end()) continue;
    std::optional<size_t> input;
    for (int32_t t : n.inputs) {
      const auto found = t < 0 ? record_of.end() : record_of.find(t);
      if (found == record_of.end() || usage.at(t).consumers != 1) continue;
      if (tensor_bytes[found->second] != tensor_bytes[output->second]) continue;
      input = found->second;
      break;
    }
    const Usage& out = usage.at(n.outputs[0]);
    if (!input || out.consumers != 1) continue;
    size_t root = *input;
    while (reuses.count(root)) root = reuses.at(root);
    reuses[output->second] = root;
    records[output->second].bytes = 0;
    records[root].last_node = static_cast<uint32_t>(out.first_consumer);
  }

  runtime.planned_values = records.size();
  runtime.in_place_values = reuses.size();
  const XnnMemoryPlan plan = PlanXnnpackValues(records, rules.leading_gap);
  runtime.arena_bytes = plan.arena_bytes;
  std::vector<WorkspaceRange> written;
  for (size_t r = 0; r < records.size(); ++r) {
    if (records[r].bytes > 0) {
      written.push_back({plan.offsets[r], plan.offsets[r] + tensor_bytes[r]});
    }
  }
  std::sort(written.begin(), written.end(),
            [](const WorkspaceRange& a, const WorkspaceRange& b) { return a.begin < b.begin; });
  for (const WorkspaceRange& range : written) {
    if (!runtime.written.empty() && range.begin <= runtime.written.back().end) {
      runtime.written.back().end = std::max(runtime.written.back().end, range.end);
    } else {
      runtime.written.push_back(range);
    }
  }
  if (runtime.arena_bytes > 0) {
    const std::optional<uint64_t> bytes = CheckedAdd(runtime.arena_bytes, rules.tail_bytes);
    if (!bytes) return Status::Error(SubgraphLabel(subgraph) + ": XNNPACK workspace overflows");
    runtime.workspace_bytes = *bytes;
  }
  return runtime;
}

Result<XnnpackWorkspace> PlanXnnpackWorkspace(const Subgraph& delegated,
                                              const std::string& delegate,
                                              const XnnpackPlannerRules& rules) {
  XnnpackWorkspace workspace;
  for (int32_t planned : delegated.execution_plan) {
    const Node& kernel = delegated.nodes[static_cast<size_t>(planned)];
    if (kernel.kind != NodeKind::kDelegateKernel || kernel.op != delegate) continue;
    auto runtime = PlanXnnpackRuntimeWorkspace(delegated, planned, rules);
    if (!runtime.ok()) return runtime.status();
    workspace.bytes = std::max(workspace.bytes, runtime->workspace_bytes);
    workspace.runtimes.push_back(*runtime);
  }
  return workspace;
}

}  // namespace tfa
