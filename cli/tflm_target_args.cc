#include "cli/tflm_target_args.h"

#include "cli/command.h"

namespace tfa::cli {

void TflmTargetArgs::AddTo(CLI::App* command) {
  command->add_option("--target", target_,
                      "Answer for TFLite Micro instead of TFLite: tflm (64-bit host, as upstream's "
                      "tests measure) or tflm-32 (32-bit microcontroller); docs/tflm.md");
}

std::optional<tflm::Target> TflmTargetArgs::TargetOrThrow() const {
  if (target_.empty()) return std::nullopt;
  auto target = tflm::TargetFromName(target_);
  if (!target) {
    throw CommandError{"--target: unknown target \"" + target_ + "\" (known: tflm, tflm-32)"};
  }
  return target;
}

tflm::TflmArena ReplayTflmOrThrow(const std::string& path, tflm::Target target) {
  auto arena = tflm::ReplayMicroAllocator(LoadModelOrThrow(path), target);
  if (!arena.ok()) throw CommandError{arena.status().message()};
  return std::move(arena).value();
}

Measurement TflmMeasurement(const std::string& path, const std::string& file,
                            const std::string& sha256, const std::string& target) {
  const auto parsed = tflm::TargetFromName(target);
  if (!parsed) throw CommandError{"unknown TFLite Micro target \"" + target + "\""};
  const tflm::TflmArena arena = ReplayTflmOrThrow(path, *parsed);
  Measurement m{path, file, sha256, {}, {}, target};
  m.figures.arena_bytes = arena.arena_used_bytes;
  m.figures.persistent_bytes = arena.tail;
  return m;
}

}  // namespace tfa::cli
