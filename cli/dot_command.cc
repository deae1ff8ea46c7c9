#include "cli/dot_command.h"

#include "cli/command.h"
#include "cli/delegate_args.h"
#include "cli/number_flags.h"
#include "visualizers/partition_graph.h"

namespace tfa::cli {
namespace {

struct DotArgs {
  std::string model;
  std::string output = "-";
  bool collapse = false;
  int subgraph = 0;
  DelegateArgs delegates;
};

void RunDot(const DotArgs& args) {
  const AnalysedModel analysed = AnalyseOrThrow(args.model, args.delegates.Requests());
  if (args.subgraph < 0 || static_cast<size_t>(args.subgraph) >= analysed.model->subgraphs.size()) {
    throw CommandError{args.model + ": no subgraph " + std::to_string(args.subgraph) +
                       " (model has " + std::to_string(analysed.model->subgraphs.size()) + ")"};
  }
  const Subgraph& subgraph = analysed.model->subgraphs[static_cast<size_t>(args.subgraph)];
  const SubgraphReport& report = analysed.report.subgraphs[static_cast<size_t>(args.subgraph)];
  viz::PartitionGraphOptions options;
  options.collapse = args.collapse;
  if (args.output == "-") {
    auto dot = viz::RenderPartitionGraph(subgraph, report, viz::GraphFormat::kDot, options);
    if (!dot.ok()) throw CommandError{args.model + ": " + dot.status().message()};
    return WriteOutput("-", *dot);
  }
  if (auto format = viz::GraphFormatFromPath(args.output); !format.ok()) {
    throw CommandError{format.status().message()};
  }
  const Status written = viz::WritePartitionGraph(subgraph, report, options, args.output);
  if (!written.ok()) throw CommandError{args.model + ": " + written.message()};
}

}  // namespace

void AddDotCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "dot", "Draw the partition graph (DOT, SVG or PNG by the output's extension)");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze dot corpus/models/hands__palm_detection_lite.tflite --delegate gpu -o "
      "palm.svg\n"
      "  tflite-analyze dot big_model.tflite --delegate gpu --collapse -o big.png");
  auto args = std::make_shared<DotArgs>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_option("-o,--output", args->output,
                  "Output file: .dot/.gv, .svg or .png (- = DOT on stdout)");
  cmd->add_flag("--collapse", args->collapse, "One box per partition instead of one per node");
  // One picture, one subgraph: the output's extension is its format, so no --format here.
  AddUnsignedOption(
      cmd, "--subgraph", [args](uint64_t index) { args->subgraph = static_cast<int>(index); },
      "Subgraph index (default 0)", INT32_MAX);
  args->delegates.AddTo(cmd);
  cmd->callback([args] { RunDot(*args); });
}

}  // namespace tfa::cli
