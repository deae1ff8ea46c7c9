#include "cli/report_command.h"

#include "cli/command.h"
#include "cli/delegate_args.h"
#include "cli/report_text.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"

namespace tfa::cli {

void AddReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Predict delegate partitions, copy costs and the tensor arena");
  cmd->footer(
      "Example:\n  tflite-analyze report corpus/models/face_detection__face_detection_short_range.tflite "
      "--delegate gpu --max-partitions 2");
  struct Args {
    std::string model;
    bool json = false;
    DelegateArgs delegates;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_flag("--json", args->json, "Print the report as JSON (docs/report-json.md)");
  args->delegates.AddTo(cmd);
  cmd->callback([args] {
    const Model model = LoadModelOrThrow(args->model);
    ReportOptions options;
    options.tool_version = TFA_VERSION;
    options.delegates = args->delegates.Requests();
    auto report = BuildReport(model, options);
    if (!report.ok()) throw CommandError{report.status().message()};
    WriteOutput("-", args->json ? ReportToJson(*report) : ReportText(*report, model));
  });
}

}  // namespace tfa::cli
