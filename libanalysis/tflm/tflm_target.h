// The machine a TFLite Micro build runs on, and the sizes of the runtime structs MicroAllocator
// places in the arena there. Sizes are derived from each struct's field list (C layout rules:
// every field at a multiple of its alignment, the struct padded to its largest alignment), for
// the non-TF_LITE_STATIC_MEMORY build upstream's memory_arena_threshold_test measures.
#ifndef LIBANALYSIS_TFLM_TFLM_TARGET_H_
#define LIBANALYSIS_TFLM_TFLM_TARGET_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tfa::tflm {

// The TFLM release whose allocator and reference kernels these rules follow.
inline constexpr std::string_view kTflmRulesVersion = "tflite-micro main of 2024-11 (3a13794)";

// MicroArenaBufferAlignment() (micro_arena_constants.h).
inline constexpr uint64_t kArenaAlignment = 16;

enum class Target : uint8_t {
  kHost64,  // `tflm`: a 64-bit host (x86-64, AArch64), where upstream's threshold test runs
  kMcu32,   // `tflm-32`: a 32-bit microcontroller (Cortex-M, RISC-V 32, Xtensa)
};

const char* TargetName(Target target);
std::optional<Target> TargetFromName(std::string_view name);

// A C struct's size and alignment.
struct Layout {
  uint64_t size = 0;
  uint64_t align = 1;
};

// Fields of a C scalar kind, sized for a target.
enum class Field : uint8_t { kPointer, kSizeT, kInt32, kInt16, kUint8, kBool, kFloat, kDouble };

// Lays the fields out in order as a C compiler does for `target` (double is 8-aligned on both:
// the Arm EABI and RISC-V psABI align it to 8).
Layout StructLayout(Target target, std::initializer_list<Field> fields);
// A struct with a nested struct member: `prefix` fields, then the member, then `suffix` fields.
Layout StructLayout(Target target, std::initializer_list<Field> prefix, Layout member,
                    std::initializer_list<Field> suffix);

uint64_t PointerSize(Target target);

// The runtime structs of tensorflow/lite/core/c/common.h and tensorflow/lite/micro.
struct StructSizes {
  Layout eval_tensor;            // TfLiteEvalTensor
  Layout node;                   // TfLiteNode (non-static-memory build)
  Layout node_and_registration;  // NodeAndRegistration: TfLiteNode + const TFLMRegistration*
  Layout tensor;                 // TfLiteTensor (non-static-memory build)
  Layout affine_quantization;    // TfLiteAffineQuantization
  Layout scratch_buffer_handle;  // ScratchBufferHandle
  Layout subgraph_allocations;   // SubgraphAllocations
  // The allocator's own objects, placed at the tail end before any model data:
  // SingleArenaBufferAllocator, GreedyMemoryPlanner, MicroAllocator, MicroBuiltinDataAllocator
  // and one SubgraphAllocations (MicroAllocator::GetDefaultTailUsage).
  uint64_t allocator_objects = 0;
};

StructSizes StructSizesFor(Target target);

// TfLiteIntArrayGetSizeInBytes: the int count then the ints.
inline uint64_t IntArrayBytes(uint64_t count) { return 4 + 4 * count; }

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_TFLM_TARGET_H_
