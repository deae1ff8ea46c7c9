#include "cli/accelerator_comparison_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "libanalysis/core/byte_units.h"

namespace tfa::cli {
namespace {

// "PRELU (+23 nodes, -22 partitions)": the first op to support, or "-" with none that helps.
std::string SupportNextText(const AcceleratorCandidate& c) {
  if (c.support_next.empty()) return "-";
  std::string out;
  for (const SupportNext& s : c.support_next) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} (+{} nodes", s.op, s.cpu_nodes_moved);
    if (s.delegated_partitions_saved != 0) {
      out += fmt::format(", {:+} partitions", -s.delegated_partitions_saved);
    }
    out += ')';
  }
  return out;
}

}  // namespace

std::string AcceleratorComparisonText(const std::string& model,
                                      const AcceleratorComparison& comparison, const Style& style) {
  std::string out = style.Bold(fmt::format("accelerators for {}", model));
  out +=
      "\nranked by fewest CPU nodes, then fewest bytes copied per inference, then fewest "
      "delegate partitions\n";
  size_t width = 11;
  for (const AcceleratorCandidate& c : comparison.candidates) {
    width = std::max(width, c.accelerator.size());
  }
  out += style.Bold(fmt::format("{:>4}  {:<{}}  {:>9}  {:>10}  {:>15}  {:>11}  {}", "rank",
                                "accelerator", width, "cpu nodes", "partitions", "bytes/inference",
                                "transitions", "support next"));
  out += '\n';
  for (const AcceleratorCandidate& c : comparison.candidates) {
    out +=
        fmt::format("{:>4}  {:<{}}  {:>9}  {:>10}  {:>15}  {:>11}  {}\n", c.rank + 1, c.accelerator,
                    width, fmt::format("{}/{}", c.cpu_nodes, c.nodes), c.delegated_partitions,
                    HumanBytes(c.bytes_per_inference()), c.transitions, SupportNextText(c));
  }
  for (const AcceleratorCandidate& c : comparison.candidates) {
    for (const std::string& note : c.notes) {
      out += "note: ";
      out += note;
      out += '\n';
    }
  }
  return out;
}

}  // namespace tfa::cli
