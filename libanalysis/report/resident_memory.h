// What an upstream TFLite process holds resident for the model once AllocateTensors and one Invoke
// have run, term by term: the question "how much RAM does my app need for this model", which the
// arena figures alone do not answer. Memory that is allocated but never written takes no page, so
// every term counts pages written or read (4 KiB), not buffer sizes:
//   mapped_weights      the model file is mapped (FlatBufferModel::BuildFromFile), not read; its
//                       pages count once touched: every constant buffer a kernel or a delegate
//                       reads (the CPU kernels at each Invoke, XNNPACK once as it packs, the GPU
//                       delegate as it uploads). A buffer nothing reads is never touched.
//   model_file_tables   the rest of the mapped file (tables, shapes, names, sparsity index
//                       vectors), which InterpreterBuilder reads.
//   arena_pages         the pages of the tensor arenas the plan places tensors on: an Invoke writes
//                       every one of them (inputs, every node's outputs and temporaries). The
//                       arena is malloc'd at the CPU-only plan's size before a delegate that does
//                       not allow dynamic tensors is applied; the part only that plan used is
//                       never written.
//   persistent_pages    the persistent arena's tensors (dequantized fp16 weights, variables, the
//                       kernels' persistent temporaries), written at the first Invoke.
//   <delegate> terms    what the delegate holds outside the arenas (delegate_memory.h): for
//                       XNNPACK its packed weights, its operators' indirection buffers
//                       (xnnpack_operator_memory.h), the pages of its workspace its values write
//                       (xnnpack_workspace.h) and the weights it unpacks; for the others their
//                       delegate_memory total, with its basis.
//   eigen_gemm_blocks   Eigen's packing blocks for the largest float GEMM the CPU kernels run
//                       (eigen_gemm_blocks.h), outside the arena.
//   code_and_allocator  unknown: the code pages of the kernels the model runs, the interpreter's
//                       tensor and node structs, the kernels' and XNNPACK's operator structs and
//                       the allocator's bookkeeping follow the build, not the model alone.
// The estimate assumes every arena starts on a page.
#ifndef LIBANALYSIS_REPORT_RESIDENT_MEMORY_H_
#define LIBANALYSIS_REPORT_RESIDENT_MEMORY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/report/delegate_memory.h"

namespace tfa {

struct ModelPlan;

inline constexpr uint64_t kResidentPageBytes = 4096;

struct ResidentTerm {
  std::string term;    // "mapped_weights", "arena_pages", "xnnpack_packed_weights", ...
  uint64_t bytes = 0;  // 0 when unknown
  MemoryBasis basis = MemoryBasis::kPredicted;
  std::string method;  // how the figure was made
};

struct ResidentEstimate {
  std::vector<ResidentTerm> terms;
  uint64_t bytes = 0;  // the sum of the known terms

  // Some term is unknown: `bytes` is a lower bound.
  bool has_unknown() const;
};

// Bytes of the 4 KiB pages that the byte ranges [begin, end) touch, each page once.
uint64_t TouchedPageBytes(std::vector<std::pair<uint64_t, uint64_t>> ranges);

// The estimate for `plan` (arenas planned); `delegate_memory[s]` is subgraph s's delegate memory
// (EstimateDelegateMemory, in delegate order). Errors name the subgraph whose sizes overflow.
[[nodiscard]] Result<ResidentEstimate> EstimateResidentMemory(
    const ModelPlan& plan, const std::vector<std::vector<DelegateMemory>>& delegate_memory);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_RESIDENT_MEMORY_H_
