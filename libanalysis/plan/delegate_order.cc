#include "libanalysis/plan/delegate_order.h"

#include <utility>

namespace tfa {
namespace {

bool ModelHasOpOf(const Model& model, const DelegateProfile& profile) {
  for (const Subgraph& subgraph : model.subgraphs) {
    for (const Node& node : subgraph.nodes) {
      if (profile.HasRuleFor(node)) return true;
    }
  }
  return false;
}

}  // namespace

DelegateOrder OrderDelegatesAsInterpreter(const Model& model,
                                          std::vector<DelegateProfile> requested) {
  DelegateOrder order;
  std::vector<DelegateProfile> added_by_user;
  std::vector<DelegateProfile> at_build;
  for (DelegateProfile& profile : requested) {
    const PartitionSettings& partition = profile.partition;
    if (partition.max_partitions <= 0 && (partition.nonpositive_max_partitions_means_one ||
                                          partition.nonpositive_max_partitions_means_all)) {
      order.notes.push_back(profile.name + ": max_delegated_partitions " +
                            std::to_string(partition.max_partitions) + " is taken as " +
                            (partition.nonpositive_max_partitions_means_one
                                 ? "1, as upstream's delegate turns N <= 0 into 1"
                                 : "no limit, as upstream's delegate keeps every partition for "
                                   "N <= 0"));
    }
    if (profile.compiler_plugin) {
      std::string note = profile.name;
      note += ": transcribed; the vendor SDK's own op validation may still reject";
      order.notes.push_back(std::move(note));
      if (!order.applied.empty() || !at_build.empty() || !added_by_user.empty()) {
        std::string moved = profile.name;
        moved +=
            ": applied first: CompiledModel runs the compiler plugin on the model before "
            "the interpreter applies any delegate (NPU, then GPU, then CPU)";
        order.notes.push_back(std::move(moved));
      }
      order.applied.push_back(std::move(profile));
      continue;
    }
    if (!profile.applied_at_build) {
      added_by_user.push_back(std::move(profile));
      continue;
    }
    if (!ModelHasOpOf(model, profile)) {
      order.notes.push_back(profile.name +
                            ": not applied: InterpreterBuilder applies it only to a model with an "
                            "op it takes, and this model has none");
      continue;
    }
    if (!added_by_user.empty()) {
      order.notes.push_back(profile.name + ": applied before " + added_by_user.front().name +
                            ": InterpreterBuilder applies it before every delegate the user adds");
    }
    at_build.push_back(std::move(profile));
  }
  for (DelegateProfile& profile : at_build) order.applied.push_back(std::move(profile));
  for (DelegateProfile& profile : added_by_user) order.applied.push_back(std::move(profile));
  return order;
}

}  // namespace tfa
