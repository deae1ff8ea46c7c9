// --platform NAME and --num-threads N on the commands that plan a model: how the TFLite library
// that will run it was built, where builtin kernels' Prepare depends on it (kernel_build.h).
#ifndef CLI_KERNEL_BUILD_ARGS_H_
#define CLI_KERNEL_BUILD_ARGS_H_

#include <CLI/CLI.hpp>
#include <string>

#include "libanalysis/prepare/kernel_build.h"

namespace tfa::cli {

class KernelBuildArgs {
 public:
  void AddTo(CLI::App* command);
  // The build the flags name; throws CommandError for an unknown platform or thread count.
  KernelBuild BuildOrThrow() const;

 private:
  std::string platform_ = "x86-64";
  int32_t num_threads_ = 1;
};

}  // namespace tfa::cli

#endif  // CLI_KERNEL_BUILD_ARGS_H_
