// The interface between the interpreter and an op's kernel.
//
// A kernel is a pair of functions. Prepare runs once after the arena is placed: it checks the
// node's tensors (types, shapes: the output shape it would compute must equal the planned one,
// since the arena was sized from it) and says how many scratch bytes Eval needs. Eval computes
// the outputs from the inputs. Kernels keep no state between calls: everything they need is
// recomputed from the node, which is cheap next to the arithmetic.
//
// Scratch is not a TFLite concept: upstream kernels add temporaries that the arena plans, and the
// interpreter plans them too (libanalysis/prepare replays them), so the arena is upstream's. Our
// kernels' working memory has other layouts (a chunked im2col, transposed weights), so it comes
// from one scratch area the interpreter sizes to the largest request and reports on its own.
#ifndef RUNTIME_KERNEL_H_
#define RUNTIME_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/model_data.h"

namespace tfa::runtime {

class KernelThreadPool;

// A tensor as kernels see it: its type, shape and where its bytes are.
struct RuntimeTensor {
  TensorType type = TensorType::kFloat32;
  std::vector<int32_t> shape;
  uint8_t* data = nullptr;
  uint64_t bytes = 0;
  const Quantization* quantization = nullptr;
  const Sparsity* sparsity = nullptr;  // sparse constants only
  bool is_constant = false;

  int Rank() const { return static_cast<int>(shape.size()); }
  int32_t Dim(int i) const { return shape[static_cast<size_t>(i)]; }
  int64_t NumElements() const {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    return n;
  }
  template <typename T>
  T* Data() const {
    return reinterpret_cast<T*>(data);
  }
};

struct KernelContext {
  const Node* node = nullptr;
  const NodeData* node_data = nullptr;
  std::vector<RuntimeTensor*> inputs;  // nullptr for an absent optional input (-1)
  std::vector<RuntimeTensor*> outputs;
  // The temporaries the plan gave the node (upstream's kernel adds them in Prepare and the arena
  // planned them): a kernel whose upstream twin works in them works in them too, so the arena
  // measured is the one planned. nullptr where a temporary has no buffer (spare, dynamic).
  std::vector<RuntimeTensor*> temporaries;
  // The node's intermediate tensors (the integer LSTMs read their quantization), nullptr for -1.
  std::vector<RuntimeTensor*> intermediates;
  uint64_t scratch_bytes = 0;  // set by Prepare
  uint8_t* scratch = nullptr;  // at least scratch_bytes, 64-byte aligned, during Eval
  // The threads Eval may split its work over (kernels/cpu/kernel_thread_pool.h), set before
  // Prepare (scratch may grow with them); null runs on the calling thread alone.
  const KernelThreadPool* thread_pool = nullptr;

  const OpOptions& options() const { return node->options; }
  RuntimeTensor& input(size_t i) const { return *inputs[i]; }
  RuntimeTensor& output(size_t i) const { return *outputs[i]; }
  bool has_input(size_t i) const { return i < inputs.size() && inputs[i] != nullptr; }
  // Temporary `i` when the plan gave it a buffer of at least `bytes`, else nullptr.
  RuntimeTensor* temporary(size_t i, uint64_t bytes) const {
    if (i >= temporaries.size() || temporaries[i] == nullptr) return nullptr;
    RuntimeTensor* t = temporaries[i];
    return t->data != nullptr && t->bytes >= bytes ? t : nullptr;
  }
};

using KernelFunction = Status (*)(KernelContext& context);

struct KernelRegistration {
  KernelFunction prepare = nullptr;
  KernelFunction eval = nullptr;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNEL_H_
