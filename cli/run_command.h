#ifndef CLI_RUN_COMMAND_H_
#define CLI_RUN_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze run MODEL [--delegate D]... [--validate] [--input-seed S]`: runs the model on the
// project's runtime with the analysed plan and, with --validate, compares the measured arena,
// partitions and copied bytes with the prediction and the outputs with a CPU-only run.
void AddRunCommand(CLI::App& app);

// `tflite-analyze devices`: the OpenCL platforms and devices the runtime can use.
void AddDevicesCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_RUN_COMMAND_H_
