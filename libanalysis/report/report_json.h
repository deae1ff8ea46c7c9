// The Report as JSON: the stable contract of docs/report-json.md (fields are added, never renamed).
// Written as it goes to a stream, never held as a document: a million-node report is tens of MB.
#ifndef LIBANALYSIS_REPORT_REPORT_JSON_H_
#define LIBANALYSIS_REPORT_REPORT_JSON_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/report/report.h"

namespace tfa {

// One report as shown: the subgraphs picked and members the caller adds after the report's own.
struct ReportJsonView {
  const Report* report = nullptr;
  // The subgraphs shown (by SubgraphReport::index), all when null.
  const std::vector<int32_t>* only_subgraphs = nullptr;
  // Top-level members appended in order: the key and its value as JSON text (any indentation;
  // it is re-indented to its place).
  std::vector<std::pair<std::string, std::string>> extra_members;
};

// Writes one report (indent 2): the bytes ReportToJson returns.
void WriteReportJson(const ReportJsonView& view, std::ostream& out);

// Writes {"reports": [...]} holding each view's report (indent 2).
void WriteReportsJson(const std::vector<ReportJsonView>& views, std::ostream& out);

// The report as JSON text (indent < 0: compact). Names that are not UTF-8 get U+FFFD.
std::string ReportToJson(const Report& report, int indent = 2);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_JSON_H_
