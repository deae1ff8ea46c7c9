#include "cli/report_markdown.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "libanalysis/core/byte_units.h"
#include "libanalysis/report/cpu_nodes.h"
#include "visualizers/report_headlines.h"

namespace tfa::cli {
namespace {

// A table cell: a '|' would end it, a newline the row.
std::string Cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else {
      out += c == '\n' ? ' ' : c;
    }
  }
  return out;
}

}  // namespace

std::string ReportMarkdown(const Report& r, const Model& model, bool verbose) {
  std::string out = fmt::format("## `{}`\n\n", r.model);
  if (!r.delegates.empty()) {
    std::vector<std::string> named;
    for (size_t i = 0; i < r.delegates.size(); ++i) {
      named.push_back(r.delegates[i] +
                      (i < r.delegate_trust.size() ? " (" + r.delegate_trust[i] + ")" : ""));
    }
    out += fmt::format("Delegates, in order: {}\n\n", fmt::join(named, ", "));
  }
  for (const std::string& headline : viz::ReportHeadlines(r)) out += "> **" + headline + "**\n\n";
  for (const SubgraphReport& s : r.subgraphs) {
    const Subgraph& sg = model.subgraphs[static_cast<size_t>(s.index)];
    out += fmt::format("### Subgraph {}\n\n| figure | value |\n|---|---:|\n", s.index);
    out += fmt::format("| nodes | {} |\n| partitions | {} |\n| delegated partitions | {} |\n",
                       s.nodes, s.partitions.size(), s.delegated_partition_count);
    out += fmt::format(
        "| bytes to delegates / inference | {} |\n| bytes from delegates / inference | {} |\n",
        s.copy.bytes_to_delegate, s.copy.bytes_from_delegate);
    if (s.accelerators) {
      out += fmt::format(
          "| of which to accelerators / inference | {} |\n| of which from accelerators / "
          "inference | {} |\n",
          s.copy.accelerator_bytes_in, s.copy.accelerator_bytes_out);
    }
    if (s.arena) {
      out += fmt::format(
          "| arena | {} ({}) |\n| persistent arena | {} |\n| arena lower bound | {} |\n",
          s.arena->size, HumanBytes(s.arena->size), s.arena->persistent_size, s.arena->lower_bound);
    }
    // What each delegate owns outside the arena, part by part, with how the figure is known.
    for (const DelegateMemory& m : s.delegate_memory) {
      for (const DelegateMemoryPart& p : m.parts) {
        out += fmt::format(
            "| {} {} ({}) | {} |\n", m.delegate, p.kind, MemoryBasisName(p.basis),
            p.basis == MemoryBasis::kUnknown ? std::string("unknown") : std::to_string(p.bytes));
      }
    }
    out +=
        "\n| # | kind | nodes | first..last | bytes in | bytes out | ops "
        "|\n|---:|---|---:|---|---:|---:|---|\n";
    for (size_t i = 0; i < s.partitions.size(); ++i) {
      const PartitionReport& p = s.partitions[i];
      const bool delegated = p.kind == PartitionReport::Kind::kDelegate;
      const auto [lo, hi] = std::minmax_element(p.nodes.begin(), p.nodes.end());
      std::map<std::string, int> ops;
      for (int32_t n : p.nodes) {
        if (n >= 0 && static_cast<size_t>(n) < sg.nodes.size())
          ++ops[sg.nodes[static_cast<size_t>(n)].op];
      }
      std::vector<std::string> op_list;
      for (const auto& [op, count] : ops) op_list.push_back(fmt::format("{}×{}", op, count));
      out += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} |\n", i, delegated ? p.delegate : "cpu",
          p.nodes.size(), p.nodes.empty() ? "" : fmt::format("{}..{}", *lo, *hi),
          delegated ? std::to_string(p.bytes_to_delegate) : "",
          delegated ? std::to_string(p.bytes_from_delegate) : "", fmt::join(op_list, ", "));
    }
    const std::vector<CpuNode> cpu_nodes = NodesLeftOnCpu(s, sg, r.delegates);
    if (!cpu_nodes.empty()) {
      out += fmt::format("\n{} node{} left on the CPU:\n\n", cpu_nodes.size(),
                         cpu_nodes.size() == 1 ? "" : "s");
      out += "| count | op | reason | nodes |\n|---:|---|---|---|\n";
      for (const CpuNodeGroup& g : GroupCpuNodes(cpu_nodes)) {
        out += fmt::format("| {} | {} | {} | {} |\n", g.nodes.size(), Cell(g.op), Cell(g.reason),
                           AbbreviatedNodeList(g.nodes, verbose ? g.nodes.size() : 3));
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace tfa::cli
