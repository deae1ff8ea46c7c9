#include "libanalysis/report/resident_memory.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/tensor_type.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/xnnpack_workspace.h"

namespace tfa {
namespace {

using ByteRanges = std::vector<std::pair<uint64_t, uint64_t>>;

// Terms that may only grow: UINT64_MAX once a sum overflows.
uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return CheckedAdd(a, b).value_or(UINT64_MAX); }

// The constant buffers some node reads: the inputs of every node in the plan and of every model
// node a delegate kernel stands for (the delegate reads them once, to pack or upload them).
uint64_t ReadConstantBytes(const ModelPlan& plan) {
  std::set<int32_t> buffers;
  uint64_t bytes = 0;
  for (const SubgraphPlan& sp : plan.subgraphs) {
    const Subgraph& graph = sp.memory ? *sp.memory->prepared : *sp.delegated;
    auto read_inputs = [&](const Node& node) {
      for (int32_t input : node.inputs) {
        if (input < 0) continue;
        const Tensor& t = graph.tensors[static_cast<size_t>(input)];
        if (!t.is_constant() || t.constant_bytes == 0) continue;
        if (t.buffer != 0 && !buffers.insert(t.buffer).second) continue;
        bytes = SaturatingAdd(bytes, t.constant_bytes);
      }
    };
    for (int32_t planned : graph.execution_plan) {
      const Node& node = graph.nodes[static_cast<size_t>(planned)];
      read_inputs(node);
      for (int32_t replaced : node.replaces)
        read_inputs(graph.nodes[static_cast<size_t>(replaced)]);
    }
  }
  return bytes;
}

ResidentTerm MappedWeights(const ModelPlan& plan) {
  const uint64_t read = ReadConstantBytes(plan);
  return {"mapped_weights", CheckedAlignUp(read, kResidentPageBytes).value_or(read),
          MemoryBasis::kPredicted,
          "the constant buffers of the mapped model file a kernel or a delegate reads (" +
              std::to_string(plan.constant_bytes - std::min(read, plan.constant_bytes)) +
              " bytes of weights nothing reads stay untouched); the flatbuffer's tables not "
              "counted"};
}

// InterpreterBuilder::ParseSparsity copies the index vectors of every sparse constant's
// dim_metadata (uint8, uint16 or int32 in the file) into TfLiteIntArrays, 4 bytes an index, kept
// as long as the interpreter. The counts are the Graph IR's: a CSR dimension 1 (Tensor::
// sparse_ledger_bytes) is exact; otherwise the tensor is taken as CSR over its last dimension
// without a block map, as TFLite's sparsifier writes fp16 weights: one index per stored value and
// one segment per row.
ResidentTerm SparsityIndexes(const ModelPlan& plan) {
  uint64_t elements = 0;
  for (const SubgraphPlan& sp : plan.subgraphs) {
    for (const Tensor& t : sp.delegated->tensors) {
      if (!t.is_sparse || t.constant_bytes == 0) continue;
      uint64_t count = 0;
      if (t.sparse_ledger_bytes) {
        count = SaturatingAdd(*t.sparse_ledger_bytes, 1);
      } else {
        const uint64_t element = DataBytes(t.type, 1).value_or(1);
        uint64_t rows = 1;
        for (size_t d = 0; d + 1 < t.shape.size(); ++d) {
          rows = CheckedMul(rows, static_cast<uint64_t>(std::max(t.shape[d], 0))).value_or(0);
        }
        count = SaturatingAdd(t.constant_bytes / std::max<uint64_t>(element, 1), rows + 1);
      }
      elements = SaturatingAdd(elements, count);
    }
  }
  return {"sparsity_indexes", CheckedMul(elements, 4).value_or(UINT64_MAX), MemoryBasis::kPredicted,
          "the sparse constants' index vectors, which InterpreterBuilder copies into int32 arrays: "
          "one index per stored value and a segment per row (CSR over the last dimension, no "
          "block map, unless dimension 1 is the CSR one)"};
}

ByteRanges BlockRanges(const std::vector<ArenaBlock>& blocks) {
  ByteRanges ranges;
  ranges.reserve(blocks.size());
  for (const ArenaBlock& b : blocks) ranges.emplace_back(b.offset, SaturatingAdd(b.offset, b.size));
  return ranges;
}

MemoryBasis CombinedBasis(const DelegateMemory& memory) {
  if (memory.has_unknown()) return MemoryBasis::kUnknown;
  for (const DelegateMemoryPart& part : memory.parts) {
    if (part.basis != MemoryBasis::kExact) return MemoryBasis::kPredicted;
  }
  return MemoryBasis::kExact;
}

uint64_t PartBytes(const DelegateMemory& memory, const char* kind) {
  for (const DelegateMemoryPart& part : memory.parts) {
    if (part.kind == kind) return part.bytes;
  }
  return 0;
}

// Adds `bytes` to the term named `term`, made with `basis` and `method` the first time.
void AddTo(std::vector<ResidentTerm>& terms, const std::string& term, uint64_t bytes,
           MemoryBasis basis, const std::string& method) {
  for (ResidentTerm& t : terms) {
    if (t.term != term) continue;
    t.bytes = SaturatingAdd(t.bytes, bytes);
    if (basis == MemoryBasis::kUnknown) t.basis = basis;
    return;
  }
  terms.push_back({term, bytes, basis, method});
}

}  // namespace

bool ResidentEstimate::has_unknown() const {
  return std::any_of(terms.begin(), terms.end(),
                     [](const ResidentTerm& t) { return t.basis == MemoryBasis::kUnknown; });
}

uint64_t TouchedPageBytes(ByteRanges ranges) {
  std::sort(ranges.begin(), ranges.end());
  uint64_t pages = 0;
  uint64_t next_page = 0;  // pages below it are counted
  for (const auto& [begin, end] : ranges) {
    if (end <= begin) continue;
    const uint64_t first = std::max(begin / kResidentPageBytes, next_page);
    const uint64_t last = (end - 1) / kResidentPageBytes;
    if (last < first) continue;
    pages += last - first + 1;
    next_page = last + 1;
  }
  return pages > UINT64_MAX / kResidentPageBytes ? UINT64_MAX : pages * kResidentPageBytes;
}

Result<ResidentEstimate> EstimateResidentMemory(
    const ModelPlan& plan, const std::vector<std::vector<DelegateMemory>>& delegate_memory) {
  ResidentEstimate estimate;
  std::vector<ResidentTerm>& terms = estimate.terms;
  terms.push_back(MappedWeights(plan));
  terms.push_back(SparsityIndexes(plan));
  uint64_t arena = 0, persistent = 0;
  for (const SubgraphPlan& sp : plan.subgraphs) {
    if (!sp.memory || !sp.memory->planned) continue;
    arena = SaturatingAdd(arena, TouchedPageBytes(BlockRanges(sp.memory->plan.rw_blocks)));
    persistent =
        SaturatingAdd(persistent, TouchedPageBytes(BlockRanges(sp.memory->plan.persistent_blocks)));
  }
  terms.push_back({"arena_pages", arena, MemoryBasis::kPredicted,
                   "the arena pages the plan places tensors on, which an Invoke writes (inputs, "
                   "outputs, temporaries); the rest of the buffer stays untouched"});
  terms.push_back({"persistent_pages", persistent, MemoryBasis::kPredicted,
                   "the persistent arena's tensors (dequantized weights, variables, persistent "
                   "temporaries), written at the first Invoke"});
  for (size_t s = 0; s < plan.subgraphs.size() && s < delegate_memory.size(); ++s) {
    const SubgraphPlan& sp = plan.subgraphs[s];
    for (const DelegateMemory& memory : delegate_memory[s]) {
      if (memory.delegate != "xnnpack") {
        AddTo(terms, memory.delegate + "_memory", memory.total_bytes, CombinedBasis(memory),
              "what the delegate allocates outside the arenas (delegate_memory), all of it "
              "taken as resident");
        continue;
      }
      AddTo(terms, "xnnpack_packed_weights", PartBytes(memory, "packed_weights"),
            MemoryBasis::kPredicted,
            "the weights XNNPACK packs in the delegate's Create, memset and written whole; the "
            "mapped weights it read stay mapped beside them");
      AddTo(terms, "xnnpack_indirection_buffers", PartBytes(memory, "indirection_buffers"),
            MemoryBasis::kPredicted,
            "the operators' indirection buffers, written whole at the first reshape");
      AddTo(terms, "xnnpack_unpacked_weights", PartBytes(memory, "unpacked_static_weights"),
            MemoryBasis::kExact,
            "the delegate's float32 copies of weights it unpacks itself (a zero-filled vector)");
      auto workspace = PlanXnnpackWorkspace(*sp.delegated, memory.delegate);
      if (!workspace.ok()) return workspace.status();
      ByteRanges written;
      for (const XnnpackRuntimeWorkspace& runtime : workspace->runtimes) {
        for (const WorkspaceRange& r : runtime.written) written.emplace_back(r.begin, r.end);
      }
      AddTo(terms, "xnnpack_workspace_pages", TouchedPageBytes(std::move(written)),
            MemoryBasis::kPredicted,
            "the pages of XNNPACK's workspace its values are written to (the planner leaves gaps "
            "no value fills; every runtime of the delegate shares the workspace)");
    }
  }
  terms.push_back({"kernel_heap", 0, MemoryBasis::kUnknown,
                   "what the CPU kernels and the delegates' operators allocate outside the plans "
                   "(Eigen's GEMM packing blocks, up to about 1 MB on x86-64; XNNPACK's operator "
                   "structs); with the code pages of the kernels run and the allocator's "
                   "bookkeeping, 1.5 to 4 MB on upstream's x86-64 build (../shared/oracle/memory). "
                   "The flatbuffer's tables are not counted either"});
  for (const ResidentTerm& t : terms) estimate.bytes = SaturatingAdd(estimate.bytes, t.bytes);
  return estimate;
}

}  // namespace tfa
