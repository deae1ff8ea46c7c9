// The report command's --if-condition, --while-iterations and --run-shape: the input-dependent
// facts of the first Invoke of a model with control flow
// (libanalysis/prepare/control_flow_invoke.h), which the analyser cannot know without running the
// model on real inputs.
#ifndef CLI_INVOKE_FACT_ARGS_H_
#define CLI_INVOKE_FACT_ARGS_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "libanalysis/prepare/control_flow_invoke.h"

namespace tfa::cli {

class InvokeFactArgs {
 public:
  // Declares the three repeatable flags on `command`.
  void AddTo(CLI::App* command);
  // The facts as given; throws CommandError on a malformed value, a negative count or dimension,
  // or a node or tensor given twice. Whether the model has them is BuildReport's check.
  InvokeFacts Facts() const;

 private:
  std::vector<std::string> if_conditions_;
  std::vector<std::string> while_iterations_;
  std::vector<std::string> run_shapes_;
};

// How to give `fact` on the command line, e.g. "give it with --if-condition 0:1=true|false".
std::string FlagForMissingFact(const MissingFact& fact);

}  // namespace tfa::cli

#endif  // CLI_INVOKE_FACT_ARGS_H_
