// The handful of numbers that sum up one Report: what the multi-model summary table shows, what
// `gate` compares with a baseline and what `diff` puts side by side.
#ifndef LIBANALYSIS_REPORT_REPORT_FIGURES_H_
#define LIBANALYSIS_REPORT_REPORT_FIGURES_H_

#include <cstdint>
#include <vector>

#include "libanalysis/report/report.h"

namespace tfa {

struct ReportFigures {
  uint64_t nodes = 0;
  uint64_t partitions = 0;
  uint64_t delegated_partitions = 0;
  uint64_t copy_bytes = 0;           // to and from delegates, every inference
  uint64_t uploaded_once_bytes = 0;  // constants the delegates read, uploaded at init
  // TFLite gives every subgraph its own arena, so a model's memory is the sum over its subgraphs.
  uint64_t arena_bytes = 0;
  uint64_t persistent_bytes = 0;
  // What the delegates own outside the arenas (predicted); a lower bound when some delegate's
  // memory is unknown (NNAPI's driver).
  uint64_t delegate_bytes = 0;
  bool delegate_bytes_unknown = false;
};

// Totals over `subgraphs` (indices into report.subgraphs' `index`); every subgraph when empty.
ReportFigures FiguresOf(const Report& report, const std::vector<int32_t>& subgraphs = {});

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_FIGURES_H_
