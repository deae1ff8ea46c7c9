#ifndef CLI_INFO_COMMAND_H_
#define CLI_INFO_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze info MODEL [--json]`: subgraphs, counts, op histogram, inputs/outputs.
void AddInfoCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_INFO_COMMAND_H_
