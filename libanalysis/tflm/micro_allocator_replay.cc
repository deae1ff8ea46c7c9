#include "libanalysis/tflm/micro_allocator_replay.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/tflm/allocation_lifetimes.h"
#include "libanalysis/tflm/greedy_memory_planner.h"
#include "libanalysis/tflm/kernel_prepare_checks.h"
#include "libanalysis/tflm/resource_variables.h"
#include "libanalysis/tflm/tflm_kernels.h"

namespace tfa::tflm {
namespace {

// kMaxScratchBuffersPerOp (micro_allocator.cc): the head keeps room for this many more requests.
constexpr uint64_t kMaxScratchBuffersPerOp = 12;
// GreedyMemoryPlanner::per_buffer_size(): BufferRequirements (4 ints), two sort ints, ListEntry
// (3 ints), one offset int.
constexpr uint64_t kPlannerBytesPerBuffer = 40;
// A 32-bit target addresses 4 GiB at most.
constexpr uint64_t kAddressable32 = uint64_t{1} << 32;

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The tail grows down from a 16-aligned arena end: each allocation moves it to the aligned
// address below (SingleArenaBufferAllocator::AllocatePersistentBuffer), so `used` is the
// distance from the end.
class TailReplay {
 public:
  explicit TailReplay(std::vector<TailItem>& items) : items_(items) {}

  // Sizes come from the model: a sum past 2^63 marks the replay overflowed instead of wrapping.
  uint64_t Allocate(TailItem item, uint64_t alignment) {
    const uint64_t before = used_;
    const auto end = CheckedAdd(used_, item.requested);
    const auto aligned = end ? CheckedAlignUp(*end, alignment) : std::nullopt;
    if (!aligned || *aligned > kMaxBytes) {
      overflowed_ = true;
      return 0;
    }
    used_ = *aligned;
    item.used = used_ - before;
    items_.push_back(std::move(item));
    return used_ - before;
  }
  uint64_t used() const { return used_; }
  bool overflowed() const { return overflowed_; }

 private:
  static constexpr uint64_t kMaxBytes = uint64_t{1} << 63;
  std::vector<TailItem>& items_;
  uint64_t used_ = 0;
  bool overflowed_ = false;
};

TailItem Item(TailItemKind kind, std::string what, uint64_t requested, int32_t subgraph = -1,
              int32_t node = -1, int32_t tensor = -1) {
  TailItem item;
  item.kind = kind;
  item.what = std::move(what);
  item.requested = requested;
  item.subgraph = subgraph;
  item.node = node;
  item.tensor = tensor;
  return item;
}

bool NeedsAllocating(const Tensor& tensor) {
  return !tensor.is_constant() && !tensor.is_variable && tensor.bytes_or_zero() != 0;
}

// The interpreter's TfLiteTensor for a model input or output, with the quantization
// InitializeTfLiteTensorFromFlatbuffer copies when scale and zero point are both present.
void AllocatePersistentTensor(TailReplay& tail, TflmArena& arena, const Tensor& tensor,
                              int32_t id) {
  arena.persistent_tensor_bytes += tail.Allocate(
      Item(TailItemKind::kPersistentTensor, "TfLiteTensor", arena.sizes.tensor.size, 0, -1, id),
      arena.sizes.tensor.align);
  if (tensor.quantization->scale.empty() || tensor.quantization->zero_point.empty()) {
    return;
  }
  arena.persistent_quantization_bytes +=
      tail.Allocate(Item(TailItemKind::kQuantization, "TfLiteAffineQuantization",
                         arena.sizes.affine_quantization.size, 0, -1, id),
                    arena.sizes.affine_quantization.align);
  arena.persistent_quantization_bytes +=
      tail.Allocate(Item(TailItemKind::kQuantization, "zero-point TfLiteIntArray",
                         IntArrayBytes(tensor.quantization->scale.size()), 0, -1, id),
                    4);
}

// What TFLM would do with `plan` that the replay does not follow: an offset below the head's
// start (TFLM would write before the arena), and a variable tensor given an offset (upstream's
// AllocateVariables then leaves it out of the tail for the plan, with lifetimes not modelled here).
std::optional<std::string> OfflinePlanRefusal(const Model& model, const OfflinePlan& plan) {
  uint64_t tensors = 0;
  for (const Subgraph& subgraph : model.subgraphs) tensors += subgraph.tensors.size();
  if (plan.offsets.size() != tensors) {
    return "TFLite Micro refuses its offline plan: Nbr of offline buffer offsets (" +
           std::to_string(plan.offsets.size()) + ") in metadata not equal nbr tensors (" +
           std::to_string(tensors) + ")";
  }
  for (size_t t = 0; t < plan.offsets.size(); ++t) {
    if (plan.offsets[t] < kOnlinePlannedOffset) {
      return "offline plan: tensor " + std::to_string(t) + " has offset " +
             std::to_string(plan.offsets[t]) + ", before the arena's head";
    }
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t t = 0; t < subgraph.tensors.size(); ++t) {
      if (subgraph.tensors[t].is_variable && plan.offsets[t] != kOnlinePlannedOffset) {
        return "offline plan: subgraph " + std::to_string(s) + " variable tensor " +
               std::to_string(t) +
               " has an offset; TFLite Micro then plans it in the head, which is not modelled";
      }
    }
  }
  return std::nullopt;
}

// The arena needs AllocateTensors' peak, plus up to 15 bytes MicroAllocator loses aligning an
// arena that does not start on 16 bytes; rounded up to 16 so the end is aligned too.
uint64_t RecommendedArenaSize(const TflmArena& arena) {
  return AlignUp(std::max(arena.arena_used_bytes, arena.allocate_tensors_peak), kArenaAlignment) +
         (kArenaAlignment - 1);
}

}  // namespace

const char* TailItemKindName(TailItemKind kind) {
  switch (kind) {
    case TailItemKind::kAllocatorObject:
      return "allocator";
    case TailItemKind::kResourceVariables:
      return "resource_variables";
    case TailItemKind::kSubgraphAllocations:
      return "subgraph_allocations";
    case TailItemKind::kEvalTensors:
      return "eval_tensors";
    case TailItemKind::kNodeAndRegistrations:
      return "node_and_registrations";
    case TailItemKind::kBuiltinOptions:
      return "builtin_options";
    case TailItemKind::kOpData:
      return "op_data";
    case TailItemKind::kPersistentBuffer:
      return "persistent_buffer";
    case TailItemKind::kScratchBufferHandles:
      return "scratch_buffer_handles";
    case TailItemKind::kVariable:
      return "variable";
    case TailItemKind::kTensorPointers:
      return "tensor_pointers";
    case TailItemKind::kPersistentTensor:
      return "persistent_tensor";
    case TailItemKind::kQuantization:
      return "quantization";
  }
  return "unknown";
}

Result<TflmArena> ReplayMicroAllocator(const Model& model, const Build& build) {
  const bool carries_plan = model.format == "tflite" &&
                            std::find(model.metadata_names.begin(), model.metadata_names.end(),
                                      kOfflineMemoryAllocation) != model.metadata_names.end();
  if (!carries_plan) return ReplayMicroAllocator(model, build, nullptr);
  auto plan = ReadOfflinePlanOfFile(model.path);
  if (!plan.ok()) return plan.status();
  return ReplayMicroAllocator(model, build, plan->has_value() ? &**plan : nullptr);
}

Result<TflmArena> ReplayMicroAllocator(const Model& model, const Build& build,
                                       const OfflinePlan* offline_plan) {
  const Target target = build.target;
  TflmArena arena;
  arena.target = target;
  arena.abi = build.abi;
  arena.static_memory = build.static_memory;
  arena.recording_allocator = build.recording_allocator;
  arena.cmsis_nn = build.cmsis_nn;
  arena.sizes = StructSizesFor(build);
  const StructSizes& sizes = arena.sizes;
  if (model.subgraphs.empty()) return Status::Error(model.path + ": no subgraphs");
  const uint64_t pointer = PointerSize(target);

  auto node_context = [&](size_t s, size_t n) {
    return model.path + ": subgraph " + std::to_string(s) + ": node " + std::to_string(n) + " (" +
           model.subgraphs[s].nodes[n].op + ")";
  };
  // MicroInterpreter resolves every op before any kernel runs
  // (PrepareNodeAndRegistrationDataFromFlatbuffer): an op without a kernel stops it first.
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t n = 0; n < model.subgraphs[s].nodes.size(); ++n) {
      const Node& node = model.subgraphs[s].nodes[n];
      if (ResolverMethod(node.op)) continue;
      return RequestsOfNode(build, model.subgraphs[s], node)
          .status()
          .WithContext(node_context(s, n));
    }
  }
  // Then Prepare, subgraph by subgraph and node by node: the first kernel that refuses its node
  // fails AllocateTensors, whatever comes after it (micro_interpreter_graph.cc PrepareSubgraphs).
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t n = 0; n < model.subgraphs[s].nodes.size(); ++n) {
      const Node& node = model.subgraphs[s].nodes[n];
      if (auto failure = PrepareFailure(model.subgraphs[s], node)) {
        return Status::Error(node_context(s, n) +
                             ": TFLite Micro refuses it in Prepare: " + *failure);
      }
    }
  }

  // Every node's kernel requests: a kernel not modelled here stops the replay.
  VarHandleNames var_handle_names;
  if (std::any_of(model.subgraphs.begin(), model.subgraphs.end(), [](const Subgraph& subgraph) {
        return std::any_of(subgraph.nodes.begin(), subgraph.nodes.end(),
                           [](const Node& node) { return node.op == "VAR_HANDLE"; });
      })) {
    // Which handles share a variable is in the .tflite's VarHandleOptions, not in Graph JSON.
    if (model.format != "tflite") {
      return Status::Error(model.path +
                           ": VAR_HANDLE's variable names are read from a .tflite file; give the "
                           "model as .tflite for --target tflm");
    }
    auto names = VarHandleNamesOfFile(model.path);
    if (!names.ok()) return names.status();
    var_handle_names = std::move(names).value();
  }
  const ResourceVariables resources = PlanResourceVariables(model, var_handle_names);
  std::vector<std::vector<KernelRequests>> requests(model.subgraphs.size());
  std::set<std::string> seen_ops;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
      const Node& node = subgraph.nodes[n];
      auto node_requests = RequestsOfNode(build, subgraph, node);
      if (!node_requests.ok()) return node_requests.status().WithContext(node_context(s, n));
      requests[s].push_back(std::move(node_requests).value());
      if (const uint64_t bytes = resources.buffer_bytes[s][n]; bytes != 0) {
        requests[s].back().persistent_buffers.push_back(bytes);
      }
      if (seen_ops.insert(node.op).second) {
        arena.resolver.push_back({node.op, std::string(*ResolverMethod(node.op))});
      }
    }
  }

  TailReplay tail(arena.tail_items);
  // MicroAllocator::Create: the allocator's own objects. Then the application's
  // MicroResourceVariables::Create (two persistent buffers), then StartModelAllocation's builtin
  // data allocator and SubgraphAllocations.
  tail.Allocate(Item(TailItemKind::kAllocatorObject, "allocator objects",
                     sizes.allocator_objects - sizes.builtin_data_allocator.size -
                         sizes.subgraph_allocations.size),
                pointer);
  if (resources.max_variables != 0) {
    tail.Allocate(Item(TailItemKind::kResourceVariables, "MicroResourceVariables",
                       ResourceVariablesObject(build).size),
                  kArenaAlignment);
    tail.Allocate(Item(TailItemKind::kResourceVariables,
                       "MicroResourceVariable[" + std::to_string(resources.max_variables) + "]",
                       ResourceVariableEntry(build).size * resources.max_variables),
                  kArenaAlignment);
  }
  tail.Allocate(Item(TailItemKind::kAllocatorObject, "MicroBuiltinDataAllocator",
                     sizes.builtin_data_allocator.size),
                sizes.builtin_data_allocator.align);
  tail.Allocate(Item(TailItemKind::kSubgraphAllocations, "SubgraphAllocations",
                     sizes.subgraph_allocations.size * model.subgraphs.size()),
                sizes.subgraph_allocations.align);
  arena.allocator_objects = sizes.allocator_objects;

  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const uint64_t count = model.subgraphs[s].tensors.size();
    arena.tensor_count += count;
    arena.eval_tensor_bytes += tail.Allocate(
        Item(TailItemKind::kEvalTensors, "TfLiteEvalTensor[" + std::to_string(count) + "]",
             count * sizes.eval_tensor.size, static_cast<int32_t>(s)),
        sizes.eval_tensor.align);
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const uint64_t count = model.subgraphs[s].nodes.size();
    arena.node_count += count;
    arena.node_and_registration_bytes +=
        tail.Allocate(Item(TailItemKind::kNodeAndRegistrations,
                           "NodeAndRegistration[" + std::to_string(count) + "]",
                           count * sizes.node_and_registration.size, static_cast<int32_t>(s)),
                      sizes.node_and_registration.align);
  }
  // PrepareNodeAndRegistrationDataFromFlatbuffer: each op's parser allocates its options.
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t n = 0; n < requests[s].size(); ++n) {
      const Layout options = requests[s][n].builtin_options;
      if (options.size == 0) continue;
      arena.builtin_options_bytes += tail.Allocate(
          Item(TailItemKind::kBuiltinOptions, model.subgraphs[s].nodes[n].op + " options",
               options.size, static_cast<int32_t>(s), static_cast<int32_t>(n)),
          options.align);
    }
  }
  // InitSubgraphs: each kernel's user data (MicroContext::AllocatePersistentBuffer, 16-aligned),
  // then what else its Init allocates.
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t n = 0; n < requests[s].size(); ++n) {
      const uint64_t op_data = requests[s][n].op_data;
      if (op_data != 0) {
        arena.op_data_requested += op_data;
        arena.persistent_buffer_bytes +=
            tail.Allocate(Item(TailItemKind::kOpData, model.subgraphs[s].nodes[n].op + " OpData",
                               op_data, static_cast<int32_t>(s), static_cast<int32_t>(n)),
                          kArenaAlignment);
      }
      for (uint64_t bytes : requests[s][n].init_buffers) {
        arena.persistent_buffer_bytes += tail.Allocate(
            Item(TailItemKind::kPersistentBuffer, model.subgraphs[s].nodes[n].op + " Init buffer",
                 bytes, static_cast<int32_t>(s), static_cast<int32_t>(n)),
            kArenaAlignment);
      }
    }
  }
  // PrepareSubgraphs: persistent buffers go to the tail, scratch requests wait in the head.
  std::vector<ScratchRequest> scratch;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t n = 0; n < requests[s].size(); ++n) {
      for (uint64_t bytes : requests[s][n].persistent_buffers) {
        arena.persistent_buffer_bytes += tail.Allocate(
            Item(TailItemKind::kPersistentBuffer, model.subgraphs[s].nodes[n].op + " buffer", bytes,
                 static_cast<int32_t>(s), static_cast<int32_t>(n)),
            kArenaAlignment);
      }
      for (uint64_t bytes : requests[s][n].scratch_buffers) {
        scratch.push_back({static_cast<int32_t>(s), static_cast<int32_t>(n), bytes});
      }
    }
  }
  arena.scratch_buffer_count = scratch.size();
  // FinishModelAllocation: the scratch buffer handles, then the variables.
  if (!scratch.empty()) {
    tail.Allocate(Item(TailItemKind::kScratchBufferHandles,
                       "ScratchBufferHandle[" + std::to_string(scratch.size()) + "]",
                       scratch.size() * sizes.scratch_buffer_handle.size),
                  sizes.scratch_buffer_handle.align);
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t t = 0; t < subgraph.tensors.size(); ++t) {
      const Tensor& tensor = subgraph.tensors[t];
      if (!tensor.is_variable) continue;
      arena.variable_bytes +=
          tail.Allocate(Item(TailItemKind::kVariable, "variable tensor", tensor.bytes_or_zero(),
                             static_cast<int32_t>(s), -1, static_cast<int32_t>(t)),
                        kArenaAlignment);
    }
  }
  const uint64_t tail_at_commit = tail.used();
  if (offline_plan != nullptr) {
    arena.offline_plan = true;
    if (auto refusal = OfflinePlanRefusal(model, *offline_plan)) {
      return Status::Error(model.path + ": " + *refusal);
    }
  }
  if (tail.overflowed()) return Status::Error(model.path + ": the arena's tail overflows 64 bits");

  // CommitStaticMemoryPlan: lifetimes as AllocationInfoBuilder marks them, then the planner.
  auto lifetimes = MarkAllocationLifetimes(model, scratch);
  if (!lifetimes.ok()) return lifetimes.status().WithContext(model.path);
  std::vector<PlannerBuffer> planned;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t t = 0; t < subgraph.tensors.size(); ++t) {
      const Tensor& tensor = subgraph.tensors[t];
      if (!NeedsAllocating(tensor) || resources.handle_outputs[s][t]) continue;
      HeadBuffer buffer;
      buffer.subgraph = static_cast<int32_t>(s);
      buffer.tensor = static_cast<int32_t>(t);
      buffer.bytes = tensor.bytes_or_zero();
      buffer.first_used = lifetimes.value().tensors[s][t].first;
      buffer.last_used = lifetimes.value().tensors[s][t].last;
      // Upstream indexes the plan by the tensor's index in its own subgraph, whatever the
      // subgraph (micro_allocation_info.cc InitializeAllocationInfo), though the plan's count is
      // every subgraph's tensors and its documentation says they are concatenated.
      buffer.offline = offline_plan != nullptr && offline_plan->offsets[t] != kOnlinePlannedOffset;
      if (buffer.offline) buffer.offset = static_cast<uint64_t>(offline_plan->offsets[t]);
      arena.head_buffers.push_back(buffer);
    }
  }
  for (size_t r = 0; r < scratch.size(); ++r) {
    HeadBuffer buffer;
    buffer.subgraph = scratch[r].subgraph;
    buffer.node = scratch[r].node;
    buffer.bytes = scratch[r].bytes;
    buffer.first_used = lifetimes.value().scratch[r].first;
    buffer.last_used = lifetimes.value().scratch[r].last;
    arena.head_buffers.push_back(buffer);
  }
  std::optional<uint64_t> planned_total = 0;
  for (HeadBuffer& buffer : arena.head_buffers) {
    auto aligned = CheckedAlignUp(buffer.bytes, kArenaAlignment);
    if (!aligned || (target == Target::kMcu32 && *aligned >= kAddressable32)) {
      return Status::Error(
          model.path + ": tensor of " + std::to_string(buffer.bytes) + " bytes is larger than a " +
          std::string(target == Target::kMcu32 ? "32-bit" : "64-bit") + " target can address");
    }
    buffer.size = *aligned;
    planned.push_back(
        {buffer.size, buffer.first_used, buffer.last_used,
         buffer.offline ? static_cast<int64_t>(buffer.offset) : PlannerBuffer::kOnlinePlanned});
    // No offset can pass the sum of all sizes: bounding the sum keeps the planner's sums exact.
    planned_total = CheckedAdd(*planned_total, buffer.size);
    if (!planned_total || *planned_total > (uint64_t{1} << 63)) {
      return Status::Error(model.path + ": the arena's head overflows 64 bits");
    }
  }
  const PlannerResult plan = PlanGreedy(planned);
  for (size_t i = 0; i < arena.head_buffers.size(); ++i) {
    arena.head_buffers[i].offset = plan.offsets[i];
  }
  arena.head = AlignUp(plan.size, kArenaAlignment);

  // MicroInterpreter::AllocateTensors: the TfLiteTensors of the inputs and the outputs.
  const Subgraph& main = model.subgraphs[0];
  auto valid = [&](int32_t id) { return id >= 0 && static_cast<size_t>(id) < main.tensors.size(); };
  auto persistent_tensors = [&](const std::vector<int32_t>& ids, const char* array_name) {
    arena.persistent_buffer_bytes += tail.Allocate(
        Item(TailItemKind::kTensorPointers, array_name, pointer * ids.size(), 0), kArenaAlignment);
    for (int32_t id : ids) {
      if (!valid(id)) continue;
      AllocatePersistentTensor(tail, arena, main.tensors[id], id);
    }
  };
  persistent_tensors(main.inputs, "input_tensors_");
  persistent_tensors(main.outputs, "output_tensors_");

  if (tail.overflowed()) return Status::Error(model.path + ": the arena's tail overflows 64 bits");
  // The model's tail: all but the allocator's own objects (resource variables included).
  arena.tail = tail.used() - sizes.allocator_objects;
  arena.arena_used_bytes = arena.head + tail.used();

  // While the plan is made, the head holds the scratch requests, AllocationInfoBuilder's arrays
  // and the planner's working memory (micro_allocator.cc CommitStaticMemoryPlan).
  const uint64_t request_bytes =
      (pointer == 8 ? 16 : 12) * (scratch.size() + kMaxScratchBuffersPerOp);
  const uint64_t allocation_info_bytes =
      (pointer == 8 ? 32 : 24) * (arena.tensor_count + scratch.size());
  const uint64_t commit_head =
      AlignUp(AlignUp(AlignUp(request_bytes, pointer) + pointer * model.subgraphs.size(), pointer) +
                  allocation_info_bytes,
              kArenaAlignment) +
      kPlannerBytesPerBuffer * planned.size();
  arena.allocate_tensors_peak = tail_at_commit + commit_head;
  arena.recommended_arena_size = RecommendedArenaSize(arena);

  if (target == Target::kMcu32) {
    const uint64_t needed = arena.recommended_arena_size + model.constant_bytes;
    if (needed >= kAddressable32) {
      return Status::Error(model.path + ": needs " + std::to_string(needed) +
                           " bytes of arena and constants, more than a 32-bit target can address "
                           "(4 GiB)");
    }
  }
  return arena;
}

}  // namespace tfa::tflm
