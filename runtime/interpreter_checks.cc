// The interpreter's checks: the plan it is given (disjoint arena blocks, the plan's delegates) and,
// in guard_writes mode, each node's writes.

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <span>

#include "runtime/interpreter.h"

namespace tfa::runtime {

Status CheckArenaPlanDisjoint(const ArenaPlan& plan) {
  for (const auto* blocks : {&plan.rw_blocks, &plan.persistent_blocks}) {
    std::vector<const ArenaBlock*> order;
    for (const ArenaBlock& block : *blocks) {
      if (block.size > 0) order.push_back(&block);
    }
    std::stable_sort(order.begin(), order.end(), [](const ArenaBlock* a, const ArenaBlock* b) {
      return a->first_step < b->first_step;
    });
    // Live blocks by offset. They are disjoint, so a new block overlaps one of them iff it
    // overlaps its neighbour below or above in offset order.
    std::map<uint64_t, const ArenaBlock*> live;
    using Expiry = std::pair<int32_t, uint64_t>;  // last step, offset
    std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries;
    for (const ArenaBlock* block : order) {
      while (!expiries.empty() && expiries.top().first < block->first_step) {
        live.erase(expiries.top().second);
        expiries.pop();
      }
      const ArenaBlock* clash = nullptr;
      const auto above = live.lower_bound(block->offset);
      if (above != live.end() && above->second->offset - block->offset < block->size)
        clash = above->second;
      if (!clash && above != live.begin()) {
        const ArenaBlock* below = std::prev(above)->second;
        if (block->offset - below->offset < below->size) clash = below;
      }
      if (clash && clash->tensor == block->tensor) continue;  // one tensor listed twice
      if (clash) {
        return Status::Error("arena plan places tensors " + std::to_string(clash->tensor) +
                             " and " + std::to_string(block->tensor) +
                             " in overlapping bytes while both are live");
      }
      live.emplace(block->offset, block);
      expiries.emplace(block->last_step, block->offset);
    }
  }
  return Status::Ok();
}

namespace {

// Whether the interpreter took delegate `name` back (ModelPlan::delegate_failures): it runs
// nothing.
bool TakenBack(const ModelPlan& plan, const std::string& name) {
  for (const DelegateFailure& f : plan.delegate_failures) {
    if (f.delegate == name) return true;
    for (const std::string& removed : f.also_removed) {
      if (removed == name) return true;
    }
  }
  return false;
}

}  // namespace

// The delegates that run the plan's delegate kernels must be the plan's, in its order, besides
// those the interpreter took back: a kernel node is matched to its delegate by name.
Status CheckDelegatesMatchPlan(const ModelPlan& plan, const std::vector<Delegate*>& given) {
  std::vector<Delegate*> delegates;
  for (Delegate* d : given) {
    if (!TakenBack(plan, d->Name())) delegates.push_back(d);
  }
  if (delegates.size() != plan.delegates.size()) {
    return Status::Error("the plan applies " + std::to_string(plan.delegates.size()) +
                         " delegates, the run has " + std::to_string(delegates.size()));
  }
  for (size_t i = 0; i < delegates.size(); ++i) {
    if (delegates[i]->Name() != plan.delegates[i].name) {
      return Status::Error("delegate " + std::to_string(i) + " is " + delegates[i]->Name() +
                           " but the plan applied " + plan.delegates[i].name);
    }
    for (size_t j = 0; j < i; ++j) {
      if (delegates[j]->Name() == delegates[i]->Name()) {
        return Status::Error("two delegates are named " + delegates[i]->Name() +
                             ": their kernels could not be told apart");
      }
    }
  }
  return Status::Ok();
}

Status Interpreter::CheckWrites(const SubgraphState& s, const Step& step) {
  const Node& node = *step.context.node;
  auto range_of = [&](int32_t t) -> std::optional<GuardedRange> {
    const TensorPlacement& p = s.plan.tensors[static_cast<size_t>(t)];
    if (p.arena == ArenaKind::kNone) return std::nullopt;
    const uint64_t bytes = s.tensors[static_cast<size_t>(t)].bytes;
    return GuardedRange{p.arena == ArenaKind::kRw ? 0u : 1u, p.offset, p.offset + bytes};
  };
  std::vector<GuardedRange> allowed;
  for (const auto* list : {&node.outputs, &node.temporaries}) {
    for (int32_t t : *list) {
      if (t < 0) continue;
      if (auto range = range_of(t)) allowed.push_back(*range);
    }
  }
  // Stateful kernels update their variable inputs in place.
  for (int32_t t : node.inputs) {
    if (t < 0 || !s.graph.tensors[static_cast<size_t>(t)].is_variable) continue;
    if (auto range = range_of(t)) allowed.push_back(*range);
  }
  const std::optional<GuardedRange> write = s.guard->FirstWriteOutside(std::move(allowed));
  if (!write) return Status::Ok();
  // Name a tensor live at this step that holds the first changed byte.
  const int32_t position = static_cast<int32_t>(&step - s.steps.data());
  std::string victim = "bytes no live tensor holds";
  for (const ArenaBlock& block : write->buffer == 0 ? s.plan.rw_blocks : s.plan.persistent_blocks) {
    if (block.first_step <= position && position <= block.last_step &&
        block.offset <= write->begin && write->begin - block.offset < block.size) {
      victim = "tensor " + std::to_string(block.tensor) + " '" +
               s.graph.tensors[static_cast<size_t>(block.tensor)].name + "'";
      break;
    }
  }
  return Status::Error(NodeName(s, step.node) + ": guard check: wrote " +
                       (write->buffer == 0 ? "arena" : "persistent arena") + " bytes [" +
                       std::to_string(write->begin) + ", " + std::to_string(write->end) +
                       ") outside its outputs and temporaries, into " + victim);
}

void Interpreter::WatchArenas(SubgraphState& s) {
  s.guard = std::make_unique<WriteGuard>(std::vector<std::span<const uint8_t>>{
      {s.arena.get(), s.arena_capacity}, {s.persistent_arena.get(), s.persistent_capacity}});
}

}  // namespace tfa::runtime
