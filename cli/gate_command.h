#ifndef CLI_GATE_COMMAND_H_
#define CLI_GATE_COMMAND_H_

#include <CLI/CLI.hpp>

namespace tfa::cli {

// `tflite-analyze gate MODEL... --baseline baseline.json [thresholds] [--update-baseline]`:
// fails (exit 1) when arena, persistent arena, delegated partitions or copy bytes regressed
// against the recorded baseline (docs/ci-gating.md).
void AddGateCommand(CLI::App& app);

}  // namespace tfa::cli

#endif  // CLI_GATE_COMMAND_H_
