// The advisor's findings as JSON: the "advice" entries of `report --advise --format json`
// (docs/report-json.md).
#ifndef LIBANALYSIS_REPORT_ADVICE_JSON_H_
#define LIBANALYSIS_REPORT_ADVICE_JSON_H_

#include <string>

#include "libanalysis/report/advisor.h"

namespace tfa {

// One JSON object, indented by `indent` spaces (-1: on one line).
std::string AdviceToJson(const DelegationAdvice& advice, int indent = -1);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_ADVICE_JSON_H_
