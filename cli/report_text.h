// The human-readable form of a Report: partition table, unsupported nodes, copy costs, arena.
#ifndef CLI_REPORT_TEXT_H_
#define CLI_REPORT_TEXT_H_

#include <string>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::cli {

// "1.2 MB", "512 B": decimal units as people read them in tables.
std::string HumanBytes(uint64_t bytes);

std::string ReportText(const Report& report, const Model& model);

}  // namespace tfa::cli

#endif  // CLI_REPORT_TEXT_H_
