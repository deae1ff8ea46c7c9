#include "visualizers/report_headlines.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tfa::viz {

std::vector<std::string> ReportHeadlines(const Report& report) {
  std::vector<std::string> lines;
  for (const DelegateFailureReport& f : report.delegate_failures) {
    lines.push_back(fmt::format(
        "delegate {} refused by the interpreter: its kernel for nodes {} of subgraph {} failed "
        "its init: \"{}\"; the original execution plan was restored{}, so every figure is "
        "without {}",
        f.delegate, fmt::join(f.nodes, ","), f.subgraph, f.reason,
        f.also_removed.empty() ? std::string()
                               : fmt::format(" (removing {} too)", fmt::join(f.also_removed, ", ")),
        f.delegate));
  }
  for (const SubgraphReport& s : report.subgraphs) {
    for (const DelegateRefusalReport& refusal : s.refused_delegates) {
      lines.push_back(fmt::format(
          "delegate {} refused by the interpreter for subgraph {}: \"{}\" (ModifyGraphWithDelegate "
          "returns kTfLiteApplicationError before the delegate sees a node), so {} takes no node "
          "of subgraph {}{}",
          refusal.delegate, s.index, refusal.reason, refusal.delegate, s.index,
          report.subgraphs.size() > 1 ? " or of the subgraphs after it" : ""));
    }
  }
  return lines;
}

}  // namespace tfa::viz
