// The TFLite Micro replay (`report --target tflm*`) and its OfflineMemoryAllocation reader and
// writer on any .tflite the loader accepts: a TflmArena or an error, never a crash, a hang or
// runaway memory. The first byte picks the build (target, ABI, static memory, CMSIS-NN core);
// the rest is the .tflite file.
#include <cstddef>
#include <cstdint>
#include <span>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "libanalysis/tflm/offline_memory_plan.h"
#include "libanalysis/tflm/tflm_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t selector = data[0];
  const std::span<const uint8_t> file(data + 1, size - 1);
  auto model = tfa::ParseTflite(file, "fuzz.tflite");
  if (!model.ok()) return 0;
  auto plan = tfa::tflm::ReadOfflinePlan(file, "fuzz.tflite");
  if (!plan.ok()) return 0;

  tfa::tflm::Build build(selector & 1 ? tfa::tflm::Target::kMcu32 : tfa::tflm::Target::kHost64,
                         selector & 2 ? tfa::tflm::Abi::kI386 : tfa::tflm::Abi::kAapcs,
                         (selector & 4) != 0);
  build.recording_allocator = (selector & 8) != 0;
  if (selector & 16) {
    build.target = tfa::tflm::Target::kMcu32;
    build.abi = tfa::tflm::Abi::kAapcs;
    build.cmsis_nn = static_cast<tfa::tflm::CmsisNnCpu>((selector >> 5) % 9);
  }
  (void)tfa::tflm::ReplayMicroAllocator(*model, build, plan->has_value() ? &**plan : nullptr);

  // What `convert --tflm-offline-plan` writes must read back as the plan it was given.
  if (plan->has_value()) {
    auto rewritten = tfa::tflm::WithOfflinePlan(file, **plan, "fuzz.tflite");
    if (rewritten.ok()) {
      auto again = tfa::tflm::ReadOfflinePlan(*rewritten, "rewritten.tflite");
      if (!again.ok() || !again->has_value() || (*again)->offsets != (*plan)->offsets)
        __builtin_trap();
    }
  }
  return 0;
}
