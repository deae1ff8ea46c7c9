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
  for (DelegateProfile& profile : requested) {
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
    order.applied.push_back(std::move(profile));
  }
  for (DelegateProfile& profile : added_by_user) order.applied.push_back(std::move(profile));
  return order;
}

}  // namespace tfa
