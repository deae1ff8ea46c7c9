// Which accelerator suits one model: the model planned once per candidate (`gpu`, `xnnpack`,
// `npu:VENDOR`, ...), each alone, with the same pipeline `report` runs (PlanModel, BuildReport),
// and per candidate what stays on the CPU, what is copied per inference and which op to support
// next (the advisor's per-op re-selection, AdviseDelegation's op_impacts, summed over subgraphs).
//
// Candidates are ranked by: fewest CPU nodes, then fewest bytes copied per inference, then fewest
// delegate partitions; ties keep the order asked for. Like the advisor, this never says a
// candidate is faster: compute on the accelerator is not modelled, and a delegate that works on
// TFLite's buffers in place (XNNPACK, TransferCosts::in_place) copies 0 bytes.
//
// NPU candidates are a transcription of the vendor's compiler plugin (docs/accelerators.md): the
// vendor SDK's own op validation may still reject an op shown as taken; their `notes` say so.
#ifndef LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_H_
#define LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/plan/model_plan.h"

namespace tfa {

// Supporting one op on a candidate (every subgraph the candidate reached).
struct SupportNext {
  std::string op;
  int64_t rejected_nodes = 0;
  int64_t cpu_nodes_moved = 0;             // delegated nodes gained (negative: fewer delegated)
  int64_t delegated_partitions_saved = 0;  // negative: more partitions
  int64_t bytes_saved_per_inference = 0;   // negative: more copies
};

struct AcceleratorCandidate {
  std::string accelerator;       // as asked: "gpu", "xnnpack", "npu:qualcomm"
  std::string delegate;          // the profile's name: "gpu", "xnnpack", "npu:qualcomm"
  bool compiler_plugin = false;  // an NPU compiler-plugin transcription
  int32_t rank = 0;              // 0 = best by the ranking rule above
  uint64_t nodes = 0;            // the model's nodes, every subgraph
  uint64_t cpu_nodes = 0;        // left on the CPU
  uint64_t delegated_partitions = 0;
  uint64_t bytes_to_delegate = 0;  // every inference, the report's copy costs
  uint64_t bytes_from_delegate = 0;
  uint64_t transitions = 0;
  uint64_t init_upload_bytes = 0;
  // The ops whose support would move the most CPU nodes, best first (at most
  // ComparisonOptions::support_next), none with no gain.
  std::vector<SupportNext> support_next;
  std::vector<std::string> notes;  // the plan's delegation notes (the NPU honesty note)

  uint64_t bytes_per_inference() const;
};

struct AcceleratorComparison {
  std::vector<AcceleratorCandidate> candidates;  // ranked, best first
};

struct ComparisonOptions {
  // Candidates as `--accelerator` and `--delegate` name them; empty: DefaultAcceleratorCandidates.
  std::vector<std::string> accelerators;
  size_t support_next = 3;
  // The rest of the plan (invoke facts, build); its delegates and keep_delegate_inputs are set
  // per candidate.
  PlanOptions plan;
};

// "gpu", "xnnpack", then "npu:VENDOR" for every built-in compiler-plugin profile, sorted.
std::vector<std::string> DefaultAcceleratorCandidates();

// Plans `model` once per candidate and ranks them. Errors: an unknown candidate, and those of
// planning, reporting and advising, each naming the candidate.
[[nodiscard]] Result<AcceleratorComparison> CompareAccelerators(
    const std::shared_ptr<const Model>& model, const ComparisonOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_H_
