// Shared pieces of the subcommands: loading a model with the CLI's error convention, and the
// exit codes every command uses (documented in docs/cli.md).
#ifndef CLI_COMMAND_H_
#define CLI_COMMAND_H_

#include <memory>
#include <string>
#include <vector>

#include "cli/input_shape_args.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/kernel_build.h"
#include "libanalysis/report/report.h"
#include "libanalysis/report/report_builder.h"

namespace tfa::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitGateFailed = 1;
inline constexpr int kExitBadInput = 2;

// Thrown by commands to end with one line on stderr and an exit code; caught in main(). An empty
// message ends with the exit code alone (the command printed its verdict already).
struct CommandError {
  std::string message;
  int exit_code = kExitBadInput;
};

// Loads a .tflite or Graph JSON file, or throws CommandError with the loader's one-line message.
Model LoadModelOrThrow(const std::string& path);

// A model, its plan (libanalysis/plan/model_plan.h) and the report made from that plan, as every
// analysing command starts.
struct AnalysedModel {
  std::shared_ptr<const Model> model;  // with --input-shape's shapes; shared with `plan`
  ModelPlan plan;
  Report report;
  InputShapesApplied inputs;
};

// Loads `path`, plans it with `delegates` applied in order and builds its report, or throws
// CommandError. `invoke_facts`: see ReportOptions. `for_advice`: the plan keeps what the advisor
// needs (PlanOptions::keep_delegate_inputs). `input_shapes` resize the inputs of subgraph 0, or of
// `signature`'s subgraph (whose keys then name them), before anything is planned. `build`: how
// TFLite was built (--platform, --num-threads).
AnalysedModel AnalyseOrThrow(const std::string& path, const std::vector<DelegateRequest>& delegates,
                             const InvokeFacts& invoke_facts = {}, bool for_advice = false,
                             const std::vector<InputShapeRequest>& input_shapes = {},
                             const std::string& signature = "", const KernelBuild& build = {});

// The file's bytes, or throws CommandError naming the file.
std::string ReadFileOrThrow(const std::string& path);

// Writes `text` to `path` ("-" = stdout), or throws CommandError.
void WriteOutput(const std::string& path, const std::string& text);

}  // namespace tfa::cli

#endif  // CLI_COMMAND_H_
