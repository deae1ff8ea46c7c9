// Replays what the kernels' Prepare calls do to a subgraph's memory before the arena is planned:
// the temporaries they add (numbered after the model's tensors exactly as upstream numbers them,
// spare tensors that stay unallocated included), the tensors they move to the persistent arena
// (constant-input DEQUANTIZE / DENSIFY outputs: the large persistent arenas of fp16 models), and
// the temporaries of delegate kernels that have some (the GPU delegate's float twins).
//
// Order, as upstream's interpreter runs it:
//   1. before a delegate is applied, ModifyGraphWithDelegate prepares every node of the plan as
//      it stands (tflite/core/subgraph.cc, to detect dynamic tensors) unless the delegate allows
//      dynamic tensors (XNNPACK does): kernels add their tensors in the model's node order, and
//      keep them even when the node is then delegated (they are simply never planned);
//   2. delegation creates the delegate kernels, whose Init may add tensors (GPU);
//   3. AllocateTensors prepares the execution plan: nodes prepared in 1 reuse their tensors, the
//      others add theirs in plan order.
// What is not modelled (builtin kernels with unknown temporaries, custom ops' Prepare) is named in
// `assumptions`; the replay then assumes Prepare adds nothing and keeps the model's shapes.
// Meant for .tflite models: a Graph JSON node that already lists temporaries is taken as given.
#ifndef LIBANALYSIS_PREPARE_KERNEL_PREPARE_H_
#define LIBANALYSIS_PREPARE_KERNEL_PREPARE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/kernel_build.h"

namespace tfa {

// What a delegate's kernel does in Init/Prepare, by delegate.
enum class DelegateKernelKind : uint8_t {
  kOpaque,  // adds no tensor, no temporaries (claim-by-op delegates, upstream's samples, XNNPACK)
  kGpu,     // upstream's GPU delegate kernel (gpu_delegate_kernel.h)
};

struct PrepareOptions {
  // Step 1 above: false for a delegate registered with kTfLiteDelegateFlagsAllowDynamicTensors
  // (XNNPACK), whose nodes then never run a CPU Prepare: the fp16 DEQUANTIZE nodes it takes do not
  // make their outputs persistent and no temporaries are added for nodes it took.
  bool prepare_before_delegation = true;
  // Delegate kernels by delegate name (Node::op of a kDelegateKernel); unlisted ones are opaque.
  std::map<std::string, DelegateKernelKind> delegate_kernels;
  // Upstream's GPU option allow_quant_ops (default true): false means no float twins.
  bool gpu_allow_quant_ops = true;
  // How the whole-model replay plans each arena (the interpreter's preserve_all_tensors).
  ArenaPlannerOptions arena;
  // How TFLite was built, where builtin kernels' Prepare depends on it (kernel_build.h).
  KernelBuild build;
};

struct PreparedSubgraph {
  // The input with the added tensors appended, node temporaries set and allocation types changed.
  Subgraph subgraph;
  int32_t model_tensor_count = 0;  // tensors before Prepare added any
  // One line per node whose Prepare was not replayed exactly, e.g.
  // "estimate: TRANSPOSE_CONV #12 temporaries not modelled".
  std::vector<std::string> assumptions;
};

// `subgraph` may already be delegated (kDelegateKernel nodes appended, see delegated_plan.h);
// its pre-delegation plan is taken to be its other nodes in index order, the model's own order.
// Errors name the subgraph, the node and the reason (a node upstream's Prepare would reject).
[[nodiscard]] Result<PreparedSubgraph> ReplayKernelPrepare(const Subgraph& subgraph,
                                                           const PrepareOptions& options = {});

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_KERNEL_PREPARE_H_
