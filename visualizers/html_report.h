// The whole Report as one self-contained HTML page: inline CSS, inline SVG pictures, no scripts
// and nothing fetched from the network, so it can be attached to a CI run or a bug and opened
// anywhere. Per subgraph: the figures (copy costs, arena size against its lower bound and the
// CPU-only plan), the partition table, the nodes left on the CPU by op and reason, the partition
// graph, the arena picture and, when given, the delegation advice.
#ifndef VISUALIZERS_HTML_REPORT_H_
#define VISUALIZERS_HTML_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/advisor.h"
#include "libanalysis/report/report.h"

namespace tfa::viz {

struct HtmlReportOptions {
  // Subgraphs with more nodes than this get the collapsed partition graph (one box per partition),
  // as `dot --collapse` draws it: at a page's width a node-level drawing of 150 nodes already has
  // boxes too small to read, and one of thousands is slow to lay out. The partition table and the
  // nodes left on the CPU name every node either way.
  size_t collapse_above_nodes = 100;
  // The delegation advisor's findings (report --advise), each shown in its subgraph's section.
  struct SubgraphAdvice {
    int32_t subgraph = 0;
    DelegationAdvice advice;
  };
  std::vector<SubgraphAdvice> advice;
};

// `model` is the model the report was built from (node and tensor names, the graph to draw).
// Fails when the report names a subgraph or node the model does not have, or Graphviz fails.
Result<std::string> RenderHtmlReport(const Model& model, const Report& report,
                                     const HtmlReportOptions& options = {});

Status WriteHtmlReport(const Model& model, const Report& report, const HtmlReportOptions& options,
                       const std::string& path);

}  // namespace tfa::viz

#endif  // VISUALIZERS_HTML_REPORT_H_
