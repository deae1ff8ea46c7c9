#include "libanalysis/tflm/cmsis_nn_kernels.h"

#include <array>
#include <string>

#include "libanalysis/tflm/cmsis_nn_buffer_sizes.h"

namespace tfa::tflm {
namespace {

using F = Field;

struct PortedOp {
  std::string_view op;
  std::string_view source;  // under tensorflow/lite/micro/kernels/cmsis_nn/
  bool modelled;
};

// The ops OPTIMIZED_KERNEL_DIR=cmsis_nn replaces. ADD and MUL keep the reference kernels' OpData
// and ask for no buffers (add.cc has its own OpData of the same fields, mul.cc reuses MulInit and
// MulPrepare); the unmodelled ones are refused rather than guessed.
constexpr std::array kPortedOps = {
    PortedOp{"ADD", "add.cc", true},
    PortedOp{"AVERAGE_POOL_2D", "pooling.cc", true},
    PortedOp{"BATCH_MATMUL", "batch_matmul.cc", false},
    PortedOp{"CONV_2D", "conv.cc", true},
    PortedOp{"DEPTHWISE_CONV_2D", "depthwise_conv.cc", true},
    PortedOp{"FULLY_CONNECTED", "fully_connected.cc", true},
    PortedOp{"MAX_POOL_2D", "pooling.cc", true},
    PortedOp{"MAXIMUM", "maximum_minimum.cc", false},
    PortedOp{"MINIMUM", "maximum_minimum.cc", false},
    PortedOp{"MUL", "mul.cc", true},
    PortedOp{"PAD", "pad.cc", false},
    PortedOp{"PADV2", "pad.cc", false},
    PortedOp{"SOFTMAX", "softmax.cc", true},
    PortedOp{"SVDF", "svdf.cc", true},
    PortedOp{"TRANSPOSE", "transpose.cc", false},
    PortedOp{"TRANSPOSE_CONV", "transpose_conv.cc", false},
    PortedOp{"UNIDIRECTIONAL_SEQUENCE_LSTM", "unidirectional_sequence_lstm.cc", false},
};

const PortedOp* FindPorted(std::string_view op) {
  for (const PortedOp& ported : kPortedOps) {
    if (ported.op == op) return &ported;
  }
  return nullptr;
}

const Tensor* Input(const Subgraph& subgraph, const Node& node, size_t index) {
  if (index >= node.inputs.size()) return nullptr;
  const int32_t id = node.inputs[index];
  if (id < 0 || static_cast<size_t>(id) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[id];
}

const Tensor* Output(const Subgraph& subgraph, const Node& node) {
  if (node.outputs.empty()) return nullptr;
  const int32_t id = node.outputs[0];
  if (id < 0 || static_cast<size_t>(id) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[id];
}

int64_t Dim(const Tensor* tensor, size_t axis) {
  if (tensor == nullptr || axis >= tensor->shape.size() || tensor->shape[axis] < 0) return 0;
  return tensor->shape[axis];
}

int64_t LastDim(const Tensor* tensor) {
  return tensor == nullptr || tensor->shape.empty() ? 0 : Dim(tensor, tensor->shape.size() - 1);
}

bool Is(const Tensor* tensor, TensorType type) { return tensor != nullptr && tensor->type == type; }

uint64_t Bytes(int64_t value) { return value < 0 ? 0 : static_cast<uint64_t>(value); }

// ComputePaddingHeightWidth (kernels/padding.h), as CalculateOpDataConv and
// CalculateOpDataDepthwiseConv use it: the output size for the padding, then half the padding
// that size needs.
int64_t PaddingOf(Padding padding, int64_t stride, int64_t dilation, int64_t in, int64_t filter) {
  if (stride <= 0) return 0;
  const int64_t effective_filter = (filter - 1) * dilation + 1;
  const int64_t out = padding == Padding::kSame ? (in + stride - 1) / stride
                                                : (in + stride - effective_filter) / stride;
  const int64_t total = (out - 1) * stride + effective_filter - in;
  return total > 0 ? total / 2 : 0;
}

CmsisNnConvParams ConvParams(const Node& node, const Tensor* input, const Tensor* filter) {
  const OpOptions& options = *node.options;
  CmsisNnConvParams params;
  params.stride_w = options.stride_w;
  params.stride_h = options.stride_h;
  params.dilation_w = options.dilation_w;
  params.dilation_h = options.dilation_h;
  params.padding_h = PaddingOf(options.padding, options.stride_h, options.dilation_h, Dim(input, 1),
                               Dim(filter, 1));
  params.padding_w = PaddingOf(options.padding, options.stride_w, options.dilation_w, Dim(input, 2),
                               Dim(filter, 2));
  return params;
}

CmsisNnDims Nhwc(const Tensor* tensor) {
  return {Dim(tensor, 0), Dim(tensor, 1), Dim(tensor, 2), Dim(tensor, 3)};
}

void AddScratch(uint64_t bytes, KernelRequests& requests) {
  if (bytes > 0) requests.scratch_buffers.push_back(bytes);
}

// conv.cc (tflite-micro 19e0e51): OpData {OpDataConv, buffer_idx}; the per-channel arrays only for
// int8 and int16 (the reference allocates them for float too); the wrapper's buffer, where the
// reference unpacks int4 filters into a scratch buffer CMSIS-NN does not need. TFLM fills
// filter_dims with n = 1 and c = the filter's own depth. An int16 kernel asks for its buffer
// whatever its bias: Prepare reads the bias with AllocateTempOutputTensor(node, 2), which finds
// no such output, so the "int64 or no bias" test always passes.
void ConvRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                  KernelRequests& requests) {
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* filter = Input(subgraph, node, 1);
  requests.op_data += 4;
  requests.persistent_buffers.clear();
  requests.scratch_buffers.clear();
  if (!Is(input, TensorType::kInt8) && !Is(input, TensorType::kInt16)) return;
  const uint64_t channels = Bytes(Dim(filter, 0));
  requests.persistent_buffers = {channels * 4, channels * 4};
  const CmsisNnConvParams params = ConvParams(node, input, filter);
  const CmsisNnDims filter_dims{1, Dim(filter, 1), Dim(filter, 2), Dim(filter, 3)};
  AddScratch(Is(input, TensorType::kInt8)
                 ? ConvolveWrapperS8BufferSize(path, params, Nhwc(input), filter_dims)
                 : ConvolveWrapperS16BufferSize(path, params, Nhwc(input), filter_dims),
             requests);
}

// depthwise_conv.cc (tflite-micro 3274767): OpData {OpDataConv, buffer_idx}; per-channel arrays
// for int8 and int16; only int8 asks for the wrapper's buffer (int16 runs arm_depthwise_conv_s16
// without one).
Status DepthwiseConvRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                             KernelRequests& requests) {
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* filter = Input(subgraph, node, 1);
  const Tensor* output = Output(subgraph, node);
  requests.op_data += 4;
  requests.persistent_buffers.clear();
  requests.scratch_buffers.clear();
  if (!Is(input, TensorType::kInt8) && !Is(input, TensorType::kInt16)) return Status::Ok();
  const uint64_t channels = Bytes(Dim(filter, 3));
  requests.persistent_buffers = {channels * 4, channels * 4};
  if (!Is(input, TensorType::kInt8)) return Status::Ok();
  if (!Is(filter, TensorType::kInt8)) {
    return Status::Error(
        "TFLite Micro's CMSIS-NN DEPTHWISE_CONV_2D kernel with a non-int8 filter "
        "(arm_depthwise_conv_wrapper_s4_get_buffer_size) is not modelled yet");
  }
  const int64_t depth = Dim(output, 3);
  const CmsisNnDims input_dims{Dim(input, 0), Dim(input, 1), Dim(input, 2), Dim(input, 3)};
  const CmsisNnDims filter_dims{1, Dim(filter, 1), Dim(filter, 2), depth};
  const CmsisNnDims output_dims{Dim(input, 0), Dim(output, 1), Dim(output, 2), depth};
  AddScratch(DepthwiseConvWrapperS8BufferSize(path, ConvParams(node, input, filter), input_dims,
                                              filter_dims, output_dims),
             requests);
  return Status::Ok();
}

// fully_connected.cc (tflite-micro 045bc37): OpData {OpDataFullyConnected, the two per-channel
// pointers, buffer_idx, kernel_sums, batches, accum_depth, output_depth}. int8 with symmetric
// int8 weights: an output of rank 3 or 4 over a depth that is a multiple of 4 runs as a 1x1
// convolution with per-channel arrays it fills itself; otherwise MVE's kernel sums go in a
// persistent buffer, not a scratch one. int16 asks for arm_fully_connected_s16's buffer (0).
Status FullyConnectedRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                              KernelRequests& requests) {
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* filter = Input(subgraph, node, 1);
  const Tensor* output = Output(subgraph, node);
  if (filter != nullptr && filter->quantization->per_channel()) {
    return Status::Error(
        "TFLite Micro's CMSIS-NN FULLY_CONNECTED kernel with per-channel weights is not "
        "modelled yet");
  }
  requests.op_data += 7 * 4;
  requests.persistent_buffers.clear();
  requests.scratch_buffers.clear();
  const CmsisNnDims filter_dims{LastDim(filter), 1, 1, LastDim(output)};
  if (Is(input, TensorType::kInt16)) {
    AddScratch(FullyConnectedS16BufferSize(path, filter_dims), requests);
    return Status::Ok();
  }
  const bool symmetric_weights = filter == nullptr || filter->quantization->zero_point.empty() ||
                                 filter->quantization->zero_point[0] == 0;
  if (!Is(input, TensorType::kInt8) || !symmetric_weights || Is(filter, TensorType::kInt4)) {
    return Status::Ok();
  }
  const size_t output_rank = output == nullptr ? 0 : output->shape.size();
  const int64_t accum_depth = LastDim(filter);
  const uint64_t output_depth = Bytes(LastDim(output));
  if (output_rank > 2 && accum_depth % 4 == 0) {
    requests.persistent_buffers = {output_depth * 4, output_depth * 4};
    AddScratch(Convolve1x1S8FastBufferSize(path, {1, 1, 1, accum_depth}), requests);
    return Status::Ok();
  }
  if (const uint64_t kernel_sums = FullyConnectedS8BufferSize(path, filter_dims); kernel_sums) {
    requests.persistent_buffers.push_back(kernel_sums);
  }
  return Status::Ok();
}

// svdf.cc (tflite-micro 045bc37): CmsisNnOpDataSvdf (nine ints and the kernel_sums pointer); the
// reference's scratch buffers, and for int8 MVE's kernel sums in a persistent buffer.
void SvdfRequests(const Build& build, CmsisNnCodePath path, const Subgraph& subgraph,
                  const Node& node, KernelRequests& requests) {
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                          F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kPointer})
                         .size;
  const Tensor* input = Input(subgraph, node, 0);
  if (!Is(input, TensorType::kInt8)) return;
  const Tensor* weights_feature = Input(subgraph, node, 1);
  const uint64_t kernel_sums = SvdfS8BufferSize(path, {Dim(weights_feature, 0), 1, 1, 1});
  if (kernel_sums > 0) requests.persistent_buffers.push_back(kernel_sums);
}

// pooling.cc (tflite-micro e87d5eb): OpData {OpDataPooling, buffer_idx}; an int8 average pool
// asks for arm_avgpool_s8's buffer over the output width and depth. Later revisions also size an
// int16 one (arm_avgpool_s16_get_buffer_size), which is refused rather than guessed.
Status PoolRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                    KernelRequests& requests) {
  requests.op_data += 4;
  const Tensor* input = Input(subgraph, node, 0);
  if (node.op != "AVERAGE_POOL_2D") return Status::Ok();
  if (Is(input, TensorType::kInt16)) {
    return Status::Error(
        "TFLite Micro's CMSIS-NN AVERAGE_POOL_2D kernel with an int16 input is not modelled yet");
  }
  if (!Is(input, TensorType::kInt8)) return Status::Ok();
  const Tensor* output = Output(subgraph, node);
  AddScratch(AvgpoolS8BufferSize(path, Dim(output, 2), Dim(output, 3)), requests);
  return Status::Ok();
}

}  // namespace

std::optional<std::string_view> CmsisNnKernelSource(std::string_view op) {
  const PortedOp* ported = FindPorted(op);
  if (ported == nullptr) return std::nullopt;
  return ported->source;
}

Status ApplyCmsisNnKernel(const Build& build, const Subgraph& subgraph, const Node& node,
                          KernelRequests& requests) {
  if (!build.cmsis_nn) return Status::Ok();
  const PortedOp* ported = FindPorted(node.op);
  if (ported == nullptr) return Status::Ok();
  if (!ported->modelled) {
    return Status::Error("TFLite Micro's CMSIS-NN " + node.op + " kernel (cmsis_nn/" +
                         std::string(ported->source) +
                         ") is not modelled yet; --target tflm-32 answers for the reference "
                         "kernel");
  }
  const CmsisNnCodePath path = CodePathOf(*build.cmsis_nn);
  const std::string_view op = node.op;
  if (op == "CONV_2D") {
    ConvRequests(path, subgraph, node, requests);
  } else if (op == "DEPTHWISE_CONV_2D") {
    return DepthwiseConvRequests(path, subgraph, node, requests);
  } else if (op == "FULLY_CONNECTED") {
    return FullyConnectedRequests(path, subgraph, node, requests);
  } else if (op == "SVDF") {
    SvdfRequests(build, path, subgraph, node, requests);
  } else if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D") {
    return PoolRequests(path, subgraph, node, requests);
  } else if (op == "SOFTMAX") {
    // softmax.cc (tflite-micro 91be4d3): CMSISNNSoftmaxParams {SoftmaxParams, num_rows,
    // row_size}. Its Prepare allocates no int16 lookup tables of its own.
    if (Is(Input(subgraph, node, 0), TensorType::kInt16)) {
      return Status::Error(
          "TFLite Micro's CMSIS-NN SOFTMAX kernel with an int16 input is not modelled yet");
    }
    requests.op_data =
        StructLayout(build, {F::kDouble, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                             F::kInt32, F::kFloat, F::kPointer, F::kPointer, F::kPointer,
                             F::kPointer, F::kPointer, F::kInt32, F::kInt32})
            .size;
  }
  return Status::Ok();
}

}  // namespace tfa::tflm
