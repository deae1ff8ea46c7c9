#include "cli/tflm_target_args.h"

#include "cli/command.h"
#include "libanalysis/tflm/gated_build_name.h"

namespace tfa::cli {

void TflmTargetArgs::AddTo(CLI::App* command) {
  command->add_option("--target", target_,
                      "Answer for TFLite Micro instead of TFLite: tflm (64-bit host, as upstream's "
                      "tests measure), tflm-32 (32-bit microcontroller) or tflm-cmsis-nn (32-bit, "
                      "CMSIS-NN kernels; their buffers predicted); docs/tflm.md");
  command->add_option("--abi", abi_,
                      "With --target tflm-32: how 8-byte struct members are aligned, aapcs "
                      "(Cortex-M, the default) or i386 (an x86 -m32 build); docs/tflm.md");
  command->add_option("--cpu", cpu_,
                      "With --target tflm-cmsis-nn: the Cortex-M core, which picks CMSIS-NN's code "
                      "path: cortex-m0, cortex-m0plus, cortex-m3 (plain C), cortex-m4, cortex-m7, "
                      "cortex-m33 (DSP), cortex-m55, cortex-m85 (MVE); without it, plain C");
  command->add_flag("--static-memory", static_memory_,
                    "With --target: TFLite Micro built with TF_LITE_STATIC_MEMORY, as firmware "
                    "is (smaller TfLiteTensor and TfLiteNode); docs/tflm.md");
  command->add_flag("--recording-allocator", recording_allocator_,
                    "With --target: replay the RecordingMicroAllocator TFLite Micro's own "
                    "memory_arena_threshold_test measures with (bigger allocator objects that "
                    "move the tail's padding); docs/tflm.md");
  command->add_option("--arena-budget", arena_budget_,
                      "With --target: the tensor arena the firmware has (bytes, or 256K, 1M): "
                      "says whether the model fits and by how much; exit 1 when it does not");
}

std::optional<uint64_t> TflmTargetArgs::ArenaBudgetOrThrow() const {
  if (arena_budget_.empty()) return std::nullopt;
  if (target_.empty()) throw CommandError{"--arena-budget applies to --target tflm|tflm-32"};
  const auto bad = [&] {
    return CommandError{"--arena-budget: expected bytes, or a number with K or M (256K), got \"" +
                        arena_budget_ + "\""};
  };
  size_t digits = 0;
  uint64_t value = 0;
  while (digits < arena_budget_.size() && arena_budget_[digits] >= '0' &&
         arena_budget_[digits] <= '9') {
    if (value > (uint64_t{1} << 40)) throw bad();
    value = value * 10 + static_cast<uint64_t>(arena_budget_[digits] - '0');
    ++digits;
  }
  const std::string suffix = arena_budget_.substr(digits);
  if (digits == 0) throw bad();
  if (suffix.empty()) return value;
  if (suffix == "K" || suffix == "k") return value * 1024;
  if (suffix == "M" || suffix == "m") return value * 1024 * 1024;
  throw bad();
}

std::optional<tflm::Build> TflmTargetArgs::BuildOrThrow() const {
  const bool cmsis_nn = target_ == tflm::kCmsisNnTargetName;
  if (!cpu_.empty() && !cmsis_nn) throw CommandError{"--cpu applies to --target tflm-cmsis-nn"};
  if (target_.empty()) {
    if (!abi_.empty()) throw CommandError{"--abi applies to --target tflm-32"};
    if (!arena_budget_.empty())
      throw CommandError{"--arena-budget applies to --target tflm|tflm-32"};
    if (static_memory_ || recording_allocator_) {
      throw CommandError{
          "--static-memory and --recording-allocator apply to --target tflm|tflm-32"};
    }
    return std::nullopt;
  }
  if (cmsis_nn) {
    // CMSIS-NN runs on Cortex-M: a 32-bit AAPCS build.
    if (!abi_.empty()) throw CommandError{"--abi applies to --target tflm-32"};
    tflm::Build build{tflm::Target::kMcu32, tflm::Abi::kAapcs, static_memory_};
    build.recording_allocator = recording_allocator_;
    build.cmsis_nn = tflm::CmsisNnCpu::kPlainC;
    if (cpu_.empty()) return build;
    build.cmsis_nn = tflm::CmsisNnCpuFromName(cpu_);
    if (!build.cmsis_nn) {
      throw CommandError{"--cpu: unknown core \"" + cpu_ +
                         "\" (known: cortex-m0, cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, "
                         "cortex-m33, cortex-m55, cortex-m85)"};
    }
    return build;
  }
  auto target = tflm::TargetFromName(target_);
  if (!target) {
    throw CommandError{"--target: unknown target \"" + target_ +
                       "\" (known: tflm, tflm-32, tflm-cmsis-nn)"};
  }
  tflm::Build build{*target, tflm::Abi::kAapcs, static_memory_};
  build.recording_allocator = recording_allocator_;
  if (abi_.empty()) return build;
  if (*target != tflm::Target::kMcu32) throw CommandError{"--abi applies to --target tflm-32"};
  auto abi = tflm::AbiFromName(abi_);
  if (!abi) throw CommandError{"--abi: unknown ABI \"" + abi_ + "\" (known: aapcs, i386)"};
  build.abi = *abi;
  return build;
}

tflm::TflmArena ReplayTflmOrThrow(const std::string& path, const tflm::Build& build) {
  auto arena = tflm::ReplayMicroAllocator(LoadModelOrThrow(path), build);
  if (!arena.ok()) throw CommandError{arena.status().message()};
  return std::move(arena).value();
}

Measurement TflmMeasurement(const std::string& path, const std::string& file,
                            const std::string& sha256, const std::string& target) {
  const auto parsed = tflm::GatedBuildFromName(target);
  if (!parsed) throw CommandError{"unknown TFLite Micro target \"" + target + "\""};
  const tflm::TflmArena arena = ReplayTflmOrThrow(path, *parsed);
  Measurement m{path, file, sha256, {}, {}, target};
  m.figures.arena_bytes = arena.arena_used_bytes;
  m.figures.persistent_bytes = arena.tail;
  return m;
}

}  // namespace tfa::cli
