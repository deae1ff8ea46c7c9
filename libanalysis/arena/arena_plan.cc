#include "libanalysis/arena/arena_plan.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "libanalysis/core/checked_math.h"

namespace tfa {

const char* ArenaKindName(ArenaKind kind) {
  switch (kind) {
    case ArenaKind::kNone:
      return "none";
    case ArenaKind::kRw:
      return "rw";
    case ArenaKind::kPersistent:
      return "persistent";
  }
  return "none";
}

// Sweeps the steps once. A block adds its rounded size at first_step and removes it after
// last_step; the largest rounding among live blocks is kept with a count per rounding value. The
// blocks are bucketed by the step of each change (removals before additions at a step) rather
// than sorted as events: a million blocks were 48 MB of events and a sort (issue 46).
ArenaLowerBound LowerBound(const std::vector<ArenaBlock>& blocks, int32_t num_steps,
                           uint64_t alignment) {
  ArenaLowerBound bound;
  if (num_steps <= 0 || blocks.empty()) return bound;
  const auto steps = static_cast<size_t>(num_steps);
  // A change after the last step changes no bound; steps are clamped to [0, num_steps].
  auto add_step = [&](const ArenaBlock& block) {
    return static_cast<size_t>(std::clamp(block.first_step, 0, num_steps));
  };
  auto remove_step = [&](const ArenaBlock& block) {
    return static_cast<size_t>(std::clamp<int64_t>(int64_t{block.last_step} + 1, 0, num_steps));
  };
  // Per step, where its blocks start in `added` and `removed` (counting sort).
  std::vector<uint32_t> added_from(steps + 2, 0);
  std::vector<uint32_t> removed_from(steps + 2, 0);
  for (const ArenaBlock& block : blocks) {
    if (block.size == 0) continue;
    ++added_from[add_step(block) + 1];
    ++removed_from[remove_step(block) + 1];
  }
  for (size_t step = 1; step < steps + 2; ++step) {
    added_from[step] += added_from[step - 1];
    removed_from[step] += removed_from[step - 1];
  }
  std::vector<uint32_t> added(added_from.back());
  std::vector<uint32_t> removed(removed_from.back());
  {
    std::vector<uint32_t> added_next(added_from.begin(), added_from.end() - 1);
    std::vector<uint32_t> removed_next(removed_from.begin(), removed_from.end() - 1);
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (blocks[b].size == 0) continue;
      added[added_next[add_step(blocks[b])]++] = static_cast<uint32_t>(b);
      removed[removed_next[remove_step(blocks[b])]++] = static_cast<uint32_t>(b);
    }
  }
  auto rounded_of = [&](uint32_t b) {
    return CheckedAlignUp(blocks[b].size, alignment).value_or(blocks[b].size);
  };
  std::vector<uint64_t> live_with_padding(alignment, 0);
  uint64_t live_rounded = 0;
  uint64_t max_padding = 0;
  for (size_t step = 0; step < steps; ++step) {
    for (uint32_t i = removed_from[step]; i < removed_from[step + 1]; ++i) {
      const uint64_t rounded = rounded_of(removed[i]);
      live_rounded -= rounded;
      --live_with_padding[rounded - blocks[removed[i]].size];
      while (max_padding > 0 && live_with_padding[max_padding] == 0) --max_padding;
    }
    for (uint32_t i = added_from[step]; i < added_from[step + 1]; ++i) {
      const uint64_t rounded = rounded_of(added[i]);
      const uint64_t padding = rounded - blocks[added[i]].size;
      live_rounded += rounded;
      ++live_with_padding[padding];
      max_padding = std::max(max_padding, padding);
    }
    const uint64_t live_bytes = live_rounded == 0 ? 0 : live_rounded - max_padding;
    if (live_bytes > bound.bytes) {
      bound.bytes = live_bytes;
      bound.peak_step = static_cast<int32_t>(step);
    }
  }
  return bound;
}

namespace {

std::string TensorOutOfRange(const Subgraph& subgraph, const std::string& where, int32_t tensor) {
  return "subgraph '" + subgraph.name + "': " + where + ": tensor " + std::to_string(tensor) +
         " is out of range (" + std::to_string(subgraph.tensors.size()) + " tensors)";
}

bool IsArenaTensor(const Tensor& tensor) {
  return tensor.allocation == AllocationType::kArenaRw ||
         tensor.allocation == AllocationType::kArenaRwPersistent;
}

}  // namespace

Status ValidateForArenaPlanning(const Subgraph& subgraph) {
  const auto num_tensors = static_cast<int64_t>(subgraph.tensors.size());
  // The first tensor of `list` outside the subgraph, if any; messages are built only then, since
  // this runs over every node of graphs of a million tensors.
  auto out_of_range = [&](std::span<const int32_t> list,
                          bool optional_allowed) -> std::optional<int32_t> {
    for (int32_t tensor : list) {
      if (optional_allowed && tensor == -1) continue;
      if (tensor < 0 || tensor >= num_tensors) return tensor;
    }
    return std::nullopt;
  };
  auto check_list = [&](std::span<const int32_t> list, const std::string& where,
                        bool optional_allowed) -> Status {
    if (const auto bad = out_of_range(list, optional_allowed)) {
      return Status::Error(TensorOutOfRange(subgraph, where, *bad));
    }
    return Status::Ok();
  };
  TFA_RETURN_IF_ERROR(check_list(subgraph.inputs, "inputs", true));
  TFA_RETURN_IF_ERROR(check_list(subgraph.outputs, "outputs", true));
  TFA_RETURN_IF_ERROR(check_list(subgraph.variables, "variables", false));
  for (size_t step = 0; step < subgraph.execution_plan.size(); ++step) {
    const int32_t node_index = subgraph.execution_plan[step];
    if (node_index < 0 || static_cast<size_t>(node_index) >= subgraph.nodes.size()) {
      return Status::Error("subgraph '" + subgraph.name + "': execution plan step " +
                           std::to_string(step) + " names node " + std::to_string(node_index) +
                           " (" + std::to_string(subgraph.nodes.size()) + " nodes)");
    }
    const Node& node = subgraph.nodes[node_index];
    if (!out_of_range(node.inputs, true) && !out_of_range(node.outputs, true) &&
        !out_of_range(node.temporaries, false)) {
      continue;
    }
    const std::string where = "node " + std::to_string(node_index) + " (" + node.op + ")";
    TFA_RETURN_IF_ERROR(check_list(node.inputs, where + " inputs", true));
    TFA_RETURN_IF_ERROR(check_list(node.outputs, where + " outputs", true));
    TFA_RETURN_IF_ERROR(check_list(node.temporaries, where + " temporaries", false));
  }
  for (size_t i = 0; i < subgraph.tensors.size(); ++i) {
    const Tensor& tensor = subgraph.tensors[i];
    if (IsArenaTensor(tensor) && !tensor.bytes) {
      return Status::Error("subgraph '" + subgraph.name + "': tensor " + std::to_string(i) + " (" +
                           tensor.name + "): byte size unknown, cannot plan the arena");
    }
  }
  return Status::Ok();
}

}  // namespace tfa
