// Shared pieces of the subcommands: loading a model with the CLI's error convention, and the
// exit codes every command uses (documented in docs/cli.md).
#ifndef CLI_COMMAND_H_
#define CLI_COMMAND_H_

#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
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

// A model and its report, as every analysing command starts.
struct AnalysedModel {
  Model model;
  Report report;
};

// Loads `path` and builds its report with `delegates` applied in order, or throws CommandError.
// `invoke_facts`: see ReportOptions.
AnalysedModel AnalyseOrThrow(const std::string& path, const std::vector<DelegateRequest>& delegates,
                             const InvokeFacts& invoke_facts = {});

// Throws CommandError when a request does not resolve, or names an op neither builtin nor in
// `model` (CheckClaimedOpNames): for commands that apply delegates without building a report.
void CheckDelegatesOrThrow(const Model& model, const std::vector<DelegateRequest>& delegates);

// The file's bytes, or throws CommandError naming the file.
std::string ReadFileOrThrow(const std::string& path);

// Writes `text` to `path` ("-" = stdout), or throws CommandError.
void WriteOutput(const std::string& path, const std::string& text);

}  // namespace tfa::cli

#endif  // CLI_COMMAND_H_
