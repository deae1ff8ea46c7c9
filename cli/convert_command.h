#ifndef CLI_CONVERT_COMMAND_H_
#define CLI_CONVERT_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze convert MODEL -o graph.json [--subgraph N]`: the model as Graph JSON, refused
// (exit 2, one line) where Graph JSON cannot carry it exactly.
void AddConvertCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_CONVERT_COMMAND_H_
