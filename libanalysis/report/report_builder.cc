#include "libanalysis/report/report_builder.h"

namespace tfa {

Result<Report> BuildReport(const Model& model, const ReportOptions& options) {
  Report report;
  report.model = model.path;
  report.tool_version = options.tool_version;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraphs[s];
    SubgraphReport sr;
    sr.index = static_cast<int32_t>(s);
    sr.nodes = sg.nodes.size();
    PartitionReport cpu;
    cpu.nodes = sg.execution_plan;
    sr.partitions.push_back(std::move(cpu));
    report.subgraphs.push_back(std::move(sr));
  }
  return report;
}

}  // namespace tfa
