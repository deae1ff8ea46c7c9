#include "cli/convert_command.h"

#include <fstream>
#include <optional>

#include "cli/command.h"
#include "cli/number_flags.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/offline_plan_proposal.h"

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

std::string Bytes(uint64_t bytes) { return std::to_string(bytes) + " bytes"; }

// `--tflm-offline-plan OUT`: the model with an OfflineMemoryAllocation plan from the optimal
// planner, read back and replayed so that the head printed is TFLM's with the written file.
void WriteTflmOfflinePlan(const std::string& model_path, const std::string& output,
                          const tflm::Build& build) {
  if (output == "-") throw CommandError{"--tflm-offline-plan writes a .tflite file, not stdout"};
  const Model model = LoadModelOrThrow(model_path);
  if (model.format != "tflite") {
    throw CommandError{model_path + ": --tflm-offline-plan rewrites a .tflite model"};
  }
  auto proposal = tflm::ProposeOfflinePlan(model, build);
  if (!proposal.ok()) throw CommandError{proposal.status().message()};
  auto bytes = ReadFileBytes(model_path, LoadOptions{}.max_file_bytes);
  if (!bytes.ok()) throw CommandError{bytes.status().message()};
  auto written = tflm::WithOfflinePlan(*bytes, proposal->plan, model_path);
  if (!written.ok()) throw CommandError{written.status().message()};
  {
    std::ofstream out(output, std::ios::binary);
    out.write(reinterpret_cast<const char*>(written->data()),
              static_cast<std::streamsize>(written->size()));
    if (!out) throw CommandError{output + ": cannot write the model"};
  }
  // The round trip: the file as TFLM will read it.
  auto planned = tflm::ReplayMicroAllocator(LoadModelOrThrow(output), build);
  if (!planned.ok()) throw CommandError{planned.status().message()};
  const uint64_t greedy = proposal->greedy_head;
  const uint64_t head = planned->head;
  std::string text = output + ": offline plan for " + tflm::TargetName(build.target) + ", " +
                     std::to_string(proposal->fixed_tensors) +
                     " tensors at fixed offsets (scratch buffers stay online)\n";
  text += "  TFLM greedy head:   " + Bytes(greedy) + "\n";
  text += "  with the plan:      " + Bytes(head) +
          " (optimal planner: " + Bytes(proposal->optimal_size) +
          (proposal->optimal_proven ? ", proven" : ", not proven") + ")\n";
  text += head <= greedy ? "  saves " + Bytes(greedy - head) + "\n"
                         : "  costs " + Bytes(head - greedy) + " more than TFLM's own plan\n";
  WriteOutput("-", text);
}

}  // namespace

void AddConvertCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "convert", "Write a model as Graph JSON, or with a TFLite Micro offline plan");
  cmd->footer(
      "Examples:\n  tflite-analyze convert model.tflite -o model.graph.json\n"
      "  tflite-analyze convert model.tflite --tflm-offline-plan planned.tflite --target tflm-32");
  struct Args {
    std::string model;
    std::string output = "-";
    std::optional<size_t> subgraph;
    std::string tflm_offline_plan;
    TflmTargetArgs tflm_target;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_option("-o,--output", args->output, "Output file (- = stdout)");
  AddUnsignedOption(
      cmd, "--subgraph", [args](uint64_t index) { args->subgraph = static_cast<size_t>(index); },
      "Write only this subgraph, as the main one (default: the whole model)", INT32_MAX);
  cmd->add_option(
      "--tflm-offline-plan", args->tflm_offline_plan,
      "Write the .tflite with a TFLite Micro offline memory plan (OfflineMemoryAllocation "
      "metadata) from the optimal planner, and say what it saves against TFLM's "
      "greedy head; --target picks the build (default tflm); docs/tflm.md");
  args->tflm_target.AddTo(cmd);
  cmd->callback([args] {
    const auto build = args->tflm_target.BuildOrThrow();
    if (args->tflm_target.ArenaBudgetOrThrow()) {
      throw CommandError{"--arena-budget does not apply to convert"};
    }
    if (!args->tflm_offline_plan.empty()) {
      if (args->subgraph) throw CommandError{"--tflm-offline-plan takes no --subgraph"};
      WriteTflmOfflinePlan(args->model, args->tflm_offline_plan, build.value_or(tflm::Build{}));
      return;
    }
    if (build) throw CommandError{"--target applies to convert --tflm-offline-plan"};
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
