// Turns one node of a partition into OpenCL work: kernel launches from the delegate's op program
// with their arguments set (device buffers, shapes, options), or a buffer copy for the ops that
// only reinterpret their input (RESHAPE, SQUEEZE, EXPAND_DIMS). Shapes and options are read once,
// here, at Prepare; Eval only enqueues.
//
// Float32 only, ranks up to 4: quantized tensors reach it as float twins (opencl_quantization.h),
// and QUANTIZE / DEQUANTIZE between them are quantize-and-dequantize round trips. Constant
// DEQUANTIZE nodes are not encoded: the partition kernel dequantizes them on the host at Prepare
// (their output is then a constant on the device).
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_OPS_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_OPS_H_

#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegates/opencl/opencl_program.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// One unit of device work: a launch of `kernel` over `global_size` work-items in work-groups of
// `local_size`, or (no kernel) a copy of `copy_bytes` from `copy_from` to `copy_to`. `owned` is a
// buffer only the launch uses: an index map uploaded at encoding (`uploaded_bytes`), or a scratch
// buffer (LSTM's gates).
struct ClStep {
  ClKernel kernel;
  size_t global_size = 0;  // a multiple of local_size
  size_t local_size = 0;
  cl_mem copy_from = nullptr;
  cl_mem copy_to = nullptr;
  size_t copy_bytes = 0;
  ClMem owned;
  uint64_t owned_bytes = 0;  // its size
  uint64_t uploaded_bytes = 0;
};

// The device buffers of a node's tensors, parallel to the context's inputs and outputs; nullptr
// for tensors read on the host only (int32 shapes, axes, paddings), absent inputs, and tensors
// other than float32 unless OpenClMovesAnyElementType(op). `empty` is
// a 4-byte buffer bound where a kernel takes an absent optional input (bias).
struct ClNodeBuffers {
  std::vector<cl_mem> inputs;
  std::vector<cl_mem> outputs;
  cl_mem empty = nullptr;
};

// Whether the delegate runs `op` (a builtin name or custom code). DENSIFY only from constant
// inputs, which the partition kernel folds at Prepare; EncodeNode refuses it.
bool OpenClHasKernelFor(const std::string& op);
// Every op OpenClHasKernelFor accepts, sorted.
std::vector<std::string> OpenClOpNames();

// Whether `op`'s tensors may be other than float32: ops that move elements without arithmetic
// (any 4-byte type), CAST, comparisons and SELECT (bool tensors as bytes).
bool OpenClMovesAnyElementType(const std::string& op);

// Enqueues `step` on `queue` (nothing for an empty launch or copy).
[[nodiscard]] Status EnqueueStep(cl_command_queue queue, const ClStep& step);

// Rounds the `elements` floats of `buffer` in place to what the program's storage precision keeps
// (a no-op program at F32): float data the host uploads, read as the device would store it.
[[nodiscard]] Result<ClStep> EncodeStorageRounding(cl_mem buffer, int64_t elements,
                                                   const OpenClProgram& program);

// The node's device work, in order. `context` holds the node and its tensors' shapes and
// constant data (the CPU kernel's Prepare has already checked them); `device` receives the
// buffers some ops precompute (index maps).
[[nodiscard]] Result<std::vector<ClStep>> EncodeNode(const KernelContext& context,
                                                     const ClNodeBuffers& buffers,
                                                     const OpenClProgram& program,
                                                     const OpenClDevice& device);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_OPS_H_
