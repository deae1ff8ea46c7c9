#include "cli/convert_command.h"

#include "cli/command.h"
#include "cli/number_flags.h"
#include "libanalysis/model/graph_json.h"

namespace tfa::cli {

void AddConvertCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("convert", "Write a subgraph of a model as Graph JSON");
  cmd->footer("Example:\n  tflite-analyze convert model.tflite -o model.graph.json");
  struct Args {
    std::string model;
    std::string output = "-";
    int subgraph = 0;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_option("-o,--output", args->output, "Output file (- = stdout)");
  AddUnsignedOption(
      cmd, "--subgraph", [args](uint64_t index) { args->subgraph = static_cast<int>(index); },
      "Subgraph index", INT32_MAX);
  cmd->callback([args] {
    const Model model = LoadModelOrThrow(args->model);
    if (args->subgraph < 0 || static_cast<size_t>(args->subgraph) >= model.subgraphs.size()) {
      throw CommandError{args->model + ": no subgraph " + std::to_string(args->subgraph) +
                         " (model has " + std::to_string(model.subgraphs.size()) + ")"};
    }
    WriteOutput(args->output,
                SubgraphToGraphJson(model.subgraphs[static_cast<size_t>(args->subgraph)], 1));
  });
}

}  // namespace tfa::cli
