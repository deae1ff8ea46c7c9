#include "libanalysis/report/resident_memory.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/tensor_type.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/eigen_gemm_blocks.h"
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

// The size of the .tflite file upstream maps: the file at the model's path when it is one (its
// flatbuffer identifier is "TFL3"), whichever form the model was read from, so that a report on
// a Graph JSON conversion with the path of its .tflite equals the report on the .tflite; nullopt
// otherwise.
std::optional<uint64_t> ModelFileBytes(const ModelPlan& plan) {
  std::ifstream file(plan.model_path, std::ios::binary);
  char head[8] = {};
  if (!file.read(head, sizeof head) || std::string_view(head + 4, 4) != "TFL3") return std::nullopt;
  std::error_code error;
  const auto bytes = std::filesystem::file_size(plan.model_path, error);
  if (error) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

// InterpreterBuilder reads every table of the flatbuffer: the tensors, operators, shapes, names
// and the sparse constants' index vectors; those pages of the mapped file are touched at build.
ResidentTerm ModelFileTables(const ModelPlan& plan, std::optional<uint64_t> model_file_bytes) {
  if (!model_file_bytes) {
    return {"model_file_tables", 0, MemoryBasis::kUnknown,
            "the flatbuffer's tables, which InterpreterBuilder reads: not known for a model "
            "that is not a .tflite file"};
  }
  const uint64_t tables = *model_file_bytes - std::min(*model_file_bytes, plan.constant_bytes);
  return {"model_file_tables", CheckedAlignUp(tables, kResidentPageBytes).value_or(tables),
          MemoryBasis::kPredicted,
          "the bytes of the mapped model file outside its constant buffers (tensor and operator "
          "tables, shapes, names, sparsity index vectors, metadata), which InterpreterBuilder "
          "reads"};
}

// Eigen's packing blocks for the largest float GEMM the CPU kernels run (eigen_gemm_blocks.h).
ResidentTerm EigenGemmBlocks(const ModelPlan& plan) {
  EigenGemmPeak peak;
  for (const SubgraphPlan& sp : plan.subgraphs) {
    const Subgraph& graph = sp.memory ? *sp.memory->prepared : *sp.delegated;
    EigenGemmPeak subgraph_peak = EigenGemmBlockPeak(graph);
    if (subgraph_peak.bytes > peak.bytes) peak = subgraph_peak;
  }
  std::string method =
      "Eigen's lhs and rhs packing blocks for the largest float GEMM of a CPU CONV_2D or "
      "FULLY_CONNECTED (Eigen 3.4's blocking for a 48 KiB L1 and a baseline x86-64 build)";
  if (peak.node >= 0) {
    method += ": node " + std::to_string(peak.node) + ", k=" + std::to_string(peak.k) +
              " m=" + std::to_string(peak.m) + " n=" + std::to_string(peak.n);
  }
  return {"eigen_gemm_blocks", CheckedAlignUp(peak.bytes, kResidentPageBytes).value_or(peak.bytes),
          MemoryBasis::kPredicted, method};
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
  terms.push_back(ModelFileTables(plan, ModelFileBytes(plan)));
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
  terms.push_back(EigenGemmBlocks(plan));
  terms.push_back({"code_and_allocator", 0, MemoryBasis::kUnknown,
                   "set by the build, not by the model alone: the code pages of the kernels and "
                   "delegate microkernels this model runs (the empty baseline model runs none), "
                   "the interpreter's tensor and node structs, the kernels' op data, XNNPACK's "
                   "operator and runtime structs, malloc's bookkeeping; they follow the build's "
                   "code layout, inlining, SIMD level and allocator. On upstream's x86-64 build "
                   "(../shared/oracle/memory) the rest came to 1.1 to 6.0 MB"});
  for (const ResidentTerm& t : terms) estimate.bytes = SaturatingAdd(estimate.bytes, t.bytes);
  return estimate;
}

}  // namespace tfa
