#ifndef CLI_DIFF_COMMAND_H_
#define CLI_DIFF_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze diff OLD NEW [--delegate D]...`: ops added or removed, partitions before and
// after, arena / persistent / copy-byte deltas, and the tensors behind an arena change.
void AddDiffCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_DIFF_COMMAND_H_
