#include "cli/kernel_build_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.h"

namespace tfa::cli {

void KernelBuildArgs::AddTo(CLI::App* command) {
  command->add_option(
      "--platform", platform_,
      fmt::format("Where the model runs, as far as TFLite's kernels prepare differently: {} "
                  "(default x86-64; docs/kernel-temporaries.md)",
                  fmt::join(KernelBuildPlatforms(), ", ")));
  command->add_option("--num-threads", num_threads_,
                      "The interpreter's thread count (default 1; -1: left unset, upstream's "
                      "default); a build without ruy then prepares CONV_2D differently");
}

KernelBuild KernelBuildArgs::BuildOrThrow() const {
  auto build = KernelBuildFor(platform_, num_threads_);
  if (!build.ok()) throw CommandError{build.status().message(), kExitBadInput};
  return std::move(build).value();
}

}  // namespace tfa::cli
