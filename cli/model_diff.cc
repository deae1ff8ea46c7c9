#include "cli/model_diff.h"

#include <algorithm>
#include <map>

#include "libanalysis/report/cpu_nodes.h"

namespace tfa::cli {
namespace {

std::map<std::string, int64_t> OpHistogram(const Subgraph& sg) {
  std::map<std::string, int64_t> counts;
  for (const Node& n : sg.nodes) ++counts[n.op];
  return counts;
}

std::vector<PartitionLine> PartitionLines(const SubgraphReport& s) {
  std::vector<PartitionLine> lines;
  for (const PartitionReport& p : s.partitions) {
    PartitionLine line{p.kind == PartitionReport::Kind::kDelegate ? p.delegate : "cpu",
                       p.nodes.size(), 0, 0};
    if (!p.nodes.empty()) {
      const auto [lo, hi] = std::minmax_element(p.nodes.begin(), p.nodes.end());
      line.first_node = *lo;
      line.last_node = *hi;
    }
    lines.push_back(line);
  }
  return lines;
}

// How a tensor is recognised across the two models.
std::string TensorKey(const Subgraph& sg, int32_t tensor) {
  const size_t t = static_cast<size_t>(tensor);
  if (t >= sg.tensors.size())
    return "(kernel temporary " + std::to_string(t - sg.tensors.size()) + ")";
  if (sg.tensors[t].name.empty()) return "(tensor " + std::to_string(tensor) + ")";
  return sg.tensors[t].name;
}

// Arena bytes per tensor key; a tensor placed twice counts its largest block.
std::map<std::string, uint64_t> ArenaBytesByKey(const Subgraph& sg, const ArenaReport& arena) {
  std::map<std::string, uint64_t> bytes;
  for (const ArenaAllocation& a : arena.allocs) {
    if (a.persistent || a.shares_buffer_of) continue;
    uint64_t& b = bytes[TensorKey(sg, a.tensor)];
    b = std::max(b, a.size);
  }
  return bytes;
}

// Tensors live at `peak`'s peak step whose bytes there exceed what `other` gives them.
std::vector<ArenaTensorChange> ExplainPeak(const Subgraph& peak_sg, const ArenaReport& peak,
                                           const Subgraph& other_sg, const ArenaReport& other,
                                           bool peak_is_after) {
  const std::map<std::string, uint64_t> other_bytes = ArenaBytesByKey(other_sg, other);
  std::vector<ArenaTensorChange> changes;
  for (const ArenaAllocation& a : peak.allocs) {
    if (a.persistent || a.shares_buffer_of || a.first_step > peak.peak_step ||
        a.last_step < peak.peak_step)
      continue;
    const std::string key = TensorKey(peak_sg, a.tensor);
    const auto it = other_bytes.find(key);
    const uint64_t theirs = it == other_bytes.end() ? 0 : it->second;
    if (a.size <= theirs) continue;
    changes.push_back(
        {key, a.tensor, peak_is_after ? theirs : a.size, peak_is_after ? a.size : theirs});
  }
  std::sort(changes.begin(), changes.end(), [](const auto& x, const auto& y) {
    const auto change = [](const ArenaTensorChange& c) {
      return c.after > c.before ? c.after - c.before : c.before - c.after;
    };
    return change(x) != change(y) ? change(x) > change(y) : x.name < y.name;
  });
  return changes;
}

void DiffIo(const Subgraph& old_sg, const Subgraph& new_sg, bool input,
            std::vector<IoChange>* out) {
  const std::vector<int32_t>& before = input ? old_sg.inputs : old_sg.outputs;
  const std::vector<int32_t>& after = input ? new_sg.inputs : new_sg.outputs;
  for (size_t i = 0; i < std::max(before.size(), after.size()); ++i) {
    IoChange change{input, i};
    change.in_before = i < before.size() && before[i] >= 0;
    change.in_after = i < after.size() && after[i] >= 0;
    if (change.in_before) {
      const Tensor& t = old_sg.tensors[static_cast<size_t>(before[i])];
      change.name_before = t.name;
      change.type_before = TensorTypeName(t.type);
      change.shape_before.assign(t.shape.begin(), t.shape.end());
    }
    if (change.in_after) {
      const Tensor& t = new_sg.tensors[static_cast<size_t>(after[i])];
      change.name_after = t.name;
      change.type_after = TensorTypeName(t.type);
      change.shape_after.assign(t.shape.begin(), t.shape.end());
    }
    if (change.in_before != change.in_after || change.type_before != change.type_after ||
        change.shape_before != change.shape_after) {
      out->push_back(std::move(change));
    }
  }
}

std::map<std::string, std::vector<CpuNode>> FallbacksByOp(const AnalysedModel& m,
                                                          const Subgraph& sg,
                                                          const SubgraphReport& r) {
  std::map<std::string, std::vector<CpuNode>> by_op;
  for (CpuNode& n : NodesLeftOnCpu(r, sg, m.report.delegates)) by_op[n.op].push_back(std::move(n));
  return by_op;
}

std::vector<FallbackChange> DiffFallbacks(
    const std::map<std::string, std::vector<CpuNode>>& old_f,
    const std::map<std::string, std::vector<CpuNode>>& new_f) {
  std::map<std::string, FallbackChange> changes;
  for (const auto& [op, nodes] : old_f) changes[op] = {op, nodes.size()};
  for (const auto& [op, nodes] : new_f) {
    FallbackChange& c = changes.try_emplace(op, FallbackChange{op}).first->second;
    c.after = nodes.size();
    for (const CpuNode& n : nodes) {
      c.nodes_after.push_back(n.node);
      if (std::find(c.reasons_after.begin(), c.reasons_after.end(), n.reason) ==
          c.reasons_after.end()) {
        c.reasons_after.push_back(n.reason);
      }
    }
  }
  std::vector<FallbackChange> out;
  for (auto& [op, c] : changes) {
    if (c.before != c.after) out.push_back(std::move(c));
  }
  return out;
}

std::optional<AcceleratorMove> MoveToAccelerator(const SubgraphReport& old_r,
                                                 const SubgraphReport& new_r,
                                                 const std::vector<OpCountChange>& ops) {
  if (!new_r.accelerators || old_r.accelerators) return std::nullopt;
  AcceleratorMove move;
  move.segments = new_r.accelerators->segments;
  move.cpu_nodes_after = new_r.accelerators->cpu_nodes.size();
  for (const OpCountChange& change : ops) {
    if (change.after >= change.before) continue;
    move.ops_moved.push_back(change);
    move.nodes_moved += change.before - change.after;
  }
  return move;
}

}  // namespace

ModelDiff DiffModels(const AnalysedModel& before, const AnalysedModel& after, int32_t subgraph) {
  const size_t s = static_cast<size_t>(subgraph);
  const Subgraph& old_sg = before.model->subgraphs[s];
  const Subgraph& new_sg = after.model->subgraphs[s];
  const SubgraphReport& old_r = before.report.subgraphs[s];
  const SubgraphReport& new_r = after.report.subgraphs[s];
  ModelDiff diff;
  diff.subgraph = subgraph;
  const auto old_ops = OpHistogram(old_sg);
  const auto new_ops = OpHistogram(new_sg);
  std::map<std::string, OpCountChange> ops;
  for (const auto& [op, n] : old_ops) ops[op] = {op, n, 0};
  for (const auto& [op, n] : new_ops) {
    ops.try_emplace(op, OpCountChange{op, 0, 0});
    ops[op].after = n;
  }
  for (const auto& [op, change] : ops) {
    if (change.before != change.after) diff.ops.push_back(change);
  }
  DiffIo(old_sg, new_sg, true, &diff.io);
  DiffIo(old_sg, new_sg, false, &diff.io);
  diff.fallbacks =
      DiffFallbacks(FallbacksByOp(before, old_sg, old_r), FallbacksByOp(after, new_sg, new_r));
  diff.before = FiguresOf(before.report, {subgraph});
  diff.after = FiguresOf(after.report, {subgraph});
  diff.partitions_before = PartitionLines(old_r);
  diff.partitions_after = PartitionLines(new_r);
  diff.accelerator_move = MoveToAccelerator(old_r, new_r, diff.ops);
  if (!old_r.arena || !new_r.arena) return diff;
  diff.arena_grew = new_r.arena->size >= old_r.arena->size;
  if (diff.arena_grew) {
    diff.peak_step = new_r.arena->peak_step;
    diff.arena_tensors = ExplainPeak(new_sg, *new_r.arena, old_sg, *old_r.arena, true);
  } else {
    diff.peak_step = old_r.arena->peak_step;
    diff.arena_tensors = ExplainPeak(old_sg, *old_r.arena, new_sg, *new_r.arena, false);
  }
  return diff;
}

}  // namespace tfa::cli
