// Builds the Report for a model: delegation replay per delegate in order, copy costs, and the
// arena planned on the plan after delegation and on the plain CPU plan, per subgraph.
#ifndef LIBANALYSIS_REPORT_REPORT_BUILDER_H_
#define LIBANALYSIS_REPORT_REPORT_BUILDER_H_

#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa {

struct ReportOptions {
  std::string tool_version;
};

Result<Report> BuildReport(const Model& model, const ReportOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_BUILDER_H_
