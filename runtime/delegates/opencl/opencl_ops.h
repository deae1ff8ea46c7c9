// Turns one node of a partition into OpenCL work: kernel launches from the delegate's op program
// with their arguments set (device buffers, shapes, options), or a buffer copy for the ops that
// only reinterpret their input (RESHAPE, SQUEEZE, EXPAND_DIMS). Shapes and options are read once,
// here, at Prepare; Eval only enqueues.
//
// Float32 only, ranks up to 4. Constant DEQUANTIZE nodes are not encoded: the partition kernel
// dequantizes them on the host at Prepare (their output is then a constant on the device).
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

// One unit of device work: a launch of `kernel` over `global_size` work-items, or (no kernel)
// a copy of `copy_bytes` from `copy_from` to `copy_to`.
struct ClStep {
  ClKernel kernel;
  size_t global_size = 0;
  cl_mem copy_from = nullptr;
  cl_mem copy_to = nullptr;
  size_t copy_bytes = 0;
};

// The device buffers of a node's tensors, parallel to the context's inputs and outputs; nullptr
// for tensors read on the host only (int32 shapes, axes, paddings) and absent inputs. `empty` is
// a 4-byte buffer bound where a kernel takes an absent optional input (bias).
struct ClNodeBuffers {
  std::vector<cl_mem> inputs;
  std::vector<cl_mem> outputs;
  cl_mem empty = nullptr;
};

// Whether EncodeNode knows `op` (a builtin name or custom code).
bool OpenClHasKernelFor(const std::string& op);

// The node's device work, in order. `context` holds the node and its tensors' shapes and
// constant data (the CPU kernel's Prepare has already checked them).
[[nodiscard]] Result<std::vector<ClStep>> EncodeNode(const KernelContext& context,
                                                     const ClNodeBuffers& buffers,
                                                     const OpenClProgram& program);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_OPS_H_
