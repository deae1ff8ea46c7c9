#ifndef CLI_DOT_COMMAND_H_
#define CLI_DOT_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze dot MODEL [--delegate D]... -o graph.dot|.svg|.png [--collapse]`: the
// partition graph of one subgraph, drawn by the visualizers with Graphviz.
void AddDotCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_DOT_COMMAND_H_
