#ifndef CLI_ARENA_COMMAND_H_
#define CLI_ARENA_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze arena MODEL [--delegate D]... [--planner NAME|all] [--svg arena.svg]`: the
// arena size each planner reaches on the plan after delegation and its gap to the lower bound.
void AddArenaCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_ARENA_COMMAND_H_
