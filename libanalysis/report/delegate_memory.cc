#include "libanalysis/report/delegate_memory.h"

#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/profiles/xnnpack_rules.h"
#include "libanalysis/report/gpu_device_memory.h"
#include "libanalysis/report/gpu_fused_memory.h"
#include "libanalysis/report/xnnpack_operator_memory.h"
#include "libanalysis/report/xnnpack_workspace.h"

namespace tfa {
namespace {

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

Result<std::vector<DelegateMemoryPart>> XnnpackParts(const Subgraph& subgraph,
                                                     const std::string& delegate,
                                                     const std::vector<int32_t>& nodes) {
  ByteSum unpacked(subgraph);
  for (int32_t node_index : nodes) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    if (!IsXnnpackStaticUnpackNode(subgraph, node)) continue;
    const Tensor& input = subgraph.tensors[static_cast<size_t>(node.inputs[0])];
    const bool skipped = IsOp(node, "DEQUANTIZE") && input.type == TensorType::kFloat16 &&
                         XnnpackSkipsFp16Unpack(subgraph, node);
    if (skipped) continue;
    const Tensor& output = subgraph.tensors[static_cast<size_t>(node.outputs[0])];
    const uint64_t element = output.type == TensorType::kFloat16 ? 2
                             : output.type == TensorType::kInt8  ? 1
                                                                 : 4;
    TFA_RETURN_IF_ERROR(unpacked.Add(node.outputs[0], element, kXnnExtraBytes));
  }
  auto operators = EstimateXnnpackOperatorMemory(subgraph, delegate);
  if (!operators.ok()) return operators.status();
  auto workspace = PlanXnnpackWorkspace(subgraph, delegate);
  if (!workspace.ok()) return workspace.status();
  const std::string tiles = kXnnpackX86Avx512Tiles.cpu;
  return std::vector<DelegateMemoryPart>{
      {"unpacked_static_weights", unpacked.total(),
       "outputs of the fp16/int8 DEQUANTIZE and DENSIFY nodes XNNPACK unpacks at "
       "PrepareOpsToDelegate, each aligned to XNN_EXTRA_BYTES (16); fp16 weights fed straight "
       "to CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED are skipped"},
      {"packed_weights", operators->packed_weights,
       "filters and biases of the delegated convolutions, FULLY_CONNECTED and BATCH_MATMUL with "
       "a static right-hand side, and bilinear resizes' weights, packed in the compute type "
       "(float32, or 8-bit weights with int32 biases) with channels rounded up to XNNPACK's " +
           tiles + " tiles"},
      {"indirection_buffers", operators->indirection_buffers,
       "one per IGEMM and depthwise convolution, pooling and bilinear resize, kept on the heap "
       "(the default options leave the transient indirection buffer off), sized as on " +
           tiles},
      {"workspace", workspace->bytes,
       "the partitions' internal values as XNNPACK's memory planner lays them out (clamps and "
       "zero pads fused, elementwise outputs in place, 16-byte ARM alignment), in the one "
       "workspace the delegate's runtimes share: the largest partition's; operators' own scratch "
       "not counted"},
  };
}

Result<std::vector<DelegateMemoryPart>> GpuParts(const Subgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 const GpuMemoryOptions& options) {
  auto parts = SumGpuPartitionMemory(subgraph, profile.name, options, true);
  if (!parts.ok()) return parts.status();
  const uint64_t shared = parts->shared_tensors;
  const uint64_t staging = parts->staging_buffers;
  const uint64_t constants = parts->constants;
  return std::vector<DelegateMemoryPart>{
      {"shared_tensors", shared,
       std::string("the partitions' runtime tensors (channels padded to 4, ")
           .append(std::to_string(options.float_bytes))
           .append(
               "-byte floats) in one buffer each, shared as upstream's inference context shares "
               "them (GREEDY_BEST objects or GreedyBySize offsets aligned to ")
           .append(std::to_string(options.base_alignment))
           .append(" bytes) over upstream's fused GPU tasks (elementwise ops fused into their "
                   "producers write no tensor); PAD and constant MUL/ADD folded into "
                   "convolutions are counted unfused"),
       MemoryBasis::kPredicted},
      {"staging_buffers", staging,
       "one float32 buffer per boundary input and output (upstream's TwoStepTensorTie)",
       MemoryBasis::kPredicted},
      {"constants", constants,
       std::string("weights the GPU nodes read, uploaded as ")
           .append(std::to_string(options.float_bytes))
           .append("-byte floats; upstream's per-kernel weight layouts may pad them"),
       MemoryBasis::kPredicted},
  };
}

}  // namespace

const char* MemoryBasisName(MemoryBasis basis) {
  switch (basis) {
    case MemoryBasis::kExact:
      return "exact";
    case MemoryBasis::kPredicted:
      return "predicted";
    case MemoryBasis::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool DelegateMemory::has_unknown() const {
  for (const DelegateMemoryPart& part : parts) {
    if (part.basis == MemoryBasis::kUnknown) return true;
  }
  return false;
}

Result<DelegateMemory> EstimateDelegateMemory(const Subgraph& delegated,
                                              const DelegateProfile& profile,
                                              const GpuMemoryOptions& gpu) {
  DelegateMemory memory;
  memory.delegate = profile.name;
  const std::vector<int32_t> nodes = DelegatedNodes(delegated, profile);
  Result<std::vector<DelegateMemoryPart>> parts = std::vector<DelegateMemoryPart>{};
  if (profile.kernel.delegate_kernel == "gpu") {
    parts = GpuParts(delegated, profile, gpu);
  } else if (profile.name == "xnnpack") {
    parts = XnnpackParts(delegated, profile.name, nodes);
  } else if (profile.name == "nnapi" && !nodes.empty()) {
    parts = std::vector<DelegateMemoryPart>{
        {"driver_memory", 0,
         "what the vendor's NNAPI driver allocates for the compiled model: not knowable without "
         "the device",
         MemoryBasis::kUnknown}};
  } else if (profile.compiler_plugin && !nodes.empty()) {
    parts = std::vector<DelegateMemoryPart>{
        {"npu_runtime", 0,
         "what the vendor's NPU runtime allocates for the compiled bytecode and its buffers: not "
         "knowable without the device and its SDK",
         MemoryBasis::kUnknown}};
  } else if (profile.name == "flex" && !nodes.empty()) {
    parts = std::vector<DelegateMemoryPart>{
        {"tensorflow_kernels", 0,
         "TensorFlow's eager kernels and their tensors, allocated by TensorFlow outside TFLite's "
         "arena",
         MemoryBasis::kUnknown}};
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
