#include "libanalysis/report/plan_step_node.h"

namespace tfa {
namespace {

PlanStepNode Describe(const Subgraph& planned, int32_t node_index) {
  const Node& node = planned.nodes[static_cast<size_t>(node_index)];
  if (node.kind == NodeKind::kDelegateKernel) return PlanStepNode{-1, node.op, true};
  return PlanStepNode{node_index, node.op, false};
}

}  // namespace

PlanStepNode NodeAtStep(const Subgraph& planned, int32_t step) {
  const std::vector<int32_t> plan =
      planned.execution_plan.empty() ? IdentityExecutionPlan(planned) : planned.execution_plan;
  if (step < 0 || static_cast<size_t>(step) >= plan.size()) return {};
  return Describe(planned, plan[static_cast<size_t>(step)]);
}

std::map<int32_t, std::shared_ptr<const PlanStepNode>> TemporaryOwners(const Subgraph& planned) {
  std::map<int32_t, std::shared_ptr<const PlanStepNode>> owners;
  for (size_t n = 0; n < planned.nodes.size(); ++n) {
    const auto& temporaries = planned.nodes[n].temporaries;
    if (temporaries.empty()) continue;
    const auto owner =
        std::make_shared<const PlanStepNode>(Describe(planned, static_cast<int32_t>(n)));
    for (int32_t t : temporaries) owners.emplace(t, owner);
  }
  return owners;
}

std::string PlanStepNodeText(const PlanStepNode& node) {
  if (node.delegate_kernel) return "the " + node.op + " delegate kernel";
  return node.op + " #" + std::to_string(node.node);
}

}  // namespace tfa
