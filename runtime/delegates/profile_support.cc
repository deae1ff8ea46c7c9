#include "runtime/delegates/profile_support.h"

#include <algorithm>

#include "libanalysis/profiles/delegate_selection.h"

namespace tfa::runtime {

Result<ProfileSupport> ProfileSupport::Resolve(const std::string& spec,
                                               const DelegateOptions& options) {
  auto profile = ResolveDelegateProfile(spec);
  if (!profile.ok()) return profile.status();
  for (const auto& [key, value] : options) {
    TFA_RETURN_IF_ERROR(profile->SetOption(key, value));
  }
  return ProfileSupport(std::move(*profile));
}

bool ProfileSupport::IsCached(const Subgraph& subgraph) const {
  return cached_subgraph_ == &subgraph && cached_node_count_ == subgraph.nodes.size() &&
         cached_plan_ == subgraph.execution_plan;
}

std::vector<InputRemap> ProfileSupport::InputRemaps(const Subgraph& subgraph) const {
  if (!applies_input_remaps_) return {};
  if (!IsCached(subgraph)) Select(subgraph);
  return remaps_;
}

bool ProfileSupport::IsNodeSupported(const Subgraph& subgraph, int32_t node) const {
  // A question about the plan's first node that a delegate may take starts a new round of
  // questions (the interpreter asks in plan order), possibly about another graph that happens to
  // live at the same address with the same plan, so the selection is made afresh.
  const auto first = std::find_if(
      subgraph.execution_plan.begin(), subgraph.execution_plan.end(), [&](int32_t planned) {
        return subgraph.nodes[static_cast<size_t>(planned)].kind != NodeKind::kDelegateKernel;
      });
  const bool new_round = first != subgraph.execution_plan.end() && *first == node;
  if (new_round || !IsCached(subgraph)) Select(subgraph);
  return static_cast<size_t>(node) < claimed_.size() && claimed_[static_cast<size_t>(node)];
}

void ProfileSupport::Select(const Subgraph& subgraph) const {
  cached_subgraph_ = &subgraph;
  cached_plan_ = subgraph.execution_plan;
  cached_node_count_ = subgraph.nodes.size();
  claimed_.assign(subgraph.nodes.size(), false);
  remaps_.clear();
  status_ = Status::Ok();
  auto selection = SelectDelegateNodes(subgraph, profile_);
  if (!selection.ok()) {
    status_ = selection.status();
    return;
  }
  for (int32_t node : selection->selection.nodes_to_replace) {
    claimed_[static_cast<size_t>(node)] = true;
  }
  if (applies_input_remaps_) {
    remaps_ = selection->selection.input_remaps;
    return;
  }
  // A rewired input whose DEQUANTIZE is delegated too changes nothing at the boundary: the fp16
  // constant is the partition's input either way. One whose DEQUANTIZE stays on the CPU would.
  for (const InputRemap& remap : selection->selection.input_remaps) {
    for (int32_t planned : subgraph.execution_plan) {
      const Node& producer = subgraph.nodes[static_cast<size_t>(planned)];
      const bool produces = std::find(producer.outputs.begin(), producer.outputs.end(),
                                      remap.from_tensor) != producer.outputs.end();
      if (!produces || claimed_[static_cast<size_t>(planned)]) continue;
      status_ = Status::Error("delegate " + profile_.name + ": the FP16 helper rewires node " +
                              std::to_string(remap.node) + " past DEQUANTIZE node " +
                              std::to_string(planned) +
                              ", which the runtime's interpreter does not replay; nothing "
                              "delegated");
      claimed_.assign(subgraph.nodes.size(), false);
      return;
    }
  }
}

}  // namespace tfa::runtime
