// The sentences every rendering of a report leads with, before any figure: delegates the
// interpreter refused or took back, so a reader does not take the figures for the delegate's.
// Text, Markdown and HTML print the same sentences.
#ifndef VISUALIZERS_REPORT_HEADLINES_H_
#define VISUALIZERS_REPORT_HEADLINES_H_

#include <string>
#include <vector>

#include "libanalysis/report/report.h"

namespace tfa::viz {

// One sentence per delegate kernel that failed its init (Report::delegate_failures) and per
// delegate refused for dynamic-sized tensors (SubgraphReport::refused_delegates), in that order.
std::vector<std::string> ReportHeadlines(const Report& report);

}  // namespace tfa::viz

#endif  // VISUALIZERS_REPORT_HEADLINES_H_
