#include "cli/report_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <span>

#include "cli/invoke_fact_args.h"
#include "libanalysis/core/byte_units.h"
#include "libanalysis/report/cpu_nodes.h"
#include "libanalysis/report/plan_step_node.h"
#include "visualizers/report_headlines.h"

namespace tfa::cli {
namespace {

// "CONV_2D x21, DEPTHWISE_CONV_2D x16, ..." for the most frequent ops of a partition.
std::string OpSummary(const Subgraph& sg, std::span<const int32_t> nodes, size_t max_ops = 3) {
  std::map<std::string, int> counts;
  for (int32_t n : nodes) {
    if (n >= 0 && static_cast<size_t>(n) < sg.nodes.size())
      ++counts[sg.nodes[static_cast<size_t>(n)].op];
  }
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (size_t i = 0; i < sorted.size() && i < max_ops; ++i) {
    if (!out.empty()) out += ", ";
    out += sorted[i].second > 1 ? fmt::format("{} x{}", sorted[i].first, sorted[i].second)
                                : sorted[i].first;
  }
  if (sorted.size() > max_ops) out += fmt::format(", +{} more", sorted.size() - max_ops);
  return out;
}

std::string ArenaSection(const ArenaReport& a, const Subgraph& sg, const char* title) {
  std::string out = fmt::format("\n  {}\n", title);
  const double overhead =
      a.lower_bound == 0
          ? 0.0
          : 100.0 * (static_cast<double>(a.size) - static_cast<double>(a.lower_bound)) /
                static_cast<double>(a.lower_bound);
  out += fmt::format("    arena size        {:>12}  ({})\n", a.size, HumanBytes(a.size));
  out += fmt::format("    persistent arena  {:>12}  ({})\n", a.persistent_size,
                     HumanBytes(a.persistent_size));
  out += fmt::format(
      "    lower bound       {:>12}  ({}), allocator overhead {:.1f}%, efficiency {:.1f}%\n",
      a.lower_bound, HumanBytes(a.lower_bound), overhead,
      a.size == 0 ? 100.0
                  : 100.0 * static_cast<double>(a.lower_bound) / static_cast<double>(a.size));
  for (const std::string& s : a.assumptions) out += fmt::format("    assumption: {}\n", s);
  if (!a.planned) out += "    not planned by AllocateTensors\n";
  if (a.planned && a.high_water_mark != a.size) {
    out += fmt::format("    last plan needs   {:>12}  (the arena keeps an earlier, larger plan)\n",
                       a.high_water_mark);
  }
  if (a.planning_stops_at_node) {
    out += fmt::format(
        "    planning stops at step {}: dynamic outputs, the rest is planned at Invoke\n",
        *a.planning_stops_at_node);
  }
  for (const std::string& s : a.notes) out += fmt::format("    note: {}\n", s);
  if (a.allocs.empty()) return out;
  out += fmt::format("    peak at step {}{}; largest tensors live there:\n", a.peak_step,
                     a.peak_at.op.empty() ? "" : ", " + PlanStepNodeText(a.peak_at));
  std::vector<const ArenaAllocation*> live;
  for (const ArenaAllocation& al : a.allocs) {
    if (!al.persistent && !al.shares_buffer_of && al.first_step <= a.peak_step &&
        a.peak_step <= al.last_step) {
      live.push_back(&al);
    }
  }
  std::sort(live.begin(), live.end(),
            [](const auto* x, const auto* y) { return x->size > y->size; });
  for (size_t i = 0; i < live.size() && i < 5; ++i) {
    const ArenaAllocation& al = *live[i];
    std::string name = "(kernel temporary)";
    if (al.temporary_of) {
      name = "(temporary of " + PlanStepNodeText(*al.temporary_of) + ")";
    } else if (static_cast<size_t>(al.tensor) < sg.tensors.size()) {
      name = sg.tensors[static_cast<size_t>(al.tensor)].name;
    }
    out += fmt::format("      tensor {:>5} {:>10}  steps {}..{}  {}\n", al.tensor,
                       HumanBytes(al.size), al.first_step, al.last_step, name);
  }
  return out;
}

// The nodes the final plan runs on the CPU, grouped by op and reason; each node with `verbose`.
std::string CpuNodesSection(const SubgraphReport& s, const Subgraph& sg,
                            const std::vector<std::string>& delegates, bool verbose) {
  const std::vector<CpuNode> nodes = NodesLeftOnCpu(s, sg, delegates);
  if (nodes.empty()) return "";
  std::string out =
      fmt::format("\n  {} node{} left on the CPU{}:\n", nodes.size(), nodes.size() == 1 ? "" : "s",
                  verbose ? "" : ", by op and reason (--verbose lists every node)");
  if (verbose) {
    for (const CpuNode& n : nodes) out += fmt::format("    {} #{}: {}\n", n.op, n.node, n.reason);
    return out;
  }
  for (const CpuNodeGroup& g : GroupCpuNodes(nodes)) {
    out += fmt::format("    {:>4} x {}: {}  ({})\n", g.nodes.size(), g.op, g.reason,
                       AbbreviatedNodeList(g.nodes, 3));
  }
  return out;
}

// One line: what the subgraph holds once the first Invoke is over.
std::string AfterInvokeLine(const AfterInvokeReport& r) {
  const char* state = r.released ? "ran, then released" : r.invoked ? "ran" : "did not run";
  if (!r.arena.planned) return fmt::format("  after one Invoke: {}, not planned\n", state);
  return fmt::format(
      "  after one Invoke: {}; arena {} (last plan {}), persistent {} (last plan {})\n", state,
      HumanBytes(r.arena.size), HumanBytes(r.arena.high_water_mark),
      HumanBytes(r.arena.persistent_size), HumanBytes(r.persistent_high_water_mark));
}

std::string OpVersionsText(const std::vector<OpVersionRequirement>& ops) {
  std::vector<std::string> names;
  for (const OpVersionRequirement& op : ops)
    names.push_back(fmt::format("{} v{}", op.op, op.version));
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::string RuntimeVersionText(const RuntimeVersionRequirement& r, std::string_view indent) {
  std::string out;
  if (!r.minimum.empty()) {
    out += fmt::format("{}minimum runtime: TFLite {}{} (set by {})\n", indent,
                       r.unknown.empty() ? "" : ">= ", r.minimum, OpVersionsText(r.setting_ops));
  }
  if (!r.unknown.empty()) {
    out +=
        fmt::format("{}runtime version unknown for: {} (not in upstream's runtime_version table)\n",
                    indent, OpVersionsText(r.unknown));
  }
  return out;
}

namespace {

// " (signature prefill)" for a subgraph some signature runs; empty otherwise.
std::string SignaturesOf(const Report& r, int32_t subgraph) {
  std::string keys;
  for (const SignatureReport& s : r.signatures) {
    if (s.subgraph == subgraph) keys += (keys.empty() ? "" : ", ") + s.key;
  }
  return keys.empty() ? "" : " (signature " + keys + ")";
}

std::string TensorsByKey(const std::vector<std::pair<std::string, int32_t>>& tensors) {
  std::string out;
  for (const auto& [key, tensor] : tensors) {
    out += fmt::format("{}{} (tensor {})", out.empty() ? "" : ", ", key, tensor);
  }
  return out.empty() ? "none" : out;
}

// One line per delegate with memory outside the arena: its total, then each part and how its
// figure is known (exact, predicted, unknown).
std::string DelegateMemoryLines(const SubgraphReport& s) {
  std::string out;
  for (const DelegateMemory& m : s.delegate_memory) {
    std::string parts;
    for (const DelegateMemoryPart& p : m.parts) {
      const std::string bytes =
          p.basis == MemoryBasis::kUnknown ? std::string("unknown") : HumanBytes(p.bytes);
      parts += fmt::format("{}{} {} ({})", parts.empty() ? "" : ", ", p.kind, bytes,
                           MemoryBasisName(p.basis));
    }
    const std::string total =
        m.has_unknown() ? m.total_bytes == 0 ? std::string("unknown memory")
                                             : fmt::format("at least {}", HumanBytes(m.total_bytes))
                        : HumanBytes(m.total_bytes);
    out += fmt::format("  {} needs {} outside the arena: {}\n", m.delegate, total, parts);
  }
  return out;
}

// The accelerator custom ops (Edge TPU), the CPU remainder, and what is unknown about the chip.
std::string AcceleratorLines(const AcceleratorReport& a, const Subgraph& sg) {
  std::string out = "\n";
  for (const AcceleratorSegment& segment : a.segments) {
    out += fmt::format(
        "  accelerator {}: node {} {}, program {} (its custom options); per inference {} in, {} "
        "out\n",
        segment.accelerator, segment.node, segment.op, HumanBytes(segment.program_bytes),
        HumanBytes(segment.bytes_in), HumanBytes(segment.bytes_out));
  }
  out += fmt::format(
      "  CPU remainder: {} node{}{}; the arena below holds the accelerator ops' outputs as any "
      "custom op's\n",
      a.cpu_nodes.size(), a.cpu_nodes.size() == 1 ? "" : "s",
      a.cpu_nodes.empty() ? "" : " (" + OpSummary(sg, a.cpu_nodes) + ")");
  for (const std::string& unknown : a.unknowns) out += fmt::format("  unknown: {}\n", unknown);
  return out;
}

// One line per signature: its subgraph, then its inputs and outputs by key.
std::string SignatureLines(const Report& r) {
  std::string out;
  for (const SignatureReport& s : r.signatures) {
    out += fmt::format("signature {}: subgraph {}; inputs {}; outputs {}\n", s.key, s.subgraph,
                       TensorsByKey(s.inputs), TensorsByKey(s.outputs));
  }
  return out;
}

}  // namespace

std::string ReportText(const Report& r, const Model& model, bool verbose) {
  std::string out = r.model;
  if (!r.delegates.empty()) {
    out += "  (delegates:";
    for (size_t i = 0; i < r.delegates.size(); ++i) {
      out += " " + r.delegates[i];
      if (i < r.delegate_trust.size()) out += " [" + r.delegate_trust[i] + "]";
    }
    out += ")";
  }
  out += "\n";
  for (const std::string& note : r.delegation_notes) out += fmt::format("note: {}\n", note);
  for (const std::string& headline : viz::ReportHeadlines(r)) out += headline + "\n";
  if (r.allocate_tensors_failure) {
    out += fmt::format("upstream: {}; the figures below assume those ops resolved\n",
                       *r.allocate_tensors_failure);
  }
  if (r.invoke && r.invoke->undetermined) {
    out += fmt::format("after one Invoke: not determined, the run needs {}; {}\n",
                       r.invoke->undetermined->description,
                       FlagForMissingFact(*r.invoke->undetermined));
  }
  if (r.invoke) {
    for (const std::string& f : r.invoke->facts_used) out += fmt::format("invoke fact: {}\n", f);
  }
  out += SignatureLines(r);
  if (r.interpreter && (r.interpreter->subgraphs_planned > 1 || !r.signatures.empty())) {
    out += fmt::format(
        "the interpreter holds {} of arenas over {} planned subgraph{} ({} arena + {} "
        "persistent)\n",
        HumanBytes(r.interpreter->arena_bytes + r.interpreter->persistent_bytes),
        r.interpreter->subgraphs_planned, r.interpreter->subgraphs_planned == 1 ? "" : "s",
        HumanBytes(r.interpreter->arena_bytes), HumanBytes(r.interpreter->persistent_bytes));
  }
  for (const SubgraphReport& s : r.subgraphs) {
    const Subgraph& sg = model.subgraphs[static_cast<size_t>(s.index)];
    out += fmt::format("\nsubgraph {}{}: {} nodes, {} partition{}, {} delegated\n", s.index,
                       SignaturesOf(r, s.index), s.nodes, s.partitions.size(),
                       s.partitions.size() == 1 ? "" : "s", s.delegated_partition_count);
    // The kind column is as wide as its longest delegate name (ops=A,B,C can be long).
    size_t kind_width = 10;
    for (const PartitionReport& p : s.partitions)
      kind_width = std::max(kind_width, p.delegate.size());
    out += fmt::format("  {:>3}  {:<{}} {:>6}  {:>11}  {:>10}  {:>10}  {}\n", "#", "kind",
                       kind_width, "nodes", "first..last", "bytes in", "bytes out", "ops");
    for (size_t i = 0; i < s.partitions.size(); ++i) {
      const PartitionReport& p = s.partitions[i];
      const bool delegated = p.kind == PartitionReport::Kind::kDelegate;
      const auto [lo, hi] = std::minmax_element(p.nodes.begin(), p.nodes.end());
      out += fmt::format(
          "  {:>3}  {:<{}} {:>6}  {:>11}  {:>10}  {:>10}  {}\n", i, delegated ? p.delegate : "cpu",
          kind_width, p.nodes.size(), p.nodes.empty() ? "" : fmt::format("{}..{}", *lo, *hi),
          delegated ? HumanBytes(p.bytes_to_delegate) : "",
          delegated ? HumanBytes(p.bytes_from_delegate) : "", OpSummary(sg, p.nodes));
    }
    out += CpuNodesSection(s, sg, r.delegates, verbose);
    if (!r.delegates.empty() || s.accelerators) {
      out += fmt::format(
          "\n  copies per inference: {} to {}, {} back, {} transitions; {} uploaded once{}\n",
          HumanBytes(s.copy.bytes_to_delegate),
          s.accelerators ? "delegates and accelerators" : "delegates",
          HumanBytes(s.copy.bytes_from_delegate), s.copy.transitions,
          HumanBytes(s.copy.init_upload_bytes),
          s.accelerators ? fmt::format(" (accelerators: {} in, {} out)",
                                       HumanBytes(s.copy.accelerator_bytes_in),
                                       HumanBytes(s.copy.accelerator_bytes_out))
                         : "");
    }
    out += DelegateMemoryLines(s);
    if (s.accelerators) out += AcceleratorLines(*s.accelerators, sg);
    if (s.arena)
      out += ArenaSection(*s.arena, sg, r.delegates.empty() ? "arena" : "arena after delegation");
    if (s.arena_cpu_only && !r.delegates.empty()) {
      out += fmt::format("  arena on the CPU-only plan: {} ({}), persistent {}\n",
                         s.arena_cpu_only->size, HumanBytes(s.arena_cpu_only->size),
                         HumanBytes(s.arena_cpu_only->persistent_size));
    }
    if (s.after_invoke) out += AfterInvokeLine(*s.after_invoke);
  }
  if (r.interpreter) {
    const InterpreterTotals& t = *r.interpreter;
    std::string terms;
    for (const ResidentTerm& term : t.resident_terms) {
      if (term.bytes == 0 && term.basis != MemoryBasis::kUnknown) continue;
      terms += fmt::format("{}{} {} ({})", terms.empty() ? "" : " + ", term.term,
                           term.basis == MemoryBasis::kUnknown ? "?" : HumanBytes(term.bytes),
                           MemoryBasisName(term.basis));
    }
    out += fmt::format("\nresident estimate {}{}: {}\n", t.resident_unknown ? "at least " : "",
                       HumanBytes(t.resident_bytes), terms);
  }
  out += RuntimeVersionText(r.runtime_version, "");
  return out;
}

}  // namespace tfa::cli
