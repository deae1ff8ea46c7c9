// The accelerator comparison as JSON: the "accelerator_comparison" object of
// `report --compare-accelerators --format json` (docs/report-json.md).
#ifndef LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_JSON_H_
#define LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_JSON_H_

#include <string>

#include "libanalysis/report/accelerator_comparison.h"

namespace tfa {

// One JSON object, indented by `indent` spaces (-1: on one line).
std::string AcceleratorComparisonToJson(const AcceleratorComparison& comparison, int indent = -1);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_ACCELERATOR_COMPARISON_JSON_H_
