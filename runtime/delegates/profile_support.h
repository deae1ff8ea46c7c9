// A runtime delegate's support predicate taken from a delegate profile, so that the runtime
// partitions exactly as the analyser predicts.
//
// The interpreter asks a delegate about one node at a time, but a profile's answer is a choice
// over the whole plan: the GPU delegate keeps only its largest partition and its FP16 helper holds
// back constant DEQUANTIZE nodes unless the whole plan is delegated. So the predicate runs
// SelectDelegateNodes (the analyser's own code) on the subgraph it is shown and answers "is this
// node among the nodes to replace". The selection is cached: the interpreter asks about every
// planned node of one plan in a row, in plan order; it is made afresh for a question about the
// plan's first candidate node, or about another graph or plan.
//
// When the FP16 helper delegates only part of the plan, it rewires the selected nodes' inputs
// from DEQUANTIZE outputs left on the CPU to the fp16 constants (InputRemap). A delegate whose
// kernels read fp16 constants calls EnableInputRemaps and hands InputRemaps to the interpreter,
// which applies them. For any other delegate such a selection is refused (IsNodeSupported claims
// nothing) and `status()` says why, rather than running a partitioning the analyser did not
// predict. Rewired inputs whose DEQUANTIZE is delegated too (full delegation) change no boundary
// tensor and are accepted either way.
#ifndef RUNTIME_DELEGATES_PROFILE_SUPPORT_H_
#define RUNTIME_DELEGATES_PROFILE_SUPPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_selection.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/delegates/delegate_options.h"

namespace tfa::runtime {

class ProfileSupport {
 public:
  explicit ProfileSupport(DelegateProfile profile) : profile_(std::move(profile)) {}

  // The built-in profile or profile spec `spec` (as --delegate takes it), with `options`
  // (--delegate-option KEY=VALUE) applied.
  [[nodiscard]] static Result<ProfileSupport> Resolve(const std::string& spec,
                                                      const DelegateOptions& options);

  const DelegateProfile& profile() const { return profile_; }
  bool IsNodeSupported(const Subgraph& subgraph, int32_t node) const;
  PartitionOptions Partitioning() const { return {.greedy = profile_.partition.greedy}; }
  // The caller applies InputRemaps before replacing the claimed nodes.
  void EnableInputRemaps() { applies_input_remaps_ = true; }
  // The fp16 helper's remaps of the selection for `subgraph` (empty unless enabled).
  std::vector<InputRemap> InputRemaps(const Subgraph& subgraph) const;
  // Why the last selection claimed nothing although the profile selected nodes; Ok otherwise.
  const Status& status() const { return status_; }

 private:
  bool IsCached(const Subgraph& subgraph) const;
  void Select(const Subgraph& subgraph) const;

  DelegateProfile profile_;
  // The selection of the plan last asked about: claimed[node] for every node of that subgraph.
  mutable const Subgraph* cached_subgraph_ = nullptr;
  mutable std::vector<int32_t> cached_plan_;
  mutable size_t cached_node_count_ = 0;
  mutable std::vector<bool> claimed_;
  mutable std::vector<InputRemap> remaps_;
  bool applies_input_remaps_ = false;
  mutable Status status_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_PROFILE_SUPPORT_H_
