#include "libanalysis/tflm/cmsis_nn_kernels.h"

#include <algorithm>
#include <array>

#include "libanalysis/tflm/cmsis_nn_buffer_sizes.h"

namespace tfa::tflm {
namespace {

using F = Field;

struct PortedOp {
  std::string_view op;
  std::string_view source;  // under tensorflow/lite/micro/kernels/cmsis_nn/
};

// The ops OPTIMIZED_KERNEL_DIR=cmsis_nn replaces. ADD and MUL keep the reference kernels' OpData
// and ask for no buffers (add.cc has its own OpData of the same fields, mul.cc reuses MulInit and
// MulPrepare). MAXIMUM and MINIMUM (no Init, no Prepare), PAD and PADV2 (PadInit, PadPrepare) and
// TRANSPOSE (TransposePrepare) keep the reference kernels' Init and Prepare; arm_maximum_s8,
// arm_minimum_s8, arm_pad_s8 and arm_transpose_s8 take no buffer (maximum_minimum.cc 2ba41b0,
// pad.cc and transpose.cc 0cc6f98).
constexpr std::array kPortedOps = {
    PortedOp{"ADD", "add.cc"},
    PortedOp{"AVERAGE_POOL_2D", "pooling.cc"},
    PortedOp{"BATCH_MATMUL", "batch_matmul.cc"},
    PortedOp{"CONV_2D", "conv.cc"},
    PortedOp{"DEPTHWISE_CONV_2D", "depthwise_conv.cc"},
    PortedOp{"FULLY_CONNECTED", "fully_connected.cc"},
    PortedOp{"MAX_POOL_2D", "pooling.cc"},
    PortedOp{"MAXIMUM", "maximum_minimum.cc"},
    PortedOp{"MINIMUM", "maximum_minimum.cc"},
    PortedOp{"MUL", "mul.cc"},
    PortedOp{"PAD", "pad.cc"},
    PortedOp{"PADV2", "pad.cc"},
    PortedOp{"SOFTMAX", "softmax.cc"},
    PortedOp{"SVDF", "svdf.cc"},
    PortedOp{"TRANSPOSE", "transpose.cc"},
    PortedOp{"TRANSPOSE_CONV", "transpose_conv.cc"},
    PortedOp{"UNIDIRECTIONAL_SEQUENCE_LSTM", "unidirectional_sequence_lstm.cc"},
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

uint64_t RoundUpTo(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

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

// depthwise_conv.cc (tflite-micro 3274767, 0cc6f98): OpData {OpDataConv, buffer_idx}; per-channel
// arrays for int8 and int16; only int8 asks for the wrapper's buffer, int4 filters the s4
// wrapper's (int16 runs arm_depthwise_conv_s16 without one). The reference kernel's scratch copy
// of an unpacked int4 filter is not made.
void DepthwiseConvRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                           KernelRequests& requests) {
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* filter = Input(subgraph, node, 1);
  const Tensor* output = Output(subgraph, node);
  requests.op_data += 4;
  requests.persistent_buffers.clear();
  requests.scratch_buffers.clear();
  if (!Is(input, TensorType::kInt8) && !Is(input, TensorType::kInt16)) return;
  const uint64_t channels = Bytes(Dim(filter, 3));
  requests.persistent_buffers = {channels * 4, channels * 4};
  if (!Is(input, TensorType::kInt8)) return;
  const int64_t depth = Dim(output, 3);
  const CmsisNnDims input_dims{Dim(input, 0), Dim(input, 1), Dim(input, 2), Dim(input, 3)};
  const CmsisNnDims filter_dims{1, Dim(filter, 1), Dim(filter, 2), depth};
  const CmsisNnDims output_dims{Dim(input, 0), Dim(output, 1), Dim(output, 2), depth};
  const CmsisNnConvParams params = ConvParams(node, input, filter);
  AddScratch(
      Is(filter, TensorType::kInt4)
          ? DepthwiseConvWrapperS4BufferSize(path, params, input_dims, filter_dims, output_dims)
          : DepthwiseConvWrapperS8BufferSize(path, params, input_dims, filter_dims, output_dims),
      requests);
}

// fully_connected.cc (tflite-micro 045bc37): OpData {OpDataFullyConnected, the two per-channel
// pointers, buffer_idx, kernel_sums, batches, accum_depth, output_depth}. Per-channel weights of
// a quantized kernel: CalculateOpDataFullyConnected (fully_connected_common.cc) first allocates a
// multiplier and a shift per scale. int8 with symmetric int8 weights: an output of rank 3 or 4
// over a depth that is a multiple of 4 runs as a 1x1 convolution with per-channel arrays it fills
// itself; otherwise MVE's kernel sums go in a persistent buffer, not a scratch one. int16 asks
// for arm_fully_connected_s16's buffer (0).
void FullyConnectedRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                            KernelRequests& requests) {
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* filter = Input(subgraph, node, 1);
  const Tensor* output = Output(subgraph, node);
  requests.op_data += 7 * 4;
  requests.persistent_buffers.clear();
  requests.scratch_buffers.clear();
  if (filter != nullptr && filter->quantization->per_channel() &&
      !Is(input, TensorType::kFloat32)) {
    const uint64_t scales = filter->quantization->scale.size();
    requests.persistent_buffers = {scales * 4, scales * 4};
  }
  const CmsisNnDims filter_dims{LastDim(filter), 1, 1, LastDim(output)};
  if (Is(input, TensorType::kInt16)) {
    AddScratch(FullyConnectedS16BufferSize(path, filter_dims), requests);
    return;
  }
  const bool symmetric_weights = filter == nullptr || filter->quantization->zero_point.empty() ||
                                 filter->quantization->zero_point[0] == 0;
  if (!Is(input, TensorType::kInt8) || !symmetric_weights || Is(filter, TensorType::kInt4)) {
    return;
  }
  const size_t output_rank = output == nullptr ? 0 : output->shape.size();
  const int64_t accum_depth = LastDim(filter);
  const uint64_t output_depth = Bytes(LastDim(output));
  if (output_rank > 2 && accum_depth % 4 == 0) {
    requests.persistent_buffers.push_back(output_depth * 4);
    requests.persistent_buffers.push_back(output_depth * 4);
    AddScratch(Convolve1x1S8FastBufferSize(path, {1, 1, 1, accum_depth}), requests);
    return;
  }
  if (const uint64_t kernel_sums = FullyConnectedS8BufferSize(path, filter_dims); kernel_sums) {
    requests.persistent_buffers.push_back(kernel_sums);
  }
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

// pooling.cc (tflite-micro e87d5eb, and the later AveragePrepare that sizes int16 too):
// OpData {OpDataPooling, buffer_idx}; an int8 or int16 average pool asks for arm_avgpool_s8's or
// arm_avgpool_s16's buffer over the output width and depth.
void PoolRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                  KernelRequests& requests) {
  requests.op_data += 4;
  const Tensor* input = Input(subgraph, node, 0);
  if (node.op != "AVERAGE_POOL_2D") return;
  const Tensor* output = Output(subgraph, node);
  if (Is(input, TensorType::kInt8)) {
    AddScratch(AvgpoolS8BufferSize(path, Dim(output, 2), Dim(output, 3)), requests);
  } else if (Is(input, TensorType::kInt16)) {
    AddScratch(AvgpoolS16BufferSize(path, Dim(output, 2), Dim(output, 3)), requests);
  }
}

// transpose_conv.cc (tflite-micro 0cc6f98): OpData is the reference's with a third buffer index
// (scratch_buffer_output_index). int8 asks for arm_transpose_conv_s8's two buffers whatever
// their size, even 0 (the request is not behind a size test); int16 keeps the reference's int64
// output accumulators and widened int16 bias; float asks for none. Inputs: output shape, filter,
// input, bias; filter dims n is the output depth, c the input depth.
void TransposeConvRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                           KernelRequests& requests) {
  requests.op_data += 4;
  const Tensor* filter = Input(subgraph, node, 1);
  const Tensor* input = Input(subgraph, node, 2);
  if (!Is(input, TensorType::kInt8)) return;
  const Tensor* output = Output(subgraph, node);
  const int64_t input_depth = Dim(input, 3);
  const int64_t output_depth = Dim(filter, 0);
  const CmsisNnDims input_dims{Dim(input, 0), Dim(input, 1), Dim(input, 2), input_depth};
  const CmsisNnDims filter_dims{output_depth, Dim(filter, 1), Dim(filter, 2), input_depth};
  const CmsisNnDims output_dims{Dim(input, 0), Dim(output, 1), Dim(output, 2), output_depth};
  CmsisNnConvParams params;
  params.stride_w = node.options->stride_w;
  params.stride_h = node.options->stride_h;
  requests.scratch_buffers = {
      TransposeConvS8BufferSize(path, params, input_dims, filter_dims, output_dims),
      TransposeConvS8ReverseConvBufferSize(params, input_dims, filter_dims)};
}

// batch_matmul.cc (tflite-micro 183da3e): OpData {OpDataBatchMatmul, cmsis_nn_dims output_shape,
// buffer_idx}, five int32s after the reference's OpData. Prepare allocates the transposed
// operands and the output's dims before the quantization data, unlike the reference kernel. An
// int8 kernel asks for arm_fully_connected_s8's buffer over the output's last dimension (MVE's
// kernel sums), as scratch.
void BatchMatMulRequests(CmsisNnCodePath path, const Subgraph& subgraph, const Node& node,
                         KernelRequests& requests) {
  requests.op_data += 5 * 4;
  const Tensor* lhs = Input(subgraph, node, 0);
  if (!Is(lhs, TensorType::kInt8) && !Is(lhs, TensorType::kInt16)) return;
  std::rotate(requests.persistent_buffers.begin(), requests.persistent_buffers.begin() + 1,
              requests.persistent_buffers.end());
  if (Is(lhs, TensorType::kInt8)) {
    AddScratch(FullyConnectedS8BufferSize(path, {1, 1, 1, LastDim(Output(subgraph, node))}),
               requests);
  }
}

// unidirectional_sequence_lstm.cc (tflite-micro 0035387): OpData {OpDataLSTM,
// cmsis_nn_lstm_params} (CMSIS-NN arm_nn_types.h V.3.2.0: fifteen int32s and four
// cmsis_nn_lstm_gate of six pointers and four int32s each). An int8 or int16 input with an int16
// cell state runs CMSIS-NN's kernel: eight persistent kernel sums (input and recurrent, per gate)
// of an int32 (int8 input) or int64 (int16 input) per state unit, and three scratch buffers
// instead of the reference's four.
void SequenceLstmRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                          KernelRequests& requests) {
  const Layout gate =
      StructLayout(build, {F::kInt32, F::kInt32, F::kPointer, F::kPointer, F::kInt32, F::kInt32,
                           F::kPointer, F::kPointer, F::kPointer, F::kInt32});
  const uint64_t lstm_params = RoundUpTo(15 * 4 + 4 * gate.size, gate.align);
  // OpDataLSTM holds ArithmeticParams, whose int64 range sets its alignment.
  const uint64_t align = std::max(StructLayout(build, {F::kInt64}).align, gate.align);
  requests.op_data = RoundUpTo(RoundUpTo(requests.op_data, gate.align) + lstm_params, align);
  const Tensor* input = Input(subgraph, node, 0);
  const Tensor* cell_state = Input(subgraph, node, 19);
  const bool cmsis_kernel = (Is(input, TensorType::kInt8) || Is(input, TensorType::kInt16)) &&
                            Is(cell_state, TensorType::kInt16);
  if (!cmsis_kernel) return;
  const uint64_t state = Bytes(Dim(Input(subgraph, node, 18), 1));
  const uint64_t sum_bytes = Is(input, TensorType::kInt8) ? 4 : 8;
  requests.persistent_buffers.insert(requests.persistent_buffers.end(), 8, state * sum_bytes);
  requests.scratch_buffers.resize(3);
}

}  // namespace

std::optional<std::string_view> CmsisNnKernelSource(std::string_view op) {
  const PortedOp* ported = FindPorted(op);
  if (ported == nullptr) return std::nullopt;
  return ported->source;
}

void ApplyCmsisNnKernel(const Build& build, const Subgraph& subgraph, const Node& node,
                        KernelRequests& requests) {
  if (!build.cmsis_nn || FindPorted(node.op) == nullptr) return;
  const CmsisNnCodePath path = CodePathOf(*build.cmsis_nn);
  const std::string_view op = node.op;
  if (op == "CONV_2D") {
    ConvRequests(path, subgraph, node, requests);
  } else if (op == "DEPTHWISE_CONV_2D") {
    DepthwiseConvRequests(path, subgraph, node, requests);
  } else if (op == "FULLY_CONNECTED") {
    FullyConnectedRequests(path, subgraph, node, requests);
  } else if (op == "SVDF") {
    SvdfRequests(build, path, subgraph, node, requests);
  } else if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D") {
    PoolRequests(path, subgraph, node, requests);
  } else if (op == "TRANSPOSE_CONV") {
    TransposeConvRequests(path, subgraph, node, requests);
  } else if (op == "BATCH_MATMUL") {
    BatchMatMulRequests(path, subgraph, node, requests);
  } else if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") {
    SequenceLstmRequests(build, subgraph, node, requests);
  } else if (op == "SOFTMAX") {
    // softmax.cc (tflite-micro 91be4d3, 0cc6f98): CMSISNNSoftmaxParams {SoftmaxParams, num_rows,
    // row_size}. Its Prepare calls CalculateSoftmaxParams, which allocates an int16 input's two
    // lookup tables as the reference kernel does.
    requests.op_data =
        StructLayout(build, {F::kDouble, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                             F::kInt32, F::kFloat, F::kPointer, F::kPointer, F::kPointer,
                             F::kPointer, F::kPointer, F::kInt32, F::kInt32})
            .size;
  }
}

}  // namespace tfa::tflm
