// The OpenCL delegate's kernel for one partition.
//
// Prepare: every float32 tensor the partition touches gets a device buffer; constant weights are
// uploaded once; constant DEQUANTIZE nodes (fp16 weights) are computed on the host with the CPU
// kernel and their float32 result uploaded once, as the GPU delegate folds them at Prepare; every
// other node is checked by its CPU kernel's Prepare (shapes, types) and encoded as device work
// (opencl_ops.h). Eval: boundary inputs are written to the device, the work is enqueued in node
// order on one in-order queue, boundary outputs are read back. Nothing else crosses: tensors
// internal to the partition live on the device only.
//
// The kernel counts the bytes it really moves, per direction, so tests can hold them against the
// interpreter's count and the analyser's prediction.
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "runtime/delegate.h"
#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/delegates/opencl/opencl_program.h"

namespace tfa::runtime {

struct DeviceTransfers {
  uint64_t bytes_to_device = 0;    // host -> device, last Eval
  uint64_t bytes_from_device = 0;  // device -> host, last Eval
  uint64_t init_upload_bytes = 0;  // at Prepare: weights, dequantized constants
  int32_t evals = 0;
};

class OpenClPartitionKernel : public DelegateKernel {
 public:
  // `device` and `programs` belong to the delegate and outlive its kernels; `transfers` is where
  // the kernel counts, shared with the delegate so that the counts outlive the kernel.
  OpenClPartitionKernel(const DelegatePartition& partition, const OpenClDevice& device,
                        OpenClProgramCache& programs, std::shared_ptr<DeviceTransfers> transfers)
      : partition_(partition),
        device_(device),
        programs_(programs),
        transfers_(std::move(transfers)) {}

  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

 private:
  // Runs a constant DEQUANTIZE on the host and uploads its output.
  Status FoldConstantDequantize(int32_t node);
  Status Upload(cl_mem buffer, const void* data, size_t bytes, bool blocking);

  DelegatePartition partition_;
  const OpenClDevice& device_;
  OpenClProgramCache& programs_;
  std::map<int32_t, RuntimeTensor> tensors_;  // node-based: addresses stay valid for contexts
  std::map<int32_t, ClMem> buffers_;          // float32 tensors on the device
  ClMem empty_;
  std::vector<ClStep> steps_;
  std::shared_ptr<DeviceTransfers> transfers_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_
