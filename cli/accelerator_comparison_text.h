// `report --compare-accelerators` as text: one row per candidate, best first, with the op to
// support next on each, then the candidates' notes (the NPU transcription's honesty note).
#ifndef CLI_ACCELERATOR_COMPARISON_TEXT_H_
#define CLI_ACCELERATOR_COMPARISON_TEXT_H_

#include <string>

#include "cli/terminal.h"
#include "libanalysis/report/accelerator_comparison.h"

namespace tfa::cli {

std::string AcceleratorComparisonText(const std::string& model,
                                      const AcceleratorComparison& comparison, const Style& style);

}  // namespace tfa::cli

#endif  // CLI_ACCELERATOR_COMPARISON_TEXT_H_
