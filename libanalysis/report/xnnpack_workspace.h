// The workspace XNNPACK plans for the values internal to a delegated partition: the tensors
// between the partition's nodes, which TFLite's arena leaves out (they are no boundary tensors)
// and XNNPACK holds instead.
//
// Per partition (one XNNPACK runtime, tflite/delegates/xnnpack/xnnpack_delegate.cc):
// - one XNNPACK node per partition node, in plan order; the static unpack nodes (fp16 / int8
//   DEQUANTIZE, DENSIFY of constants) define no node, their outputs are static values;
// - boundary tensors are external values (TFLite's own buffers), constants static values,
//   resource tensors their variable's external proxy value or nothing; every other tensor is
//   internal;
// - xnn_subgraph_optimize (XNNPACK src/subgraph.c) fuses a clamp (RELU, RELU6, RELU_N1_TO_1,
//   RELU_0_TO_1) into the producer of its only input when that producer takes an activation, and
//   a zero PAD of H and W into the VALID CONV_2D or DEPTHWISE_CONV_2D reading it; the value
//   between them disappears, the fused node keeps its slot;
// - xnn_plan_memory (src/runtime.c): each internal value that something reads takes its bytes
//   rounded up to XNN_EXTRA_BYTES (16), then to XNN_ALLOCATION_ALIGNMENT; an elementwise or
//   reshape node's output reuses an input's memory when both are internal, the input has one
//   reader, the two are the same size and the output has one reader
//   (optimize_tensor_allocation_for_in_place_operations); the values are laid out by
//   PlanXnnpackValues over node slots;
// - the runtime needs arena + 2 * XNN_EXTRA_BYTES (sparse kernels read past the end).
//
// Before XNNPACK#10801 (Debian's 2022 library) the planner never placed a value below the lowest
// live block it overlaps, so a chain of values that are not written in place grew the arena by one
// value per node: that workspace can exceed TFLite's arena for the same tensors several times
// over. Upstream's own process (../shared/oracle/memory) holds far less on those models
// (palm_detection_full: 18.9 MB in all, against 29.5 MB of such a workspace alone), as the
// planner with the leading gap predicts.
//
// All of a delegate instance's runtimes share one workspace (the delegate's xnn_workspace), which
// grows to the largest runtime's need: the delegate's workspace is the maximum, not the sum.
//
// Known gaps: operators' own scratch (opdata workspace_size, e.g. with transient indirection
// buffers) is not planned here; qsort's order of equal sizes is taken as stable.
#ifndef LIBANALYSIS_REPORT_XNNPACK_WORKSPACE_H_
#define LIBANALYSIS_REPORT_XNNPACK_WORKSPACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// XNN_EXTRA_BYTES (XNNPACK include/xnnpack.h): how far XNNPACK's kernels may read past a buffer.
inline constexpr uint64_t kXnnExtraBytes = 16;

// The planner's settings that changed between XNNPACK versions.
struct XnnpackPlannerRules {
  // XNN_ALLOCATION_ALIGNMENT: 16 on ARM, where phones run XNNPACK (64 on desktop x86-64).
  uint64_t allocation_alignment = 16;
  bool in_place = true;                      // outputs written over inputs (XNNPACK from 2023)
  uint64_t tail_bytes = 2 * kXnnExtraBytes;  // bytes after the arena
  bool leading_gap = true;  // the space below the lowest live block is a candidate (XNNPACK#10801)
};

// Debian 12's libxnnpack (0.0~git20220216): no in-place outputs, one XNN_EXTRA_BYTES after the
// arena, values rounded to 16 only; each runtime has a workspace of its own.
inline constexpr XnnpackPlannerRules kXnnpackDebian2022Rules{16, false, kXnnExtraBytes, false};

// Bytes [begin, end) of a workspace.
struct WorkspaceRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool operator==(const WorkspaceRange&) const = default;
};

struct XnnpackRuntimeWorkspace {
  int32_t kernel_node = -1;    // the delegate kernel node in the delegated subgraph
  size_t xnn_nodes = 0;        // node slots, fused ones included
  size_t fused_nodes = 0;      // clamps and pads fused into their neighbours
  size_t planned_values = 0;   // internal values in the workspace
  size_t in_place_values = 0;  // of them, reusing an input's memory
  uint64_t arena_bytes = 0;
  uint64_t workspace_bytes = 0;  // arena + the rules' tail bytes; 0 when nothing is planned
  // The bytes the runtime's values occupy (their own sizes, not rounded), coalesced, in offset
  // order: what an Invoke writes. The planner leaves gaps no value fills, which are never touched.
  std::vector<WorkspaceRange> written;
};

struct XnnpackWorkspace {
  std::vector<XnnpackRuntimeWorkspace> runtimes;  // in plan order
  uint64_t bytes = 0;                             // the shared workspace: the largest runtime's
};

// The workspace of the delegate kernels named `delegate` in `delegated`. Errors name the tensor
// whose size is unknown or overflows.
[[nodiscard]] Result<XnnpackWorkspace> PlanXnnpackWorkspace(const Subgraph& delegated,
                                                            const std::string& delegate,
                                                            const XnnpackPlannerRules& rules = {});

// One runtime's workspace: the partition of delegate kernel node `kernel` in `delegated`.
[[nodiscard]] Result<XnnpackRuntimeWorkspace> PlanXnnpackRuntimeWorkspace(
    const Subgraph& delegated, int32_t kernel, const XnnpackPlannerRules& rules = {});

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_XNNPACK_WORKSPACE_H_
