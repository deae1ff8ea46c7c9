// The table `report` prints after several models (or alone, with --summary): one row per model
// with its totals over every subgraph, so models can be compared at a glance. As CSV
// (--format csv) the same rows carry exact byte counts and the paths as given.
#ifndef CLI_SUMMARY_TABLE_H_
#define CLI_SUMMARY_TABLE_H_

#include <string>
#include <vector>

#include "cli/terminal.h"
#include "libanalysis/report/report_figures.h"

namespace tfa::cli {

struct SummaryRow {
  std::string model;
  ReportFigures figures;
};

std::string SummaryTableText(const std::vector<SummaryRow>& rows, const Style& style);
std::string SummaryTableMarkdown(const std::vector<SummaryRow>& rows);
std::string SummaryTableCsv(const std::vector<SummaryRow>& rows);

}  // namespace tfa::cli

#endif  // CLI_SUMMARY_TABLE_H_
