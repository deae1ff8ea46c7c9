// --target tflm|tflm-32|tflm-cmsis-nn on report, arena and gate: answer for TFLite Micro's
// MicroAllocator on a 64-bit host or a 32-bit microcontroller instead of TFLite's interpreter
// (libanalysis/tflm/micro_allocator_replay.h, docs/tflm.md).
#ifndef CLI_TFLM_TARGET_ARGS_H_
#define CLI_TFLM_TARGET_ARGS_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "libanalysis/gate/baseline_gate.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::cli {

// TFLite Micro allocates the shapes the model file states: MicroInterpreter has no
// ResizeInputTensor, so `--input-shape` has no TFLM answer and is refused with --target tflm.
inline constexpr const char* kTflmInputShapeRefusal =
    "--input-shape: TFLite Micro plans the shapes in the file (MicroInterpreter has no "
    "ResizeInputTensor); convert the model at the shape you need";

class TflmTargetArgs {
 public:
  void AddTo(CLI::App* command);
  // The build --target, --abi, --cpu, --static-memory and --recording-allocator name, nullopt
  // without --target (TFLite); throws CommandError for an unknown name, --abi without --target
  // tflm-32, --cpu without --target tflm-cmsis-nn, or a build flag without --target.
  std::optional<tflm::Build> BuildOrThrow() const;
  // --arena-budget in bytes ("262144", "256K", "1M": K and M are 1024 and 1024 * 1024), nullopt
  // without it; throws CommandError for a malformed size or a budget without --target.
  std::optional<uint64_t> ArenaBudgetOrThrow() const;

 private:
  std::string target_;
  std::string abi_;
  std::string cpu_;
  bool static_memory_ = false;
  bool recording_allocator_ = false;
  std::string arena_budget_;
};

// Loads `path` and replays TFLM's allocation, or throws CommandError (exit 2) with the one-line
// reason (an op TFLM has no kernel for, a kernel that refuses the model in Prepare, a model a
// 32-bit target cannot address).
tflm::TflmArena ReplayTflmOrThrow(const std::string& path, const tflm::Build& build);

// The gate's figures for `target` (named as the baseline records it, tflm/gated_build_name.h):
// arena_bytes is arena_used_bytes, persistent_bytes the tail; TFLM has no delegated partitions or
// copies.
Measurement TflmMeasurement(const std::string& path, const std::string& file,
                            const std::string& sha256, const std::string& target);

}  // namespace tfa::cli

#endif  // CLI_TFLM_TARGET_ARGS_H_
