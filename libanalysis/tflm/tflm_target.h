// The machine a TFLite Micro build runs on, and the sizes of the runtime structs MicroAllocator
// places in the arena there. Sizes are derived from each struct's field list (C layout rules:
// every field at a multiple of its alignment, the struct padded to its largest alignment), with
// or without TF_LITE_STATIC_MEMORY.
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

// How a 32-bit build aligns 8-byte members (double, int64_t) inside structs. It changes the
// size of an OpData that holds one after a 4-byte member: QUANTIZE's and DEQUANTIZE's
// (QuantizationParams {int32_t zero_point; double scale} is 16 bytes under AAPCS, 12 under i386).
enum class Abi : uint8_t {
  kAapcs,  // Arm's AAPCS (Cortex-M), also the RISC-V psABI: 8-aligned
  kI386,   // the i386 System V ABI, what an x86 -m32 build follows: 4-aligned
};

const char* AbiName(Abi abi);
std::optional<Abi> AbiFromName(std::string_view name);

// `tflm-cmsis-nn`: the Cortex-M core a TFLM build with CMSIS-NN kernels (OPTIMIZED_KERNEL_DIR=
// cmsis_nn) is compiled for. It picks CMSIS-NN's code path and so its buffer sizes
// (cmsis_nn_buffer_sizes.h). kPlainC: no --cpu, CMSIS-NN's portable C code.
enum class CmsisNnCpu : uint8_t {
  kPlainC,
  kCortexM0,
  kCortexM0Plus,
  kCortexM3,
  kCortexM4,
  kCortexM7,
  kCortexM33,
  kCortexM55,
  kCortexM85,
};

const char* CmsisNnCpuName(CmsisNnCpu cpu);  // "cortex-m4", "plain-c"
std::optional<CmsisNnCpu> CmsisNnCpuFromName(std::string_view name);
// The --target name of a CMSIS-NN build.
inline constexpr std::string_view kCmsisNnTargetName = "tflm-cmsis-nn";

// The build TFLM is compiled for: the target, on a 32-bit one its ABI (a 64-bit host aligns
// 8-byte members to 8 whatever `abi` says), and whether TF_LITE_STATIC_MEMORY is defined (what
// firmware builds use: common.h's reduced TfLiteTensor and TfLiteNode).
struct Build {
  Build() = default;
  Build(Target t, Abi a = Abi::kAapcs,  // NOLINT(google-explicit-constructor): a Target is a Build
        bool static_memory_build = false)
      : target(t), abi(a), static_memory(static_memory_build) {}
  Target target = Target::kHost64;
  Abi abi = Abi::kAapcs;
  bool static_memory = false;
  // The RecordingMicroAllocator upstream's memory_arena_threshold_test measures with instead of
  // MicroInterpreter's plain MicroAllocator: its bigger objects (456 bytes on a 64-bit host, 236
  // on a 32-bit target, against 248 and 132) come first in the tail and move where the 16-byte
  // alignment of every later allocation falls. On a 32-bit target that changes the model's tail
  // by 8 bytes.
  bool recording_allocator = false;
  // Set on `tflm-cmsis-nn` (always Target::kMcu32): the kernels CMSIS-NN's port replaces
  // (tensorflow/lite/micro/kernels/cmsis_nn/) ask for their own buffers, compiled for this core.
  std::optional<CmsisNnCpu> cmsis_nn;
};

// A C struct's size and alignment.
struct Layout {
  uint64_t size = 0;
  uint64_t align = 1;
};

// Fields of a C scalar kind, sized for a build.
enum class Field : uint8_t {
  kPointer,
  kSizeT,
  kInt64,
  kInt32,
  kInt16,
  kUint8,
  kBool,
  kFloat,
  kDouble
};

// Lays the fields out in order as a C compiler does for `build` (8-byte members 8-aligned on a
// 64-bit host and under AAPCS, 4-aligned under i386).
Layout StructLayout(const Build& build, std::initializer_list<Field> fields);
// A struct with a nested struct member: `prefix` fields, then the member, then `suffix` fields.
Layout StructLayout(const Build& build, std::initializer_list<Field> prefix, Layout member,
                    std::initializer_list<Field> suffix);

uint64_t PointerSize(Target target);

// The runtime structs of tensorflow/lite/core/c/common.h and tensorflow/lite/micro.
struct StructSizes {
  Layout eval_tensor;             // TfLiteEvalTensor
  Layout node;                    // TfLiteNode
  Layout node_and_registration;   // NodeAndRegistration: TfLiteNode + const TFLMRegistration*
  Layout tensor;                  // TfLiteTensor
  Layout affine_quantization;     // TfLiteAffineQuantization
  Layout scratch_buffer_handle;   // ScratchBufferHandle
  Layout subgraph_allocations;    // SubgraphAllocations
  Layout builtin_data_allocator;  // MicroBuiltinDataAllocator: vtable, persistent allocator
  // The allocator's own objects, placed at the tail end before any model data:
  // SingleArenaBufferAllocator, GreedyMemoryPlanner, MicroAllocator, MicroBuiltinDataAllocator
  // and one SubgraphAllocations (MicroAllocator::GetDefaultTailUsage), or their recording
  // versions.
  uint64_t allocator_objects = 0;
};

StructSizes StructSizesFor(const Build& build);

// TfLiteIntArrayGetSizeInBytes: the int count then the ints.
inline uint64_t IntArrayBytes(uint64_t count) { return 4 + 4 * count; }

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_TFLM_TARGET_H_
