// A Report as Markdown, for pull-request comments and wikis: a figures table and a partition
// table per subgraph.
#ifndef CLI_REPORT_MARKDOWN_H_
#define CLI_REPORT_MARKDOWN_H_

#include <string>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::cli {

std::string ReportMarkdown(const Report& report, const Model& model);

}  // namespace tfa::cli

#endif  // CLI_REPORT_MARKDOWN_H_
