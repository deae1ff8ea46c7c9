// What TFLite Micro's MicroInterpreter::AllocateTensors does to the arena, replayed without the
// board: MicroAllocator puts what persists at the tail (the allocator's own objects, the
// TfLiteEvalTensor and NodeAndRegistration arrays, each op's builtin options and user data, the
// persistent buffers and variable tensors, the scratch buffer handles, the TfLiteTensors of the
// model's inputs and outputs), and GreedyMemoryPlanner places the non-persistent tensors and the
// kernels' scratch buffers in the head (micro_allocator.cc, micro_allocation_info.cc,
// micro_interpreter.cc). Tail allocations are replayed address by address, alignment padding
// included, from a 16-byte aligned arena end.
#ifndef LIBANALYSIS_TFLM_MICRO_ALLOCATOR_REPLAY_H_
#define LIBANALYSIS_TFLM_MICRO_ALLOCATOR_REPLAY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/offline_memory_plan.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

enum class TailItemKind : uint8_t {
  kAllocatorObject,      // the allocator's own objects (GetDefaultTailUsage)
  kResourceVariables,    // MicroResourceVariables and its array, made by the application
  kSubgraphAllocations,  // one per subgraph; the first counts as an allocator object upstream
  kEvalTensors,
  kNodeAndRegistrations,
  kBuiltinOptions,
  kOpData,            // Init's user data
  kPersistentBuffer,  // Prepare's AllocatePersistentBuffer
  kScratchBufferHandles,
  kVariable,
  kTensorPointers,    // the interpreter's input_tensors_ / output_tensors_ arrays
  kPersistentTensor,  // a TfLiteTensor of a model input or output
  kQuantization,      // its TfLiteAffineQuantization and zero-point array
};

const char* TailItemKindName(TailItemKind kind);

struct TailItem {
  TailItemKind kind = TailItemKind::kAllocatorObject;
  std::string what;        // "SingleArenaBufferAllocator", "SVDF OpData", ...
  uint64_t requested = 0;  // bytes asked for
  uint64_t used = 0;       // bytes the tail moved, alignment padding included
  int32_t subgraph = -1;
  int32_t node = -1;    // -1 when not a node's
  int32_t tensor = -1;  // -1 when not a tensor's
};

// A buffer GreedyMemoryPlanner placed in the head.
struct HeadBuffer {
  int32_t subgraph = 0;
  int32_t tensor = -1;  // a non-persistent tensor, or -1 for a scratch buffer
  int32_t node = -1;    // a scratch buffer's node
  uint64_t bytes = 0;   // requested
  uint64_t size = 0;    // planned: aligned to 16
  uint64_t offset = 0;
  int32_t first_used = -1;  // allocation scopes, as micro_allocation_info.cc counts them
  int32_t last_used = -1;
  bool offline = false;  // placed at the model's offline plan's offset, not by the planner
};

struct ResolverEntry {
  std::string op;
  std::string method;  // MicroMutableOpResolver's Add method
};

struct TflmArena {
  Target target = Target::kHost64;
  Abi abi = Abi::kAapcs;  // how `sizes` and the kernels' OpData were laid out on a 32-bit target
  bool static_memory = false;        // a TF_LITE_STATIC_MEMORY build
  bool recording_allocator = false;  // RecordingMicroAllocator's objects at the tail end
  // Set for a CMSIS-NN build (`tflm-cmsis-nn`): the core it targets. Its kernels' buffers are
  // predicted from CMSIS-NN's source, not measured.
  std::optional<CmsisNnCpu> cmsis_nn;
  StructSizes sizes;
  uint64_t head = 0;               // GetNonPersistentUsedBytes
  uint64_t tail = 0;               // GetPersistentUsedBytes less the allocator's own objects
  uint64_t allocator_objects = 0;  // MicroAllocator::GetDefaultTailUsage
  uint64_t arena_used_bytes = 0;   // MicroInterpreter::arena_used_bytes(): head + tail + objects
  // The most the arena holds at once while AllocateTensors runs (Prepare's temporaries, the
  // planner's working memory), which can exceed arena_used_bytes.
  uint64_t allocate_tensors_peak = 0;
  uint64_t recommended_arena_size = 0;  // see RecommendedArenaSize in the .cc
  std::vector<TailItem> tail_items;
  std::vector<HeadBuffer> head_buffers;
  std::vector<ResolverEntry> resolver;  // one per distinct op, in order of first use
  bool offline_plan = false;            // the model carries an OfflineMemoryAllocation plan
  // The per-type figures upstream's RecordingMicroAllocator records.
  uint64_t eval_tensor_bytes = 0;
  uint64_t node_and_registration_bytes = 0;
  uint64_t variable_bytes = 0;
  uint64_t persistent_tensor_bytes = 0;
  uint64_t persistent_quantization_bytes = 0;
  uint64_t persistent_buffer_bytes = 0;  // op data, Prepare's buffers, input/output arrays
  uint64_t op_data_requested = 0;        // requested bytes of Init's user data
  uint64_t builtin_options_bytes = 0;    // the parsers' options structs
  uint64_t tensor_count = 0;
  uint64_t node_count = 0;
  uint64_t scratch_buffer_count = 0;
};

// Replays AllocateTensors for `model` as `build` compiles TFLM. Errors name the node whose op
// TFLM has no (modelled) kernel for or whose kernel refuses it in Prepare (with TFLM's own
// error line), or a model a 32-bit target cannot address.
// A .tflite's OfflineMemoryAllocation plan is read from its file and used as TFLM uses it.
Result<TflmArena> ReplayMicroAllocator(const Model& model, const Build& build);
// The same with `plan` in place of the file's (nullptr: every buffer planned online).
Result<TflmArena> ReplayMicroAllocator(const Model& model, const Build& build,
                                       const OfflinePlan* plan);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_MICRO_ALLOCATOR_REPLAY_H_
