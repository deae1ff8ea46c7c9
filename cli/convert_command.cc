#include "cli/convert_command.h"

#include <optional>

#include "cli/command.h"
#include "cli/number_flags.h"
#include "libanalysis/model/graph_json.h"

namespace tfa::cli {
namespace {

// `--subgraph N`: subgraph N alone becomes the model's only (main) subgraph. Signatures name the
// source's subgraph indices and go; a subgraph that calls others cannot stand alone.
Model OneSubgraphModel(const Model& model, size_t index) {
  const Subgraph& sg = model.subgraphs[index];
  for (size_t i = 0; i < sg.nodes.size(); ++i) {
    const OpOptions& o = sg.nodes[i].options;
    for (int32_t callee : {o.then_subgraph, o.else_subgraph, o.cond_subgraph, o.body_subgraph,
                           o.init_subgraph, o.subgraph}) {
      if (callee == -1) continue;
      throw CommandError{model.path + ": subgraph " + std::to_string(index) + ": node " +
                         std::to_string(i) + " (" + sg.nodes[i].op + ") calls subgraph " +
                         std::to_string(callee) + ", which --subgraph leaves out (convert the " +
                         "whole model instead)"};
    }
  }
  Model one = model;
  one.subgraphs = {sg};
  one.signatures.clear();
  return one;
}

}  // namespace

void AddConvertCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("convert", "Write a model as Graph JSON");
  cmd->footer("Example:\n  tflite-analyze convert model.tflite -o model.graph.json");
  struct Args {
    std::string model;
    std::string output = "-";
    std::optional<size_t> subgraph;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_option("-o,--output", args->output, "Output file (- = stdout)");
  AddUnsignedOption(
      cmd, "--subgraph", [args](uint64_t index) { args->subgraph = static_cast<size_t>(index); },
      "Write only this subgraph, as the main one (default: the whole model)", INT32_MAX);
  cmd->callback([args] {
    const Model model = LoadModelOrThrow(args->model);
    if (args->subgraph && *args->subgraph >= model.subgraphs.size()) {
      throw CommandError{args->model + ": no subgraph " + std::to_string(*args->subgraph) +
                         " (model has " + std::to_string(model.subgraphs.size()) + ")"};
    }
    auto text = args->subgraph ? ModelToGraphJson(OneSubgraphModel(model, *args->subgraph), 1)
                               : ModelToGraphJson(model, 1);
    if (!text.ok()) throw CommandError{args->model + ": " + text.status().message()};
    WriteOutput(args->output, *text);
  });
}

}  // namespace tfa::cli
