#include "cli/report_command.h"

#include <fmt/format.h>

#include "cli/command.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"

namespace tfa::cli {
namespace {

std::string ReportText(const Report& r) {
  std::string out = fmt::format("{}\n", r.model);
  for (const SubgraphReport& s : r.subgraphs) {
    out += fmt::format("\nsubgraph {}: {} nodes, {} partitions ({} delegated)\n", s.index, s.nodes,
                       s.partitions.size(), s.delegated_partition_count);
    for (size_t i = 0; i < s.partitions.size(); ++i) {
      const PartitionReport& p = s.partitions[i];
      out += fmt::format("  #{:<3} {:<8} {:>5} nodes\n", i,
                         p.kind == PartitionReport::Kind::kDelegate ? p.delegate : "cpu", p.nodes.size());
    }
  }
  return out;
}

}  // namespace

void AddReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Predict delegate partitions, copy costs and the tensor arena");
  cmd->footer("Example:\n  tflite-analyze report corpus/models/face_detection__face_detection_short_range.tflite --delegate gpu");
  struct Args {
    std::string model;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_flag("--json", args->json, "Print the report as JSON (docs/report-json.md)");
  cmd->callback([args] {
    const Model model = LoadModelOrThrow(args->model);
    auto report = BuildReport(model, ReportOptions{TFA_VERSION});
    if (!report.ok()) throw CommandError{report.status().message()};
    WriteOutput("-", args->json ? ReportToJson(*report) : ReportText(*report));
  });
}

}  // namespace tfa::cli
