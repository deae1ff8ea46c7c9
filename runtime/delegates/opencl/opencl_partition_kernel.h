// The OpenCL delegate's kernel for one partition.
//
// Prepare: nodes whose inputs are all constants (DEQUANTIZE of fp16 weights, DENSIFY of sparse
// weights) are computed on the host with their CPU kernels, as the GPU delegate folds them when
// it builds its model; fp16 constants that nodes read directly (the FP16 helper's rewiring) are
// converted to float32, quantized ones dequantized; non-constant int8/uint8 tensors become float
// twins (opencl_quantization.h). Every non-constant tensor the device nodes touch and every
// float32 constant they read gets a device buffer; constants are uploaded once. Every other node
// is checked by its CPU kernel's Prepare (shapes, types) and encoded as device work
// (opencl_ops.h).
// Device memory is laid out as upstream's OpenCL inference context lays it out
// (libanalysis/report/gpu_device_memory.h): the runtime tensors are sub-buffers of one shared
// parent buffer, placed by upstream's memory sharing with the device's base address alignment;
// each boundary tensor has a staging buffer (upstream's TwoStepTensorTie), through which it
// crosses; each uploaded constant has a buffer of its own. The kernel counts the bytes it
// creates, so `run --validate` holds them against the analyser's prediction.
// Upstream builds all of this once, in the delegate kernel's Init, and its Prepare only asks for
// temporaries (tflite/delegates/gpu/delegate.cc): a Prepare that finds the partition's tensors
// with the shapes it built for (a WHILE body prepared again on every iteration) keeps what it
// built; one after a resize builds again in place of the old, its device memory counted once.
// Eval: boundary inputs are written to the device (quantized ones dequantized on the host first,
// into the node's float temporaries, as upstream does), the work is enqueued in node order on one
// in-order queue, boundary outputs are read back (and quantized). Nothing else crosses: tensors
// internal to the partition live on the device only.
//
// The kernel counts the bytes it really moves, per direction, so tests can hold them against the
// interpreter's count and the analyser's prediction: the same for float tensors, four times the
// TFLite tensor's bytes for a quantized one (its float twin moves).
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/delegate.h"
#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/delegates/opencl/opencl_program.h"

namespace tfa::runtime {

struct DeviceTransfers {
  uint64_t bytes_to_device = 0;    // host -> device, last Eval
  uint64_t bytes_from_device = 0;  // device -> host, last Eval
  uint64_t init_upload_bytes = 0;  // at Prepare: weights, dequantized constants
  // Device memory created at Prepare (clCreateBuffer), by what it holds.
  uint64_t shared_tensor_bytes = 0;  // the parent buffer of the runtime tensors
  uint64_t staging_bytes = 0;        // boundary staging buffers
  uint64_t constant_bytes = 0;       // uploaded constants
  uint64_t other_bytes = 0;          // the runtime's own: index maps, an empty placeholder
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
  // The shapes of the tensors the partition's nodes read and write, in node order.
  std::vector<std::vector<int32_t>> TensorShapes() const;
  // Builds the device work and memory for the tensors' current shapes.
  Status Build(KernelContext& context);
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  using HostMemory = std::unique_ptr<uint8_t, AlignedFree>;
  // Host memory of `bytes`, held by `owner`.
  uint8_t* HostBuffer(uint64_t bytes, std::vector<HostMemory>& owner);
  // Runs the node's CPU kernel on its constant inputs; its outputs become constants.
  Status FoldNode(KernelContext& context);
  // A quantized boundary tensor: its position in the partition's inputs or outputs and where its
  // float values pass on the host: the node's temporary `temporary`, or `own_buffer` where the
  // plan gave the node none.
  struct BoundaryTwin {
    size_t position = 0;
    size_t temporary = 0;
    uint8_t* own_buffer = nullptr;
  };

  // Replaces an fp16 constant by its float32 values.
  Status DequantizeFp16Constant(RuntimeTensor& tensor);
  // Replaces a quantized constant (weights, biases) by its float32 values.
  Status DequantizeQuantizedConstant(RuntimeTensor& tensor);
  // The host buffer of `twin`'s float values (`bytes` of them), or nullptr if it has none.
  float* Staging(const KernelContext& context, const BoundaryTwin& twin, uint64_t bytes) const;
  Status Upload(cl_mem buffer, const void* data, size_t bytes, bool blocking);

  DelegatePartition partition_;
  const OpenClDevice& device_;
  OpenClProgramCache& programs_;
  std::map<int32_t, RuntimeTensor> tensors_;       // node-based: addresses stay valid for contexts
  ClMem shared_parent_;                            // holds the runtime tensors' sub-buffers
  std::map<int32_t, ClMem> buffers_;               // tensors on the device
  std::map<int32_t, ClMem> input_staging_;         // boundary inputs cross through these...
  std::map<int32_t, ClMem> output_staging_;        // ...and outputs through these
  std::vector<HostMemory> constant_host_buffers_;  // folded and dequantized, until uploaded
  std::vector<HostMemory> twin_buffers_;           // boundary twins' float values
  ClMem empty_;
  std::vector<ClStep> steps_;
  // At fp16 storage: the boundary inputs' rounding after each upload, by tensor.
  std::map<int32_t, ClStep> input_rounding_;
  std::vector<BoundaryTwin> input_twins_;
  std::vector<BoundaryTwin> output_twins_;
  std::shared_ptr<DeviceTransfers> transfers_;
  // What the last Build made: the shapes it built for, and what it added to `transfers_`
  // (its device memory and uploads).
  std::optional<std::vector<std::vector<int32_t>>> built_shapes_;
  DeviceTransfers built_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_PARTITION_KERNEL_H_
