#include "libanalysis/tflm/tflm_kernels.h"

#include <array>
#include <string>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/tensor_type.h"

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
    OpRule{"ABS", "AddAbs", ""},
    OpRule{"ADD", "AddAdd", "add.h, add_common.cc"},
    OpRule{"ADD_N", "AddAddN", ""},
    OpRule{"ARG_MAX", "AddArgMax", ""},
    OpRule{"ARG_MIN", "AddArgMin", ""},
    OpRule{"ASSIGN_VARIABLE", "AddAssignVariable", ""},
    OpRule{"AVERAGE_POOL_2D", "AddAveragePool2D", "pooling.h, pooling_common.cc"},
    OpRule{"BATCH_MATMUL", "AddBatchMatMul", ""},
    OpRule{"BATCH_TO_SPACE_ND", "AddBatchToSpaceNd", ""},
    OpRule{"BROADCAST_ARGS", "AddBroadcastArgs", ""},
    OpRule{"BROADCAST_TO", "AddBroadcastTo", ""},
    OpRule{"CALL_ONCE", "AddCallOnce", "call_once.cc"},
    OpRule{"CAST", "AddCast", ""},
    OpRule{"CEIL", "AddCeil", ""},
    OpRule{"CONCATENATION", "AddConcatenation", "concatenation.cc"},
    OpRule{"CONV_2D", "AddConv2D", "conv.h, conv_common.cc"},
    OpRule{"COS", "AddCos", ""},
    OpRule{"CUMSUM", "AddCumSum", ""},
    OpRule{"DEPTH_TO_SPACE", "AddDepthToSpace", ""},
    OpRule{"DEPTHWISE_CONV_2D", "AddDepthwiseConv2D", "depthwise_conv.h, depthwise_conv_common.cc"},
    OpRule{"DEQUANTIZE", "AddDequantize", "dequantize.h, dequantize_common.cc"},
    OpRule{"DIV", "AddDiv", ""},
    OpRule{"ELU", "AddElu", ""},
    OpRule{"EMBEDDING_LOOKUP", "AddEmbeddingLookup", ""},
    OpRule{"EQUAL", "AddEqual", "comparisons.cc"},
    OpRule{"EXP", "AddExp", ""},
    OpRule{"EXPAND_DIMS", "AddExpandDims", ""},
    OpRule{"FILL", "AddFill", ""},
    OpRule{"FLOOR", "AddFloor", ""},
    OpRule{"FLOOR_DIV", "AddFloorDiv", ""},
    OpRule{"FLOOR_MOD", "AddFloorMod", ""},
    OpRule{"FULLY_CONNECTED", "AddFullyConnected", "fully_connected.h, fully_connected.cc"},
    OpRule{"GATHER", "AddGather", ""},
    OpRule{"GATHER_ND", "AddGatherNd", ""},
    OpRule{"GREATER", "AddGreater", "comparisons.cc"},
    OpRule{"GREATER_EQUAL", "AddGreaterEqual", "comparisons.cc"},
    OpRule{"HARD_SWISH", "AddHardSwish", ""},
    OpRule{"IF", "AddIf", "if.cc"},
    OpRule{"L2_NORMALIZATION", "AddL2Normalization", ""},
    OpRule{"L2_POOL_2D", "AddL2Pool2D", ""},
    OpRule{"LEAKY_RELU", "AddLeakyRelu", ""},
    OpRule{"LESS", "AddLess", "comparisons.cc"},
    OpRule{"LESS_EQUAL", "AddLessEqual", "comparisons.cc"},
    OpRule{"LOG", "AddLog", ""},
    OpRule{"LOG_SOFTMAX", "AddLogSoftmax", ""},
    OpRule{"LOGICAL_AND", "AddLogicalAnd", ""},
    OpRule{"LOGICAL_NOT", "AddLogicalNot", ""},
    OpRule{"LOGICAL_OR", "AddLogicalOr", ""},
    OpRule{"LOGISTIC", "AddLogistic", "logistic.h, logistic_common.cc"},
    OpRule{"MAX_POOL_2D", "AddMaxPool2D", "pooling.h, pooling_common.cc"},
    OpRule{"MAXIMUM", "AddMaximum", ""},
    OpRule{"MEAN", "AddMean", ""},
    OpRule{"MINIMUM", "AddMinimum", ""},
    OpRule{"MIRROR_PAD", "AddMirrorPad", ""},
    OpRule{"MUL", "AddMul", "mul.h, mul_common.cc"},
    OpRule{"NEG", "AddNeg", ""},
    OpRule{"NOT_EQUAL", "AddNotEqual", "comparisons.cc"},
    OpRule{"PACK", "AddPack", ""},
    OpRule{"PAD", "AddPad", "pad.h, pad_common.cc"},
    OpRule{"PADV2", "AddPadV2", "pad.h, pad_common.cc"},
    OpRule{"PRELU", "AddPrelu", ""},
    OpRule{"QUANTIZE", "AddQuantize", "quantize.h, quantize_common.cc"},
    OpRule{"READ_VARIABLE", "AddReadVariable", ""},
    OpRule{"REDUCE_MAX", "AddReduceMax", ""},
    OpRule{"REDUCE_MIN", "AddReduceMin", ""},
    OpRule{"RELU", "AddRelu", ""},
    OpRule{"RELU6", "AddRelu6", ""},
    OpRule{"RESHAPE", "AddReshape", "reshape.cc, reshape_common.cc"},
    OpRule{"RESIZE_BILINEAR", "AddResizeBilinear", ""},
    OpRule{"RESIZE_NEAREST_NEIGHBOR", "AddResizeNearestNeighbor", ""},
    OpRule{"REVERSE_V2", "AddReverse", ""},
    OpRule{"ROUND", "AddRound", ""},
    OpRule{"RSQRT", "AddRsqrt", ""},
    OpRule{"SELECT_V2", "AddSelectV2", ""},
    OpRule{"SHAPE", "AddShape", ""},
    OpRule{"SIN", "AddSin", ""},
    OpRule{"SLICE", "AddSlice", ""},
    OpRule{"SOFTMAX", "AddSoftmax", "softmax.h, softmax_common.cc"},
    OpRule{"SPACE_TO_BATCH_ND", "AddSpaceToBatchNd", ""},
    OpRule{"SPACE_TO_DEPTH", "AddSpaceToDepth", ""},
    OpRule{"SPLIT", "AddSplit", ""},
    OpRule{"SPLIT_V", "AddSplitV", ""},
    OpRule{"SQRT", "AddSqrt", ""},
    OpRule{"SQUARE", "AddSquare", ""},
    OpRule{"SQUARED_DIFFERENCE", "AddSquaredDifference", ""},
    OpRule{"SQUEEZE", "AddSqueeze", ""},
    OpRule{"STRIDED_SLICE", "AddStridedSlice", ""},
    OpRule{"SUB", "AddSub", "sub.h, sub_common.cc"},
    OpRule{"SUM", "AddSum", ""},
    OpRule{"SVDF", "AddSvdf", "svdf.h, svdf_common.cc"},
    OpRule{"TANH", "AddTanh", ""},
    OpRule{"TRANSPOSE", "AddTranspose", ""},
    OpRule{"TRANSPOSE_CONV", "AddTransposeConv", "transpose_conv.cc"},
    OpRule{"UNIDIRECTIONAL_SEQUENCE_LSTM", "AddUnidirectionalSequenceLSTM", ""},
    OpRule{"UNPACK", "AddUnpack", ""},
    OpRule{"VAR_HANDLE", "AddVarHandle", ""},
    OpRule{"WHILE", "AddWhile", "while.cc"},
    OpRule{"ZEROS_LIKE", "AddZerosLike", ""},
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
  const OpRule* rule = FindRule(op);
  if (rule == nullptr) return std::nullopt;
  return rule->resolver_method;
}

std::optional<std::string_view> KernelSource(std::string_view op) {
  const OpRule* rule = FindRule(op);
  if (rule == nullptr || rule->source.empty()) return std::nullopt;
  return rule->source;
}

Result<KernelRequests> RequestsOfNode(const Build& build, const Subgraph& subgraph,
                                      const Node& node) {
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
  } else if (op == "LOGISTIC") {
    // OpDataLogistic: input zero point, range radius, multiplier, left shift.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32}).size;
  }
  return requests;
}

}  // namespace tfa::tflm
