#ifndef CLI_REPORT_COMMAND_H_
#define CLI_REPORT_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze report MODEL... [--delegate D]... [--format F] [--html out.html] [--advise]
// [--model-explorer DIR] [--trace memory.json] [--if-condition S:N=B]... [--while-iterations
// S:N=K]... [--run-shape S:T=D,...]...`: partitions, copy costs, arena (and, given the facts, after
// one Invoke); several models are analysed in parallel and summed up in a table.
void AddReportCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_REPORT_COMMAND_H_
