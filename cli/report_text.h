// The human-readable form of a Report: partition table, nodes left on the CPU, copy costs, arena.
#ifndef CLI_REPORT_TEXT_H_
#define CLI_REPORT_TEXT_H_

#include <string>
#include <string_view>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::cli {

// `verbose`: every node left on the CPU on its own line, instead of groups by op and reason.
std::string ReportText(const Report& report, const Model& model, bool verbose = false);

// "minimum runtime: TFLite 2.3.0 (set by FULLY_CONNECTED v9)", each line after `indent`; ops
// upstream's table does not list make the figure a lower bound and get a line of their own.
std::string RuntimeVersionText(const RuntimeVersionRequirement& requirement,
                               std::string_view indent);

}  // namespace tfa::cli

#endif  // CLI_REPORT_TEXT_H_
