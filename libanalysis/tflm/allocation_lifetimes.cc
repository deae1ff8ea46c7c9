#include "libanalysis/tflm/allocation_lifetimes.h"

#include <string>

namespace tfa::tflm {
namespace {

// Nodes visited in all, counting a subgraph once per call: bounds the walk of a hostile call tree
// (a subgraph called twice by each of its callers doubles at every level).
constexpr uint64_t kMaxVisitedNodes = uint64_t{1} << 24;

class LifetimeMarker {
 public:
  LifetimeMarker(const Model& model, const std::vector<ScratchRequest>& scratch)
      : model_(model), scratch_(scratch) {
    result_.tensors.resize(model.subgraphs.size());
    for (size_t s = 0; s < model.subgraphs.size(); ++s) {
      result_.tensors[s].resize(model.subgraphs[s].tensors.size());
    }
    result_.scratch.resize(scratch.size());
    on_stack_.assign(model.subgraphs.size(), false);
  }

  Result<AllocationLifetimes> Run() {
    TFA_RETURN_IF_ERROR(Mark(0));
    return std::move(result_);
  }

 private:
  void Created(Lifetime& lifetime) const {
    if (lifetime.first == -1) lifetime.first = scope_;
  }
  void Used(Lifetime& lifetime) const { lifetime.last = scope_; }

  Lifetime* TensorOf(size_t subgraph, int32_t id) {
    auto& tensors = result_.tensors[subgraph];
    if (id < 0 || static_cast<size_t>(id) >= tensors.size()) return nullptr;
    return &tensors[static_cast<size_t>(id)];
  }

  Status MarkCalled(int32_t subgraph) {
    if (subgraph < 0 || static_cast<size_t>(subgraph) >= model_.subgraphs.size()) {
      return Status::Error("calls subgraph " + std::to_string(subgraph) + ", which does not exist");
    }
    ++scope_;
    return Mark(static_cast<size_t>(subgraph));
  }

  // MarkSubgraphLifetimesIfNecessary: the subgraphs a control-flow node calls, in upstream's
  // order (then, else; cond, body; init).
  Status MarkCalledSubgraphs(const Node& node) {
    const OpOptions& options = *node.options;
    if (node.op == "IF") {
      TFA_RETURN_IF_ERROR(MarkCalled(options.then_subgraph));
      return MarkCalled(options.else_subgraph);
    }
    if (node.op == "WHILE") {
      TFA_RETURN_IF_ERROR(MarkCalled(options.cond_subgraph));
      return MarkCalled(options.body_subgraph);
    }
    if (node.op == "CALL_ONCE") return MarkCalled(options.init_subgraph);
    return Status::Ok();
  }

  Status Mark(size_t s) {
    const Subgraph& subgraph = model_.subgraphs[s];
    if (on_stack_[s]) return Status::Error("subgraph " + std::to_string(s) + " calls itself");
    on_stack_[s] = true;
    for (int32_t id : subgraph.inputs) {
      if (Lifetime* t = TensorOf(s, id)) Created(*t);
    }
    for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
      if (++visited_ > kMaxVisitedNodes) {
        return Status::Error("the subgraph call tree has more than " +
                             std::to_string(kMaxVisitedNodes) + " nodes to visit");
      }
      ++scope_;
      const Node& node = subgraph.nodes[n];
      for (int32_t id : node.outputs) {
        if (Lifetime* t = TensorOf(s, id)) Created(*t);
      }
      const int32_t node_first_scope = scope_;
      TFA_RETURN_IF_ERROR(MarkCalledSubgraphs(node).WithContext(
          "subgraph " + std::to_string(s) + ": node " + std::to_string(n) + " (" + node.op + ")"));
      for (int32_t id : node.inputs) {
        if (Lifetime* t = TensorOf(s, id)) Used(*t);
      }
      for (int32_t id : node.outputs) {
        if (Lifetime* t = TensorOf(s, id)) Used(*t);
      }
      for (size_t r = 0; r < scratch_.size(); ++r) {
        if (scratch_[r].subgraph != static_cast<int32_t>(s) ||
            scratch_[r].node != static_cast<int32_t>(n)) {
          continue;
        }
        Lifetime& lifetime = result_.scratch[r];
        if (lifetime.first == -1) lifetime.first = node_first_scope;
        lifetime.last = scope_;
      }
    }
    for (int32_t id : subgraph.outputs) {
      if (Lifetime* t = TensorOf(s, id)) Used(*t);
    }
    on_stack_[s] = false;
    return Status::Ok();
  }

  const Model& model_;
  const std::vector<ScratchRequest>& scratch_;
  AllocationLifetimes result_;
  std::vector<bool> on_stack_;
  int32_t scope_ = 0;
  uint64_t visited_ = 0;
};

}  // namespace

Result<AllocationLifetimes> MarkAllocationLifetimes(const Model& model,
                                                    const std::vector<ScratchRequest>& scratch) {
  if (model.subgraphs.empty()) return Status::Error("no subgraphs");
  return LifetimeMarker(model, scratch).Run();
}

}  // namespace tfa::tflm
