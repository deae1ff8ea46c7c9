// What one builtin kernel's Prepare does to memory, as plain data: the tensors it adds with
// context->AddTensors (in the order it adds them, temporaries and spares alike), which of them it
// lists in node->temporaries, and which existing tensors it moves to another allocation type.
//
// The facts come from upstream's kernels (tflite/kernels/*.cc of google-ai-edge/LiteRT) as an
// x86-64 build without ruy runs them: CONV_2D is the generic optimized kernel (im2col, never the
// multithreaded Eigen path's HWCN weights). docs/kernel-temporaries.md lists every rule with its
// condition, sizes and upstream file. Ops that upstream gives temporaries but that are not
// modelled here come back with `modelled == false` and no effect, so the caller can say so.
#ifndef LIBANALYSIS_PREPARE_BUILTIN_KERNEL_PREPARE_H_
#define LIBANALYSIS_PREPARE_BUILTIN_KERNEL_PREPARE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/kernel_build.h"

namespace tfa {

// One tensor a kernel adds. `bytes` = 0 with kArenaRw stands for upstream's kTfLiteMemNone (a
// spare tensor nothing ever sizes or allocates); dynamic ones are sized at Eval.
struct AddedTensor {
  std::string name;
  TensorType type = TensorType::kFloat32;
  Dims shape;
  AllocationType allocation = AllocationType::kArenaRw;
  uint64_t bytes = 0;
};

struct KernelPrepareEffect {
  bool modelled = true;              // false: upstream's Prepare may add memory we do not know
  std::vector<AddedTensor> added;    // in AddTensors order
  std::vector<int32_t> temporaries;  // positions in `added`, in node->temporaries order
  // True when `added` describes the tensors the kernel's Init reserved (KernelInitTensorCount of
  // them, numbered when the node was created) instead of new ones: Prepare only sizes them.
  bool fills_init_tensors = false;
  // Existing tensors whose allocation type Prepare changes (tensor index, new type).
  std::vector<std::pair<int32_t, AllocationType>> reallocated;
  // Existing tensors Prepare retypes and resizes (an output sized from the op's options).
  struct Resized {
    int32_t tensor = -1;
    TensorType type = TensorType::kFloat32;
    std::vector<int32_t> shape;
    bool operator==(const Resized&) const = default;
  };
  std::vector<Resized> resized;
};

// How many tensors the kernel's Init adds with context->AddTensors. Init runs for every node of
// the model in node order when the interpreter is built, before any Prepare and whether or not a
// delegate later takes the node, so these tensors are numbered right after the model's own.
int32_t KernelInitTensorCount(const Node& node);

// Upstream's Prepare of `node` (a builtin or custom op of `subgraph`) given the tensors as they
// stand when it runs. Errors name the node's op and the reason (a malformed node that upstream's
// Prepare would reject, or a size that overflows). `build`: how TFLite was built, where that
// changes the kernel's Prepare (kernel_build.h).
[[nodiscard]] Result<KernelPrepareEffect> PrepareBuiltinKernel(const Subgraph& subgraph,
                                                               const Node& node,
                                                               const KernelBuild& build = {});

// Bytes of a tensor of `type` and `shape` (checked; nullopt on overflow or unsized types).
std::optional<uint64_t> ShapeBytes(TensorType type, std::span<const int32_t> shape);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_BUILTIN_KERNEL_PREPARE_H_
