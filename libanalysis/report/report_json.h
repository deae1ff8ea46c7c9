// The Report as JSON: the stable contract of docs/report-json.md (fields are added, never renamed).
#ifndef LIBANALYSIS_REPORT_REPORT_JSON_H_
#define LIBANALYSIS_REPORT_REPORT_JSON_H_

#include <string>

#include "libanalysis/report/report.h"

namespace tfa {

std::string ReportToJson(const Report& report, int indent = 2);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_JSON_H_
