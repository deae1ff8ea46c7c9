#include "libanalysis/report/report_figures.h"

#include <algorithm>

namespace tfa {

ReportFigures FiguresOf(const Report& report, const std::vector<int32_t>& subgraphs) {
  ReportFigures f;
  for (const SubgraphReport& s : report.subgraphs) {
    if (!subgraphs.empty() &&
        std::find(subgraphs.begin(), subgraphs.end(), s.index) == subgraphs.end()) {
      continue;
    }
    f.nodes += s.nodes;
    f.partitions += s.partitions.size();
    f.delegated_partitions += static_cast<uint64_t>(s.delegated_partition_count);
    f.copy_bytes += s.copy.bytes_to_delegate + s.copy.bytes_from_delegate;
    f.uploaded_once_bytes += s.copy.init_upload_bytes;
    for (const DelegateMemory& m : s.delegate_memory) {
      f.delegate_bytes += m.total_bytes;
      f.delegate_bytes_unknown |= m.has_unknown();
    }
    if (s.arena) {
      f.arena_bytes += s.arena->size;
      f.persistent_bytes += s.arena->persistent_size;
    }
  }
  return f;
}

}  // namespace tfa
