#include "libanalysis/tflm/tflm_kernels.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/tensor_type.h"
#include "libanalysis/tflm/cmsis_nn_kernels.h"
#include "libanalysis/tflm/micro_custom_kernels.h"
#include "libanalysis/tflm/signal_kernels.h"

namespace tfa::tflm {
namespace {

using F = Field;

const Tensor* InputTensor(const Subgraph& subgraph, const Node& node, size_t index) {
  if (index >= node.inputs.size()) return nullptr;
  const int32_t id = node.inputs[index];
  if (id < 0 || static_cast<size_t>(id) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[id];
}

const Tensor* OutputTensor(const Subgraph& subgraph, const Node& node, size_t index) {
  if (index >= node.outputs.size()) return nullptr;
  const int32_t id = node.outputs[index];
  if (id < 0 || static_cast<size_t>(id) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[id];
}

uint64_t Dim(const Tensor* tensor, size_t axis) {
  if (tensor == nullptr || axis >= tensor->shape.size() || tensor->shape[axis] < 0) return 0;
  return static_cast<uint64_t>(tensor->shape[axis]);
}

// RuntimeShape::FlatSize, saturating instead of wrapping (a hostile shape must not look small).
uint64_t FlatSize(const Tensor* tensor) {
  if (tensor == nullptr) return 0;
  uint64_t elements = 1;
  for (int32_t dim : tensor->shape) {
    auto product = CheckedMul(elements, dim < 0 ? 0 : static_cast<uint64_t>(dim));
    if (!product) return UINT64_MAX / 16;
    elements = *product;
  }
  return elements;
}

uint64_t ScaleCount(const Tensor* tensor) {
  if (tensor == nullptr) return 0;
  return tensor->quantization->scale.size();
}

bool Is(const Tensor* tensor, TensorType type) { return tensor != nullptr && tensor->type == type; }

struct OpRule {
  std::string_view op;
  std::string_view resolver_method;
  std::string_view
      source;  // kernel files under tensorflow/lite/micro/kernels/; empty: not modelled
};

// Every builtin MicroMutableOpResolver registers (micro_mutable_op_resolver.h); the ones with a
// source are modelled below.
constexpr std::array kOpRules = {
    OpRule{"ABS", "AddAbs", "elementwise.cc"},
    OpRule{"ADD", "AddAdd", "add.h, add_common.cc"},
    OpRule{"ADD_N", "AddAddN", "add_n.cc"},
    OpRule{"ARG_MAX", "AddArgMax", "arg_min_max.cc"},
    OpRule{"ARG_MIN", "AddArgMin", "arg_min_max.cc"},
    OpRule{"ASSIGN_VARIABLE", "AddAssignVariable", "assign_variable.cc"},
    OpRule{"AVERAGE_POOL_2D", "AddAveragePool2D", "pooling.h, pooling_common.cc"},
    OpRule{"BATCH_MATMUL", "AddBatchMatMul", "batch_matmul.cc"},
    OpRule{"BATCH_TO_SPACE_ND", "AddBatchToSpaceNd", "batch_to_space_nd.cc"},
    OpRule{"BROADCAST_ARGS", "AddBroadcastArgs", "broadcast_args.cc"},
    OpRule{"BROADCAST_TO", "AddBroadcastTo", "broadcast_to.cc"},
    OpRule{"CALL_ONCE", "AddCallOnce", "call_once.cc"},
    OpRule{"CAST", "AddCast", "cast.cc"},
    OpRule{"CEIL", "AddCeil", "ceil.cc"},
    OpRule{"CONCATENATION", "AddConcatenation", "concatenation.cc"},
    OpRule{"CONV_2D", "AddConv2D", "conv.h, conv_common.cc"},
    OpRule{"COS", "AddCos", "elementwise.cc"},
    OpRule{"CUMSUM", "AddCumSum", "cumsum.cc"},
    OpRule{"DEPTH_TO_SPACE", "AddDepthToSpace", "depth_to_space.cc"},
    OpRule{"DEPTHWISE_CONV_2D", "AddDepthwiseConv2D", "depthwise_conv.h, depthwise_conv_common.cc"},
    OpRule{"DEQUANTIZE", "AddDequantize", "dequantize.h, dequantize_common.cc"},
    OpRule{"DIV", "AddDiv", "div.cc"},
    OpRule{"ELU", "AddElu", "elu.cc"},
    OpRule{"EMBEDDING_LOOKUP", "AddEmbeddingLookup", "embedding_lookup.cc"},
    OpRule{"EQUAL", "AddEqual", "comparisons.cc"},
    OpRule{"EXP", "AddExp", "exp.cc"},
    OpRule{"EXPAND_DIMS", "AddExpandDims", "expand_dims.cc"},
    OpRule{"FILL", "AddFill", "fill.cc"},
    OpRule{"FLOOR", "AddFloor", "floor.cc"},
    OpRule{"FLOOR_DIV", "AddFloorDiv", "floor_div.cc"},
    OpRule{"FLOOR_MOD", "AddFloorMod", "floor_mod.cc"},
    OpRule{"FULLY_CONNECTED", "AddFullyConnected", "fully_connected.h, fully_connected.cc"},
    OpRule{"GATHER", "AddGather", "gather.cc"},
    OpRule{"GATHER_ND", "AddGatherNd", "gather_nd.cc"},
    OpRule{"GREATER", "AddGreater", "comparisons.cc"},
    OpRule{"GREATER_EQUAL", "AddGreaterEqual", "comparisons.cc"},
    OpRule{"HARD_SWISH", "AddHardSwish", "hard_swish.h, hard_swish.cc"},
    OpRule{"IF", "AddIf", "if.cc"},
    OpRule{"L2_NORMALIZATION", "AddL2Normalization", "l2norm.cc"},
    OpRule{"L2_POOL_2D", "AddL2Pool2D", "l2_pool_2d.cc"},
    OpRule{"LEAKY_RELU", "AddLeakyRelu", "leaky_relu.h, leaky_relu.cc"},
    OpRule{"LESS", "AddLess", "comparisons.cc"},
    OpRule{"LESS_EQUAL", "AddLessEqual", "comparisons.cc"},
    OpRule{"LOG", "AddLog", "elementwise.cc"},
    OpRule{"LOG_SOFTMAX", "AddLogSoftmax", "log_softmax.cc"},
    OpRule{"LOGICAL_AND", "AddLogicalAnd", "logical.cc"},
    OpRule{"LOGICAL_NOT", "AddLogicalNot", "elementwise.cc"},
    OpRule{"LOGICAL_OR", "AddLogicalOr", "logical.cc"},
    OpRule{"LOGISTIC", "AddLogistic", "logistic.h, logistic_common.cc"},
    OpRule{"MAX_POOL_2D", "AddMaxPool2D", "pooling.h, pooling_common.cc"},
    OpRule{"MAXIMUM", "AddMaximum", "maximum_minimum.cc"},
    OpRule{"MEAN", "AddMean", "reduce.h, reduce_common.cc"},
    OpRule{"MINIMUM", "AddMinimum", "maximum_minimum.cc"},
    OpRule{"MIRROR_PAD", "AddMirrorPad", "mirror_pad.cc"},
    OpRule{"MUL", "AddMul", "mul.h, mul_common.cc"},
    OpRule{"NEG", "AddNeg", "neg.cc"},
    OpRule{"NOT_EQUAL", "AddNotEqual", "comparisons.cc"},
    OpRule{"PACK", "AddPack", "pack.cc"},
    OpRule{"PAD", "AddPad", "pad.h, pad_common.cc"},
    OpRule{"PADV2", "AddPadV2", "pad.h, pad_common.cc"},
    OpRule{"PRELU", "AddPrelu", "prelu.h, prelu.cc"},
    OpRule{"QUANTIZE", "AddQuantize", "quantize.h, quantize_common.cc"},
    OpRule{"READ_VARIABLE", "AddReadVariable", "read_variable.cc"},
    OpRule{"REDUCE_MAX", "AddReduceMax", "reduce.h, reduce_common.cc"},
    OpRule{"REDUCE_MIN", "AddReduceMin", "reduce.h, reduce_common.cc"},
    OpRule{"RELU", "AddRelu", "activations.h, activations.cc"},
    OpRule{"RELU6", "AddRelu6", "activations.h, activations.cc"},
    OpRule{"RESHAPE", "AddReshape", "reshape.cc, reshape_common.cc"},
    OpRule{"RESIZE_BILINEAR", "AddResizeBilinear", "resize_bilinear.cc"},
    OpRule{"RESIZE_NEAREST_NEIGHBOR", "AddResizeNearestNeighbor", "resize_nearest_neighbor.cc"},
    OpRule{"REVERSE_V2", "AddReverse", "reverse.cc"},
    OpRule{"ROUND", "AddRound", "round.cc"},
    OpRule{"RSQRT", "AddRsqrt", "elementwise.cc"},
    OpRule{"SELECT_V2", "AddSelectV2", "select.cc"},
    OpRule{"SHAPE", "AddShape", "shape.cc"},
    OpRule{"SIN", "AddSin", "elementwise.cc"},
    OpRule{"SLICE", "AddSlice", "slice.cc"},
    OpRule{"SOFTMAX", "AddSoftmax", "softmax.h, softmax_common.cc"},
    OpRule{"SPACE_TO_BATCH_ND", "AddSpaceToBatchNd", "space_to_batch_nd.cc"},
    OpRule{"SPACE_TO_DEPTH", "AddSpaceToDepth", "space_to_depth.cc"},
    OpRule{"SPLIT", "AddSplit", "split.cc"},
    OpRule{"SPLIT_V", "AddSplitV", "split_v.cc"},
    OpRule{"SQRT", "AddSqrt", "elementwise.cc"},
    OpRule{"SQUARE", "AddSquare", "elementwise.cc"},
    OpRule{"SQUARED_DIFFERENCE", "AddSquaredDifference", "squared_difference.cc"},
    OpRule{"SQUEEZE", "AddSqueeze", "squeeze.cc"},
    OpRule{"STRIDED_SLICE", "AddStridedSlice", "strided_slice.cc"},
    OpRule{"SUB", "AddSub", "sub.h, sub_common.cc"},
    OpRule{"SUM", "AddSum", "reduce.h, reduce_common.cc"},
    OpRule{"SVDF", "AddSvdf", "svdf.h, svdf_common.cc"},
    OpRule{"TANH", "AddTanh", "tanh.cc"},
    OpRule{"TRANSPOSE", "AddTranspose", "transpose.cc"},
    OpRule{"TRANSPOSE_CONV", "AddTransposeConv", "transpose_conv.cc"},
    OpRule{"UNIDIRECTIONAL_SEQUENCE_LSTM", "AddUnidirectionalSequenceLSTM",
           "unidirectional_sequence_lstm.cc"},
    OpRule{"UNPACK", "AddUnpack", "unpack.cc"},
    OpRule{"VAR_HANDLE", "AddVarHandle", "var_handle.cc"},
    OpRule{"WHILE", "AddWhile", "while.cc"},
    OpRule{"ZEROS_LIKE", "AddZerosLike", "zeros_like.cc"},
};

const OpRule* FindRule(std::string_view op) {
  for (const OpRule& rule : kOpRules) {
    if (rule.op == op) return &rule;
  }
  return nullptr;
}

// OpDataConv (conv.h), also the depthwise kernel's user data: TfLitePaddingValues, five
// quantization int32s, the two per-channel arrays, the activation range, filter_buffer_index.
uint64_t OpDataConvBytes(const Build& build) {
  return StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                              F::kInt32, F::kInt32, F::kInt32, F::kPointer, F::kPointer, F::kInt32,
                              F::kInt32, F::kInt32})
      .size;
}

// The int4 filter is unpacked into a scratch buffer of one byte per weight (conv_common.cc,
// depthwise_conv_common.cc, fully_connected.cc).
void AddInt4FilterScratch(const Tensor* filter, KernelRequests& requests) {
  if (Is(filter, TensorType::kInt4)) requests.scratch_buffers.push_back(FlatSize(filter));
}

// A struct whose members are these layouts, in order: nested structs and scalars alike.
Layout Members(std::initializer_list<Layout> members) {
  Layout out;
  for (const Layout& member : members) {
    out.size = (out.size + member.align - 1) / member.align * member.align + member.size;
    out.align = std::max(out.align, member.align);
  }
  out.size = (out.size + out.align - 1) / out.align * out.align;
  return out;
}

// FullyConnectedParams (kernels/internal/types.h): seven int32 offsets, multiplier, shift and
// activation range, the float range, two cacheable flags, the uint8 weights format.
Layout FullyConnectedParamsLayout(const Build& build) {
  return StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                              F::kInt32, F::kFloat, F::kFloat, F::kBool, F::kBool, F::kUint8});
}

// ArithmeticParams (kernels/internal/types.h): the uint8 broadcast category, twelve int32 offsets,
// multipliers, shifts and the activation range, the float range, the int64 range, the int16
// range, broadcast_shape[5].
Layout ArithmeticParamsLayout(const Build& build) {
  return StructLayout(build, {F::kUint8, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                              F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                              F::kInt32, F::kFloat, F::kFloat, F::kInt64, F::kInt64, F::kInt16,
                              F::kInt16, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
}

uint64_t ElementBytes(const Tensor* tensor) {
  if (tensor == nullptr) return 0;
  return ElementSize(tensor->type).value_or(0);
}

// batch_matmul.cc AllocInitTransposeTensorFromTfLiteTensor: a TfLiteEvalTensor, its dims and
// its data, three persistent buffers for an operand the kernel transposes.
void AddTransposedOperand(const Build& build, const Tensor* operand, KernelRequests& requests) {
  requests.persistent_buffers.push_back(StructSizesFor(build).eval_tensor.size);
  requests.persistent_buffers.push_back(
      IntArrayBytes(operand == nullptr ? 0 : operand->shape.size()));
  requests.persistent_buffers.push_back(FlatSize(operand) * ElementBytes(operand));
}

void BatchMatMulRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                         KernelRequests& requests) {
  // TfLiteBatchMatMulParams: adj_x, adj_y, asymmetric_quantize_inputs.
  requests.builtin_options = StructLayout(build, {F::kBool, F::kBool, F::kBool});
  // OpDataBatchMatmul (batch_matmul.h): the quantization pointer, the two transposed tensors,
  // three flags.
  requests.op_data =
      StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kBool, F::kBool, F::kBool})
          .size;
  const Tensor* lhs = InputTensor(subgraph, node, 0);
  const Tensor* rhs = InputTensor(subgraph, node, 1);
  // InitializeTemporaries: QuantizationOpDataBatchMatmul (seven int32s) for int8 and int16.
  if (Is(lhs, TensorType::kInt8) || Is(lhs, TensorType::kInt16)) {
    requests.persistent_buffers.push_back(
        StructLayout(build,
                     {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32})
            .size);
  }
  if (node.options->adj_x) AddTransposedOperand(build, lhs, requests);
  if (!node.options->adj_y) AddTransposedOperand(build, rhs, requests);
  // ReshapeOutputTensor: CreateWritableTensorDimsWithCopy copies the output's dims.
  const Tensor* output = OutputTensor(subgraph, node, 0);
  requests.persistent_buffers.push_back(
      IntArrayBytes(output == nullptr ? 0 : output->shape.size()));
}

void ReduceRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                    KernelRequests& requests) {
  requests.builtin_options = StructLayout(build, {F::kBool});  // TfLiteReducerParams: keep_dims
  // OpDataReduce: multiplier, shift, two buffer indices, input and output zero point and scale,
  // output element count, axis count.
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                          F::kFloat, F::kInt32, F::kFloat, F::kInt32, F::kInt32})
                         .size;
  const Tensor* input = InputTensor(subgraph, node, 0);
  if (node.op == "REDUCE_MAX" || node.op == "REDUCE_MIN") {
    // PrepareMaxHelper: an int per input dimension, an int per axis element.
    const Tensor* axis = InputTensor(subgraph, node, 1);
    requests.scratch_buffers = {(input == nullptr ? 0 : input->shape.size()) * 4,
                                FlatSize(axis) * 4};
  } else if (Is(input, TensorType::kInt8) || Is(input, TensorType::kInt16)) {
    // PrepareMeanOrSumHelper: an int32 accumulator per output element.
    requests.scratch_buffers = {FlatSize(OutputTensor(subgraph, node, 0)) * 4};
  }
}

void SequenceLstmRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                          KernelRequests& requests) {
  // TfLiteUnidirectionalSequenceLSTMParams: activation, cell_clip, proj_clip, time_major,
  // asymmetric_quantize_inputs, diagonal_recurrent_tensors.
  requests.builtin_options =
      StructLayout(build, {F::kInt32, F::kFloat, F::kFloat, F::kBool, F::kBool, F::kBool});
  // OpDataLSTM (lstm_shared.h): LstmSizeInfo, CellStateInfo, the gate activation, four
  // GateParameters (two FullyConnectedParams each), InterGateParameters (three
  // ArithmeticParams), buffer_indices[4].
  const Layout fc = FullyConnectedParamsLayout(build);
  const Layout arithmetic = ArithmeticParamsLayout(build);
  const Layout size_info =
      StructLayout(build, {F::kBool, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
  const Layout cell_state_info = StructLayout(build, {F::kFloat, F::kInt16, F::kInt32});
  const Layout int32 = StructLayout(build, {F::kInt32});
  requests.op_data = Members({size_info, cell_state_info, int32, fc, fc, fc, fc, fc, fc, fc, fc,
                              arithmetic, arithmetic, arithmetic, int32, int32, int32, int32})
                         .size;
  // Prepare: four scratch buffers of batch x state x the cell state's element size.
  const Tensor* input = InputTensor(subgraph, node, 0);
  const Tensor* output_state = InputTensor(subgraph, node, 18);
  const Tensor* cell_state = InputTensor(subgraph, node, 19);
  const uint64_t batch = Dim(input, node.options->time_major ? 1 : 0);
  const uint64_t bytes = batch * Dim(output_state, 1) * ElementBytes(cell_state);
  requests.scratch_buffers = {bytes, bytes, bytes, bytes};
}

void ConvRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                  KernelRequests& requests) {
  // TfLiteConvParams: padding, strides, activation, dilations, quantized_bias_type.
  requests.builtin_options = StructLayout(
      build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
  requests.op_data = OpDataConvBytes(build);
  const Tensor* filter = InputTensor(subgraph, node, 1);
  // ConvPrepare allocates the per-channel multiplier and shift for every type, float included.
  const uint64_t channels = Dim(filter, 0);
  requests.persistent_buffers = {channels * 4, channels * 4};
  AddInt4FilterScratch(filter, requests);
}

void DepthwiseConvRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                           KernelRequests& requests) {
  // TfLiteDepthwiseConvParams: padding, strides, depth_multiplier, activation, dilations.
  requests.builtin_options = StructLayout(
      build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
  requests.op_data = OpDataConvBytes(build);
  const Tensor* filter = InputTensor(subgraph, node, 1);
  const uint64_t channels = Dim(filter, 3);  // kDepthwiseConvQuantizedDimension
  requests.persistent_buffers = {channels * 4, channels * 4};
  AddInt4FilterScratch(filter, requests);
}

void TransposeConvRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                           KernelRequests& requests) {
  // TfLiteTransposeConvParams: padding, strides, activation, quantized_bias_type.
  requests.builtin_options =
      StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
  // OpData: ConvParams (padding type, int16 padding values and strides, offsets, multiplier,
  // shift, activation ranges), two buffer indices, the two per-channel arrays.
  requests.op_data =
      StructLayout(build, {F::kUint8, F::kInt16, F::kInt16,   F::kInt16,  F::kInt16, F::kInt16,
                           F::kInt16, F::kInt16, F::kInt16,   F::kInt32,  F::kInt32, F::kInt32,
                           F::kInt32, F::kInt32, F::kInt32,   F::kInt32,  F::kFloat, F::kFloat,
                           F::kInt32, F::kInt32, F::kPointer, F::kPointer})
          .size;
  // Inputs: output shape, filter, input, bias.
  const Tensor* filter = InputTensor(subgraph, node, 1);
  const Tensor* input = InputTensor(subgraph, node, 2);
  const Tensor* bias = InputTensor(subgraph, node, 3);
  const Tensor* output = OutputTensor(subgraph, node, 0);
  const uint64_t channels = Dim(filter, 0);
  requests.persistent_buffers = {channels * 4, channels * 4};
  if (Is(input, TensorType::kInt8)) requests.scratch_buffers.push_back(FlatSize(output) * 4);
  if (Is(input, TensorType::kInt16)) {
    requests.scratch_buffers.push_back(FlatSize(output) * 8);
    // 16-bit biases are widened to int64 into a second scratch buffer.
    if (Is(bias, TensorType::kInt16)) requests.scratch_buffers.push_back(FlatSize(bias) * 8);
  }
}

void FullyConnectedRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                            KernelRequests& requests) {
  // TfLiteFullyConnectedParams: activation, weights_format, keep_num_dims,
  // asymmetric_quantize_inputs, quantized_bias_type.
  requests.builtin_options =
      StructLayout(build, {F::kInt32, F::kInt32, F::kBool, F::kBool, F::kInt32});
  // OpDataFullyConnected: multiplier, shift, activation range, input_quantized_index, three zero
  // points, filter_buffer_index, the per-channel arrays, is_per_channel.
  requests.op_data =
      StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                           F::kInt32, F::kInt32, F::kInt32, F::kPointer, F::kPointer, F::kBool})
          .size;
  const Tensor* filter = InputTensor(subgraph, node, 1);
  if (ScaleCount(filter) > 1) {
    const uint64_t channels = Dim(filter, 0);
    requests.persistent_buffers = {channels * 4, channels * 4};
  }
  AddInt4FilterScratch(filter, requests);
}

void SvdfRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                  KernelRequests& requests) {
  // TfLiteSVDFParams: rank, activation, asymmetric_quantize_inputs.
  requests.builtin_options = StructLayout(build, {F::kInt32, F::kInt32, F::kBool});
  // OpDataSvdf: two effective scales, two shifts, two scratch indices, three zero points.
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                          F::kInt32, F::kInt32, F::kInt32, F::kInt32})
                         .size;
  const Tensor* input = InputTensor(subgraph, node, 0);
  const Tensor* weights_feature = InputTensor(subgraph, node, 1);
  const uint64_t batch = Dim(input, 0);
  const uint64_t filters = Dim(weights_feature, 0);
  const int32_t rank = node.options->svdf_rank > 0 ? node.options->svdf_rank : 1;
  const uint64_t units = filters / static_cast<uint64_t>(rank);
  requests.scratch_buffers.push_back(batch * filters * 4);
  if (Is(input, TensorType::kInt8)) requests.scratch_buffers.push_back(batch * units * 4);
}

void SoftmaxRequests(const Build& build, const Subgraph& subgraph, const Node& node,
                     KernelRequests& requests) {
  requests.builtin_options = StructLayout(build, {F::kFloat});  // TfLiteSoftmaxParams: beta
  // SoftmaxParams (kernels/internal/types.h): beta, six int32s, scale, five table pointers.
  requests.op_data = StructLayout(build, {F::kDouble, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                          F::kInt32, F::kInt32, F::kFloat, F::kPointer, F::kPointer,
                                          F::kPointer, F::kPointer, F::kPointer})
                         .size;
  // An int16 input gets its exp and 1/(1+x) lookup tables of kInt16LUTArraySize (513) entries.
  if (Is(InputTensor(subgraph, node, 0), TensorType::kInt16)) {
    requests.persistent_buffers = {513 * 2, 513 * 2};
  }
}

void PoolRequests(const Build& build, KernelRequests& requests) {
  // TfLitePoolParams: padding, strides, filter size, activation, computed TfLitePaddingValues.
  requests.builtin_options =
      StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                           F::kInt32, F::kInt32, F::kInt32, F::kInt32});
  // OpDataPooling: TfLitePaddingValues, int32 and float activation ranges.
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                          F::kInt32, F::kFloat, F::kFloat})
                         .size;
}

}  // namespace

std::optional<std::string_view> ResolverMethod(std::string_view op) {
  if (auto signal = SignalResolverMethod(op)) return signal;
  if (auto custom = MicroCustomResolverMethod(op)) return custom;
  const OpRule* rule = FindRule(op);
  if (rule == nullptr) return std::nullopt;
  return rule->resolver_method;
}

std::optional<std::string_view> KernelSource(std::string_view op) {
  if (auto signal = SignalKernelSource(op)) return signal;
  if (auto custom = MicroCustomKernelSource(op)) return custom;
  const OpRule* rule = FindRule(op);
  if (rule == nullptr || rule->source.empty()) return std::nullopt;
  return rule->source;
}

Result<KernelRequests> RequestsOfNode(const Build& build, const Subgraph& subgraph,
                                      const Node& node) {
  if (SignalResolverMethod(node.op)) return SignalRequests(build, subgraph, node);
  if (MicroCustomResolverMethod(node.op)) return MicroCustomRequests(build, subgraph, node);
  const OpRule* rule = FindRule(node.op);
  if (rule == nullptr) {
    return Status::Error("TFLite Micro has no kernel for " + node.op + " (rules of " +
                         std::string(kTflmRulesVersion) + ")");
  }
  if (rule->source.empty()) {
    return Status::Error("TFLite Micro's " + node.op + " kernel is not modelled yet (rules of " +
                         std::string(kTflmRulesVersion) + ")");
  }
  KernelRequests requests;
  const std::string_view op = node.op;
  if (op == "CONV_2D") {
    ConvRequests(build, subgraph, node, requests);
  } else if (op == "DEPTHWISE_CONV_2D") {
    DepthwiseConvRequests(build, subgraph, node, requests);
  } else if (op == "TRANSPOSE_CONV") {
    TransposeConvRequests(build, subgraph, node, requests);
  } else if (op == "FULLY_CONNECTED") {
    FullyConnectedRequests(build, subgraph, node, requests);
  } else if (op == "SVDF") {
    SvdfRequests(build, subgraph, node, requests);
  } else if (op == "SOFTMAX") {
    SoftmaxRequests(build, subgraph, node, requests);
  } else if (op == "MAX_POOL_2D" || op == "AVERAGE_POOL_2D") {
    PoolRequests(build, requests);
  } else if (op == "QUANTIZE") {
    // OpDataQuantizeReference: QuantizationParams {zero_point, double scale}, requantize
    // multiplier and shift, input zero point. ParseQuantize allocates no options.
    requests.op_data = StructLayout(build, {}, StructLayout(build, {F::kInt32, F::kDouble}),
                                    {F::kInt32, F::kInt32, F::kInt32})
                           .size;
  } else if (op == "DEQUANTIZE") {
    // DequantizeOpData: DequantizationParams {double scale, zero_point}, output multiplier,
    // shift and zero point. ParseDequantize allocates no options.
    requests.op_data = StructLayout(build, {}, StructLayout(build, {F::kDouble, F::kInt32}),
                                    {F::kInt32, F::kInt32, F::kInt32})
                           .size;
  } else if (op == "RESHAPE") {
    // TfLiteReshapeParams: shape[8], num_dimensions. The kernel has no Init, so no user data.
    requests.builtin_options =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                             F::kInt32, F::kInt32, F::kInt32});
  } else if (op == "ADD") {
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kBool});  // TfLiteAddParams
    // OpDataAdd: requires_broadcast, then fourteen int32 / float fields.
    requests.op_data = StructLayout(build, {F::kBool, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kInt32, F::kFloat, F::kFloat})
                           .size;
  } else if (op == "CONCATENATION") {
    // TfLiteConcatenationParams: axis, activation. OpData: ConcatenationParams
    // (kernels/internal/types.h): int8 axis, the input zero-point and scale pointers,
    // uint16 inputs_count, output zero point and scale.
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kInt32});
    requests.op_data =
        StructLayout(build, {F::kUint8, F::kPointer, F::kPointer, F::kInt16, F::kInt32, F::kFloat})
            .size;
    // No Prepare buffers, int8 included: older kernels kept each int8 input's scale and zero
    // point in two persistent arrays, TFLM 90b983c2b3f1 does not (palm_detection's int8
    // CONCATENATIONs allocate nothing in Prepare there).
  } else if (op == "PAD" || op == "PADV2") {
    // pad.h OpData: PadParams (kernels/internal/types.h: int8 left count, five int32 left
    // paddings, int8 right count, five right paddings, uint8 resizing category) and the output
    // zero point. The parsers allocate no options.
    requests.op_data = StructLayout(build, {F::kUint8, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kUint8, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kUint8, F::kInt32})
                           .size;
  } else if (op == "SUB") {
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kBool});  // TfLiteSubParams
    // OpDataSub: requires_broadcast, then twelve int32 shifts, ranges, multipliers and offsets.
    requests.op_data = StructLayout(build, {F::kBool, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kInt32})
                           .size;
  } else if (op == "EQUAL" || op == "NOT_EQUAL" || op == "GREATER" || op == "GREATER_EQUAL" ||
             op == "LESS" || op == "LESS_EQUAL") {
    // comparisons.cc: OpData {ComparisonParams}, seven int32s and is_broadcast; the parsers
    // allocate no options.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kBool})
                           .size;
  } else if (op == "MUL") {
    requests.builtin_options = StructLayout(build, {F::kInt32});  // TfLiteMulParams
    // OpDataMul: five zero points / ranges, multiplier, shift, float activation range.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32, F::kFloat, F::kFloat})
                           .size;
  } else if (op == "IF" || op == "WHILE") {
    // TfLiteIfParams / TfLiteWhileParams and the OpData each keep the two subgraph indices.
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kInt32});
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;
  } else if (op == "CALL_ONCE") {
    // TfLiteCallOnceParams: init_subgraph_index; OpData: init_subgraph_index, has_run.
    requests.builtin_options = StructLayout(build, {F::kInt32});
    requests.op_data = StructLayout(build, {F::kInt32, F::kBool}).size;
  } else if (op == "BATCH_MATMUL") {
    BatchMatMulRequests(build, subgraph, node, requests);
  } else if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") {
    SequenceLstmRequests(build, subgraph, node, requests);
  } else if (op == "CAST") {
    // TfLiteCastParams: in_data_type, out_data_type. No Init.
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kInt32});
  } else if (op == "DIV") {
    requests.builtin_options = StructLayout(build, {F::kInt32});  // TfLiteDivParams
    // OpDataDiv: three zero points, the activation range, multiplier, shift.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32})
                           .size;
  } else if (op == "LOG_SOFTMAX") {
    // No Init: Prepare allocates LogSoftmaxOpData (five int32s, outer size and depth) for int8.
    if (Is(InputTensor(subgraph, node, 0), TensorType::kInt8)) {
      requests.persistent_buffers.push_back(
          StructLayout(
              build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kSizeT, F::kSizeT})
              .size);
    }
  } else if (op == "VAR_HANDLE") {
    // TfLiteVarHandleParams: container, shared_name; OpData: resource_id. The variable itself
    // is resource_variables.h's.
    requests.builtin_options = StructLayout(build, {F::kPointer, F::kPointer});
    requests.op_data = StructLayout(build, {F::kInt32}).size;
  } else if (op == "GATHER" || op == "PACK" || op == "UNPACK") {
    // TfLiteGatherParams {axis, batch_dims}, TfLitePackParams {values_count, axis},
    // TfLiteUnpackParams {num, axis}. No Init.
    requests.builtin_options = StructLayout(build, {F::kInt32, F::kInt32});
  } else if (op == "SPLIT" || op == "SPLIT_V" || op == "SHAPE") {
    // TfLiteSplitParams / TfLiteSplitVParams: num_splits; TfLiteShapeParams: out_type. No Init.
    requests.builtin_options = StructLayout(build, {F::kInt32});
  } else if (op == "SQUEEZE") {
    // TfLiteSqueezeParams: squeeze_dims[8], num_squeeze_dims. No Init.
    requests.builtin_options =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                             F::kInt32, F::kInt32, F::kInt32});
  } else if (op == "RESIZE_BILINEAR" || op == "RESIZE_NEAREST_NEIGHBOR") {
    // TfLiteResize*Params: align_corners, half_pixel_centers. No Init.
    requests.builtin_options = StructLayout(build, {F::kBool, F::kBool});
  } else if (op == "RELU") {
    // ReluOpData {ReluParams}: ActivationParams (uint8 type, int32 range), input and output
    // offsets, multiplier, shift.
    requests.op_data = StructLayout(build, {F::kUint8, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32})
                           .size;
  } else if (op == "RELU6") {
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;  // Relu6OpData: six, zero
  } else if (op == "ABS" || op == "RSQRT") {
    // OpDataAbsRsqrt: multiplier, shift, two offsets, needs_rescale, quantization type, type.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kBool,
                                            F::kInt32, F::kInt32})
                           .size;
  } else if (op == "TANH") {
    // OpData: input zero point, range radius, multiplier, left shift.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32}).size;
  } else if (op == "HARD_SWISH") {
    // HardSwishParams (kernels/internal/types.h): two int16 zero points, then two int16
    // fixed-point multipliers each with its int exponent.
    requests.op_data =
        StructLayout(build, {F::kInt16, F::kInt16, F::kInt16, F::kInt32, F::kInt16, F::kInt32})
            .size;
  } else if (op == "LEAKY_RELU") {
    requests.builtin_options = StructLayout(build, {F::kFloat});  // TfLiteLeakyReluParams: alpha
    // LeakyReluOpData: two multipliers and shifts, two zero points.
    requests.op_data =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32})
            .size;
  } else if (op == "PRELU") {
    // PreluParams: three offsets, two multipliers and their shifts.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                            F::kInt32, F::kInt32})
                           .size;
  } else if (op == "L2_NORMALIZATION") {
    requests.builtin_options = StructLayout(build, {F::kInt32});  // TfLiteL2NormParams
    requests.op_data = StructLayout(build, {F::kInt32}).size;     // L2NormalizationParams
  } else if (op == "SQUARED_DIFFERENCE") {
    // OpData: requires_broadcast, then ArithmeticParams.
    requests.op_data =
        Members({StructLayout(build, {F::kBool}), ArithmeticParamsLayout(build)}).size;
  } else if (op == "SPACE_TO_BATCH_ND") {
    requests.op_data = StructLayout(build, {F::kInt32}).size;  // SpaceToBatchParams
  } else if (op == "STRIDED_SLICE") {
    // TfLiteStridedSliceParams: five masks, offset.
    requests.builtin_options =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kBool});
    // StridedSliceParams (kernels/internal/types.h): three int8 counts each with int32[5],
    // five uint16 masks, offset.
    const Layout indices =
        StructLayout(build, {F::kUint8, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32});
    requests.op_data = Members({indices, indices, indices,
                                StructLayout(build, {F::kInt16, F::kInt16, F::kInt16, F::kInt16,
                                                     F::kInt16, F::kBool})})
                           .size;
  } else if (op == "MIRROR_PAD") {
    requests.builtin_options = StructLayout(build, {F::kInt32});  // TfLiteMirrorPaddingParams
    // OpDataMirrorPad: five ints. Prepare: two scratch arrays of an int per input dimension.
    requests.op_data =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32}).size;
    const Tensor* input = InputTensor(subgraph, node, 0);
    const uint64_t rank = input == nullptr ? 0 : input->shape.size();
    requests.scratch_buffers = {rank * 4, rank * 4};
  } else if (op == "EMBEDDING_LOOKUP") {
    // No Init: Prepare allocates OpData {float scale; size_t num_columns}.
    requests.persistent_buffers.push_back(StructLayout(build, {F::kFloat, F::kSizeT}).size);
  } else if (op == "ADD_N") {
    // No Init. Prepare: a scratch array of a data pointer per input; for int8 first an OpData
    // of ten ints (ranges, offsets, multipliers, shifts, the scratch index).
    const Tensor* output = OutputTensor(subgraph, node, 0);
    if (Is(output, TensorType::kInt8)) {
      requests.persistent_buffers.push_back(
          StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                               F::kInt32, F::kInt32, F::kInt32, F::kInt32})
              .size);
    }
    requests.scratch_buffers.push_back(PointerSize(build.target) * node.inputs.size());
  } else if (op == "MEAN" || op == "SUM" || op == "REDUCE_MAX" || op == "REDUCE_MIN") {
    ReduceRequests(build, subgraph, node, requests);
  } else if (op == "ARG_MAX" || op == "ARG_MIN") {
    // TfLiteArgMaxParams / TfLiteArgMinParams: output_type. No Init, no Prepare.
    requests.builtin_options = StructLayout(build, {F::kInt32});
  } else if (op == "CUMSUM") {
    // TfLiteCumsumParams: exclusive, reverse. No Init; Prepare allocates the int8 OpData (nine
    // int32 ranges, offsets, multipliers and shifts).
    requests.builtin_options = StructLayout(build, {F::kBool, F::kBool});
    if (Is(InputTensor(subgraph, node, 0), TensorType::kInt8)) {
      requests.persistent_buffers.push_back(
          StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                               F::kInt32, F::kInt32, F::kInt32})
              .size);
    }
  } else if (op == "DEPTH_TO_SPACE" || op == "SPACE_TO_DEPTH" || op == "L2_POOL_2D") {
    // TfLiteDepthToSpaceParams / TfLiteSpaceToDepthParams: block_size; L2_POOL_2D's
    // TfLitePoolParams. No Init; Prepare rewrites the output's dims, first copying them to the
    // tail (kernel_util.cc CreateWritableTensorDimsWithCopy).
    if (op == "L2_POOL_2D") {
      PoolRequests(build, requests);
      requests.op_data = 0;  // unlike MAX_POOL_2D and AVERAGE_POOL_2D, no Init
    } else {
      requests.builtin_options = StructLayout(build, {F::kInt32});
    }
    const Tensor* output = OutputTensor(subgraph, node, 0);
    requests.persistent_buffers.push_back(
        IntArrayBytes(output == nullptr ? 0 : output->shape.size()));
  } else if (op == "ELU") {
    requests.op_data = 256;  // OpData: the int8 lookup table, int8_t table[256]
  } else if (op == "SELECT_V2") {
    requests.op_data = StructLayout(build, {F::kBool, F::kBool}).size;  // two broadcast flags
  } else if (op == "LOGISTIC") {
    // OpDataLogistic: input zero point, range radius, multiplier, left shift.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32}).size;
  }
  if (Status cmsis_nn = ApplyCmsisNnKernel(build, subgraph, node, requests); !cmsis_nn.ok()) {
    return cmsis_nn;
  }
  return requests;
}

}  // namespace tfa::tflm
