// The --delegate flags every analysing command shares. Options after a --delegate apply to it
// (DESIGN.md "Delegate selection on the command line"), so they are matched to their delegate by
// the order CLI11 parsed them in.
#ifndef CLI_DELEGATE_ARGS_H_
#define CLI_DELEGATE_ARGS_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "libanalysis/report/report_builder.h"

namespace tfa::cli {

class DelegateArgs {
 public:
  // Declares --delegate, --max-partitions, --min-nodes-per-partition, --no-greedy,
  // --delegate-option and --accelerator on `command`, each named with `prefix` after the dashes
  // (diff's second setup: --new-delegate, --new-max-partitions, ...).
  void AddTo(CLI::App* command, const std::string& prefix = "");
  // The requests in command-line order, or those --accelerator stands for (NPU, GPU, CPU);
  // throws CommandError when an option precedes any --delegate, a --delegate-option is not
  // KEY=VALUE, --accelerator is malformed or names an unknown vendor, or --accelerator and
  // --delegate are both given.
  std::vector<DelegateRequest> Requests() const;

 private:
  CLI::App* command_ = nullptr;
  CLI::Option* delegate_ = nullptr;
  CLI::Option* max_partitions_ = nullptr;
  CLI::Option* min_nodes_ = nullptr;
  CLI::Option* no_greedy_ = nullptr;
  CLI::Option* option_ = nullptr;
  CLI::Option* accelerator_ = nullptr;
};

}  // namespace tfa::cli

#endif  // CLI_DELEGATE_ARGS_H_
