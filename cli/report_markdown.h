// A Report as Markdown, for pull-request comments and wikis: a figures table and a partition
// table per subgraph, and the nodes left on the CPU grouped by op and reason.
#ifndef CLI_REPORT_MARKDOWN_H_
#define CLI_REPORT_MARKDOWN_H_

#include <string>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::cli {

// `verbose`: every node of a group, not the first three.
std::string ReportMarkdown(const Report& report, const Model& model, bool verbose = false);

}  // namespace tfa::cli

#endif  // CLI_REPORT_MARKDOWN_H_
