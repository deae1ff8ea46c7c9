#ifndef CLI_REPORT_COMMAND_H_
#define CLI_REPORT_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze report MODEL [--delegate D]... [--json]`: partitions, copy costs, arena.
void AddReportCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_REPORT_COMMAND_H_
