#include "runtime/delegates/opencl/opencl_ops.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstring>
#include <map>
#include <span>

#include "runtime/delegates/opencl/op_kernels_source.h"
#include "runtime/delegates/opencl/opencl_quantization.h"
#include "runtime/kernels/cpu/cpu_kernels.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/lstm_layout.h"
#include "runtime/kernels/cpu/max_pool_argmax.h"

namespace tfa::runtime {
namespace {

enum class OpKind {
  kConv,
  kDepthwiseConv,
  kTransposeConv,
  kTransposeConvBias,
  kFullyConnected,
  kBinary,
  kUnary,
  kAveragePool,
  kMaxPool,
  kMaxPoolArgmax,
  kMaxUnpool,
  kConcatenation,
  kCopy,
  kResizeBilinear,
  kResizeNearest,
  kPad,
  kReduce,
  kSoftmax,
  kIndexMap,
  kUnpack,
  kPack,
  kTile,
  kCast,
  kAddN,
  kBatchMatmul,
  kCompare,
  kLogicalAnd,
  kSelect,
  kFakeQuant,
  kLstm,
  kFoldedOnly,
};

struct OpEntry {
  OpKind kind;
  int code = 0;  // ClBinaryOp / ClUnaryOp
};

const std::map<std::string, OpEntry>& OpTable() {
  static const std::map<std::string, OpEntry> kTable = {
      {"CONV_2D", {OpKind::kConv}},
      {"DEPTHWISE_CONV_2D", {OpKind::kDepthwiseConv}},
      {"TRANSPOSE_CONV", {OpKind::kTransposeConv}},
      {"Convolution2DTransposeBias", {OpKind::kTransposeConvBias}},
      {"FULLY_CONNECTED", {OpKind::kFullyConnected}},
      {"LSTM", {OpKind::kLstm}},
      {"ADD", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kAdd)}},
      {"SUB", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kSub)}},
      {"MUL", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kMul)}},
      {"DIV", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kDiv)}},
      {"MAXIMUM", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kMaximum)}},
      {"MINIMUM", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kMinimum)}},
      {"SQUARED_DIFFERENCE", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kSquaredDifference)}},
      {"POW", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kPow)}},
      {"PRELU", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kPrelu)}},
      {"RELU", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kRelu)}},
      {"RELU6", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kRelu6)}},
      {"RELU_N1_TO_1", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kReluN1To1)}},
      {"RELU_0_TO_1", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kRelu0To1)}},
      {"LOGISTIC", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kLogistic)}},
      {"TANH", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kTanh)}},
      {"HARD_SWISH", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kHardSwish)}},
      {"ELU", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kElu)}},
      {"LEAKY_RELU", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kLeakyRelu)}},
      {"ABS", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kAbs)}},
      {"EXP", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kExp)}},
      {"LOG", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kLog)}},
      {"SQRT", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kSqrt)}},
      {"RSQRT", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kRsqrt)}},
      {"SQUARE", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kSquare)}},
      {"NEG", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kNeg)}},
      {"SIN", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kSin)}},
      {"COS", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kCos)}},
      {"FLOOR", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kFloor)}},
      {"AVERAGE_POOL_2D", {OpKind::kAveragePool}},
      {"MAX_POOL_2D", {OpKind::kMaxPool}},
      {"MaxPoolingWithArgmax2D", {OpKind::kMaxPoolArgmax}},
      {"MaxUnpooling2D", {OpKind::kMaxUnpool}},
      {"CONCATENATION", {OpKind::kConcatenation}},
      {"RESHAPE", {OpKind::kCopy}},
      {"SQUEEZE", {OpKind::kCopy}},
      {"EXPAND_DIMS", {OpKind::kCopy}},
      {"RESIZE_BILINEAR", {OpKind::kResizeBilinear}},
      {"RESIZE_NEAREST_NEIGHBOR", {OpKind::kResizeNearest}},
      {"PAD", {OpKind::kPad}},
      {"PADV2", {OpKind::kPad}},
      {"MEAN", {OpKind::kReduce, static_cast<int>(ClReduceOp::kMean)}},
      {"SUM", {OpKind::kReduce, static_cast<int>(ClReduceOp::kSum)}},
      {"REDUCE_MAX", {OpKind::kReduce, static_cast<int>(ClReduceOp::kMax)}},
      {"REDUCE_MIN", {OpKind::kReduce, static_cast<int>(ClReduceOp::kMin)}},
      {"REDUCE_PROD", {OpKind::kReduce, static_cast<int>(ClReduceOp::kProd)}},
      {"FLOOR_DIV", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kFloorDiv)}},
      {"FLOOR_MOD", {OpKind::kBinary, static_cast<int>(ClBinaryOp::kFloorMod)}},
      {"SIGN", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kSign)}},
      {"GELU", {OpKind::kUnary, static_cast<int>(ClUnaryOp::kGelu)}},
      // Index maps: `code` is the input that holds the data.
      {"SLICE", {OpKind::kIndexMap, 0}},
      {"STRIDED_SLICE", {OpKind::kIndexMap, 0}},
      {"TRANSPOSE", {OpKind::kIndexMap, 0}},
      {"DEPTH_TO_SPACE", {OpKind::kIndexMap, 0}},
      {"SPACE_TO_DEPTH", {OpKind::kIndexMap, 0}},
      {"MIRROR_PAD", {OpKind::kIndexMap, 0}},
      {"GATHER", {OpKind::kIndexMap, 0}},
      {"SPLIT", {OpKind::kIndexMap, 1}},
      {"SPLIT_V", {OpKind::kIndexMap, 0}},
      {"UNPACK", {OpKind::kUnpack}},
      {"PACK", {OpKind::kPack}},
      {"TILE", {OpKind::kTile}},
      {"CAST", {OpKind::kCast}},
      {"ADD_N", {OpKind::kAddN}},
      {"BATCH_MATMUL", {OpKind::kBatchMatmul}},
      // Comparisons: `code` is the compare kernel's op.
      {"EQUAL", {OpKind::kCompare, 0}},
      {"NOT_EQUAL", {OpKind::kCompare, 1}},
      {"GREATER", {OpKind::kCompare, 2}},
      {"GREATER_EQUAL", {OpKind::kCompare, 3}},
      {"LESS", {OpKind::kCompare, 4}},
      {"LESS_EQUAL", {OpKind::kCompare, 5}},
      {"LOGICAL_AND", {OpKind::kLogicalAnd}},
      {"SELECT", {OpKind::kSelect}},
      {"SELECT_V2", {OpKind::kSelect}},
      // Its input is a constant in the models the GPU delegate takes (sparse weights): the
      // partition kernel folds it at Prepare.
      {"DENSIFY", {OpKind::kFoldedOnly}},
      // From a constant (fp16 or int8 weights) folded at Prepare like DENSIFY; from a tensor, a
      // quantize-and-dequantize round trip with the quantized side's parameters (`code` is 1
      // where that is the input, 0 where it is the output).
      {"DEQUANTIZE", {OpKind::kFakeQuant, 1}},
      {"QUANTIZE", {OpKind::kFakeQuant, 0}},
      {"SOFTMAX", {OpKind::kSoftmax}},
  };
  return kTable;
}

// Sets the kernel's arguments in order: buffers, ints and floats.
Status SetArg(cl_kernel kernel, cl_uint index, cl_mem value) {
  return CheckCl(clSetKernelArg(kernel, index, sizeof(cl_mem), &value), "clSetKernelArg");
}
Status SetArg(cl_kernel kernel, cl_uint index, int32_t value) {
  const cl_int v = value;
  return CheckCl(clSetKernelArg(kernel, index, sizeof(cl_int), &v), "clSetKernelArg");
}
Status SetArg(cl_kernel kernel, cl_uint index, float value) {
  const cl_float v = value;
  return CheckCl(clSetKernelArg(kernel, index, sizeof(cl_float), &v), "clSetKernelArg");
}
// Shapes, strides and window geometry as the kernels' int4 (dims right-aligned to rank 4).
Status SetArg(cl_kernel kernel, cl_uint index, const std::array<int32_t, 4>& value) {
  cl_int4 v;
  for (size_t i = 0; i < value.size(); ++i) v.s[i] = value[i];
  return CheckCl(clSetKernelArg(kernel, index, sizeof(cl_int4), &v), "clSetKernelArg");
}
Status SetArg(cl_kernel kernel, cl_uint index, const std::array<float, 2>& value) {
  cl_float2 v;
  v.s[0] = value[0];
  v.s[1] = value[1];
  return CheckCl(clSetKernelArg(kernel, index, sizeof(cl_float2), &v), "clSetKernelArg");
}

// Work-items per work-group. A fixed size, rather than letting the driver choose one per global
// size, means one compiled variant per kernel: PoCL compiles a kernel again for every local
// size it meets (a tenth of a second each), and a model has many shapes.
constexpr size_t kWorkGroupSize = 64;

// The kernel `name` over `work_items` elements with `args`, then the element count, as its
// arguments.
template <typename... Args>
Result<ClStep> Launch(const OpenClProgram& program, const char* name, int64_t work_items,
                      Args... args) {
  auto kernel = program.CreateKernel(name);
  if (!kernel.ok()) return kernel.status();
  cl_uint index = 0;
  Status status;
  ((status.ok() ? (void)(status = SetArg(kernel->get(), index++, args)) : (void)0), ...);
  if (status.ok()) status = SetArg(kernel->get(), index, static_cast<int32_t>(work_items));
  TFA_RETURN_IF_ERROR(status.WithContext(name));
  size_t kernel_limit = 0;
  TFA_RETURN_IF_ERROR(
      CheckCl(clGetKernelWorkGroupInfo(kernel->get(), nullptr, CL_KERNEL_WORK_GROUP_SIZE,
                                       sizeof(kernel_limit), &kernel_limit, nullptr),
              "clGetKernelWorkGroupInfo"));
  ClStep step;
  step.kernel = std::move(*kernel);
  step.local_size = std::max<size_t>(1, std::min(kWorkGroupSize, kernel_limit));
  step.global_size =
      (static_cast<size_t>(work_items) + step.local_size - 1) / step.local_size * step.local_size;
  return step;
}

Status CheckFloat(const KernelContext& context, const ClNodeBuffers& buffers) {
  for (size_t i = 0; i < context.outputs.size(); ++i) {
    if (!context.outputs[i] || context.outputs[i]->type != TensorType::kFloat32 ||
        !buffers.outputs[i]) {
      return Status::Error("the OpenCL delegate computes float32 outputs only");
    }
    if (context.outputs[i]->Rank() > 4) return Status::Error("ranks above 4 are not supported");
  }
  return Status::Ok();
}

// A tensor's shape right-aligned to rank 4.
std::array<int32_t, 4> Dims4(std::span<const int32_t> shape) {
  std::array<int32_t, 4> dims = {1, 1, 1, 1};
  const size_t offset = 4 - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) dims[offset + i] = shape[i];
  return dims;
}

Result<ActivationRange> FusedRange(const KernelContext& context) {
  return GetActivationRange(context.options().fused_activation);
}

cl_mem Optional(const KernelContext& context, const ClNodeBuffers& buffers, size_t input) {
  return context.has_input(input) && buffers.inputs[input] ? buffers.inputs[input] : buffers.empty;
}

Result<ClStep> EncodeConv(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program, bool depthwise) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& filter = context.input(1);
  const RuntimeTensor& out = context.output(0);
  const OpOptions& o = context.options();
  auto range = FusedRange(context);
  if (!range.ok()) return range.status();
  const int32_t kh = filter.Dim(1), kw = filter.Dim(2);
  const int32_t pad_top =
      ConvPaddingBefore(o.padding, in.Dim(1), kh, o.stride_h, o.dilation_h, out.Dim(1));
  const int32_t pad_left =
      ConvPaddingBefore(o.padding, in.Dim(2), kw, o.stride_w, o.dilation_w, out.Dim(2));
  const int32_t has_bias = context.has_input(2) ? 1 : 0;
  if (!depthwise && filter.Dim(3) != in.Dim(3))
    return Status::Error("grouped convolutions are not supported");
  const int32_t multiplier = depthwise ? out.Dim(3) / in.Dim(3) : 0;
  return Launch(program, "conv2d", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                Optional(context, buffers, 2), buffers.outputs[0], Dims4(in.shape),
                Dims4(out.shape), std::array<int32_t, 4>{kh, kw, o.stride_h, o.stride_w},
                std::array<int32_t, 4>{o.dilation_h, o.dilation_w, pad_top, pad_left}, multiplier,
                has_bias, range->min, range->max);
}

Result<ClStep> EncodeTransposeConv(const KernelContext& context, const ClNodeBuffers& buffers,
                                   const OpenClProgram& program, bool custom_bias) {
  // Input positions and padding as the CPU kernels (transpose_conv.h) read them.
  const size_t input = custom_bias ? 0 : 2, filter_index = 1, bias = custom_bias ? 2 : 3;
  const RuntimeTensor& in = context.input(input);
  const RuntimeTensor& filter = context.input(filter_index);
  const RuntimeTensor& out = context.output(0);
  const int32_t kh = filter.Dim(1), kw = filter.Dim(2);
  int32_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  ActivationRange range = GetActivationRange(Activation::kNone).value();
  if (custom_bias) {
    const auto options =
        context.node_data ? context.node_data->custom_options : std::span<const uint8_t>();
    int32_t params[3];  // TfLiteTransposeConvParams: padding, stride_width, stride_height
    if (options.size() < sizeof(params))
      return Status::Error("custom options hold fewer than 12 bytes");
    std::memcpy(params, options.data(), sizeof(params));
    constexpr int32_t kTfLitePaddingSame = 1;
    stride_w = params[1];
    stride_h = params[2];
    if (params[0] == kTfLitePaddingSame) {
      pad_top = std::max(0, kh - (in.Dim(1) - 1) % stride_h - 1) / 2;
      pad_left = std::max(0, kw - (in.Dim(2) - 1) % stride_w - 1) / 2;
    }
  } else {
    const OpOptions& o = context.options();
    stride_h = o.stride_h;
    stride_w = o.stride_w;
    pad_top = ConvPaddingBefore(o.padding, out.Dim(1), kh, stride_h, 1,
                                ConvOutputSize(o.padding, out.Dim(1), kh, stride_h, 1));
    pad_left = ConvPaddingBefore(o.padding, out.Dim(2), kw, stride_w, 1,
                                 ConvOutputSize(o.padding, out.Dim(2), kw, stride_w, 1));
    auto fused = FusedRange(context);
    if (!fused.ok()) return fused.status();
    range = *fused;
  }
  return Launch(program, "transpose_conv2d", out.NumElements(), buffers.inputs[input],
                buffers.inputs[filter_index], Optional(context, buffers, bias), buffers.outputs[0],
                Dims4(in.shape), Dims4(out.shape),
                std::array<int32_t, 4>{kh, kw, stride_h, stride_w},
                std::array<int32_t, 4>{1, 1, pad_top, pad_left}, context.has_input(bias) ? 1 : 0,
                range.min, range.max);
}

Result<ClStep> EncodeFullyConnected(const KernelContext& context, const ClNodeBuffers& buffers,
                                    const OpenClProgram& program) {
  const RuntimeTensor& weights = context.input(1);
  if (context.options().weights_format != 0)
    return Status::Error("shuffled fully-connected weights are not supported");
  auto range = FusedRange(context);
  if (!range.ok()) return range.status();
  return Launch(program, "fully_connected", context.output(0).NumElements(), buffers.inputs[0],
                buffers.inputs[1], Optional(context, buffers, 2), buffers.outputs[0],
                weights.Dim(1), weights.Dim(0), context.has_input(2) ? 1 : 0, range->min,
                range->max);
}

// `input`'s element strides over `out`'s dims right-aligned to rank 4, 0 on broadcast dims.
std::array<int32_t, 4> Strides4(const RuntimeTensor& input, const RuntimeTensor& out) {
  const std::vector<int64_t> s = BroadcastStrides(input.shape, out.shape);
  std::array<int32_t, 4> strides = {0, 0, 0, 0};
  const size_t offset = 4 - s.size();
  for (size_t d = 0; d < s.size(); ++d) strides[offset + d] = static_cast<int32_t>(s[d]);
  return strides;
}

// Comparisons, LOGICAL_AND and SELECT: elementwise with broadcasting, bool tensors as bytes.
Result<ClStep> EncodeLogical(const KernelContext& context, const ClNodeBuffers& buffers,
                             const OpenClProgram& program, OpKind kind, int op) {
  const RuntimeTensor& out = context.output(0);
  const size_t operands = kind == OpKind::kSelect ? 3 : 2;
  if (context.inputs.size() != operands) return Status::Error("unexpected number of inputs");
  const TensorType operand_type =
      kind == OpKind::kLogicalAnd ? TensorType::kBool : TensorType::kFloat32;
  for (size_t i = 0; i < operands; ++i) {
    const TensorType expected =
        kind == OpKind::kSelect && i == 0 ? TensorType::kBool : operand_type;
    if (!buffers.inputs[i] || context.input(i).type != expected || context.input(i).Rank() > 4)
      return Status::Error("input " + std::to_string(i) + " must be a " + TensorTypeName(expected) +
                           " tensor of rank 4 or less");
  }
  const TensorType out_type = kind == OpKind::kSelect ? TensorType::kFloat32 : TensorType::kBool;
  if (out.type != out_type)
    return Status::Error(std::string("the output must be ") + TensorTypeName(out_type));
  const auto dims = Dims4(out.shape);
  const auto a = Strides4(context.input(0), out), b = Strides4(context.input(1), out);
  if (kind == OpKind::kCompare) {
    return Launch(program, "compare", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                  buffers.outputs[0], dims, a, b, op);
  }
  if (kind == OpKind::kLogicalAnd) {
    return Launch(program, "logical_and", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                  buffers.outputs[0], dims, a, b);
  }
  return Launch(program, "select_where", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                buffers.inputs[2], buffers.outputs[0], dims, a, b, Strides4(context.input(2), out));
}

Result<ClStep> EncodeBinary(const KernelContext& context, const ClNodeBuffers& buffers,
                            const OpenClProgram& program, int op) {
  const RuntimeTensor& out = context.output(0);
  for (size_t i = 0; i < 2; ++i) {
    if (!buffers.inputs[i] || context.input(i).Rank() > 4)
      return Status::Error("inputs must be float32 tensors of rank 4 or less");
  }
  ActivationRange range = GetActivationRange(Activation::kNone).value();
  if (op != static_cast<int>(ClBinaryOp::kPrelu)) {
    auto fused = FusedRange(context);
    if (!fused.ok()) return fused.status();
    range = *fused;
  }
  return Launch(program, "binary", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                buffers.outputs[0], Dims4(out.shape), Strides4(context.input(0), out),
                Strides4(context.input(1), out), op, range.min, range.max);
}

Result<ClStep> EncodePool(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program, bool average) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  const OpOptions& o = context.options();
  auto range = FusedRange(context);
  if (!range.ok()) return range.status();
  const int32_t pad_top =
      ConvPaddingBefore(o.padding, in.Dim(1), o.filter_h, o.stride_h, 1, out.Dim(1));
  const int32_t pad_left =
      ConvPaddingBefore(o.padding, in.Dim(2), o.filter_w, o.stride_w, 1, out.Dim(2));
  return Launch(
      program, "pool2d", out.NumElements(), buffers.inputs[0], buffers.outputs[0], Dims4(in.shape),
      Dims4(out.shape), std::array<int32_t, 4>{o.filter_h, o.filter_w, o.stride_h, o.stride_w},
      std::array<int32_t, 4>{1, 1, pad_top, pad_left}, average ? 1 : 0, range->min, range->max);
}

// MediaPipe's argmax pooling pair: the window from the CPU kernel's reading of the options.
Result<ClStep> EncodeArgmaxPool(const KernelContext& context, const ClNodeBuffers& buffers,
                                const OpenClProgram& program, bool unpool) {
  auto window = unpool ? MaxUnpoolingWindow(context) : MaxPoolingWithArgmaxWindow(context);
  if (!window.ok()) return window.status();
  const ArgmaxWindow& w = *window;
  const std::array<int32_t, 4> geometry = {w.filter_h, w.filter_w, w.stride_h, w.stride_w};
  const std::array<int32_t, 4> pad = {w.pad_top, w.pad_left, 0, 0};
  const RuntimeTensor& out = context.output(0);
  if (unpool) {
    if (!buffers.inputs[1]) return Status::Error("indices must be a device tensor");
    return Launch(program, "max_unpool", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                  buffers.outputs[0], Dims4(context.input(0).shape), Dims4(out.shape), geometry,
                  pad);
  }
  auto range = GetActivationRange(w.activation);
  if (!range.ok()) return range.status();
  if (!buffers.outputs[1]) return Status::Error("indices must be a device tensor");
  return Launch(program, "max_pool_argmax", out.NumElements(), buffers.inputs[0],
                buffers.outputs[0], buffers.outputs[1], Dims4(context.input(0).shape),
                Dims4(out.shape), geometry, pad, range->min, range->max);
}

Result<std::vector<ClStep>> EncodeConcatenation(const KernelContext& context,
                                                const ClNodeBuffers& buffers,
                                                const OpenClProgram& program) {
  if (context.options().fused_activation != Activation::kNone)
    return Status::Error("a fused activation on CONCATENATION is not supported");
  const RuntimeTensor& out = context.output(0);
  auto axis = ResolveAxis(context.options().axis, out.Rank());
  if (!axis.ok()) return axis.status();
  int32_t inner = 1;
  for (int d = *axis + 1; d < out.Rank(); ++d) inner *= out.Dim(d);
  std::vector<ClStep> steps;
  int32_t offset = 0;
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (!buffers.inputs[i]) return Status::Error("inputs must be float32 tensors");
    const RuntimeTensor& in = context.input(i);
    auto step = Launch(program, "concat_part", in.NumElements(), buffers.inputs[i],
                       buffers.outputs[0], in.Dim(*axis), inner, out.Dim(*axis), offset);
    if (!step.ok()) return step.status();
    steps.push_back(std::move(*step));
    offset += in.Dim(*axis);
  }
  return steps;
}

float ResizeScale(int32_t in, int32_t out, bool align_corners) {
  if (align_corners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

Result<ClStep> EncodeResize(const KernelContext& context, const ClNodeBuffers& buffers,
                            const OpenClProgram& program, bool bilinear) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  const OpOptions& o = context.options();
  const std::array<float, 2> scale = {ResizeScale(in.Dim(1), out.Dim(1), o.align_corners),
                                      ResizeScale(in.Dim(2), out.Dim(2), o.align_corners)};
  const int32_t half_pixel = o.half_pixel_centers ? 1 : 0;
  if (bilinear) {
    return Launch(program, "resize_bilinear", out.NumElements(), buffers.inputs[0],
                  buffers.outputs[0], Dims4(in.shape), Dims4(out.shape), scale, half_pixel);
  }
  return Launch(program, "resize_nearest", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                Dims4(in.shape), Dims4(out.shape), scale, o.align_corners ? 1 : 0, half_pixel);
}

Result<ClStep> EncodePad(const KernelContext& context, const ClNodeBuffers& buffers,
                         const OpenClProgram& program) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  auto paddings = ReadIndexTensor(context.input(1), "paddings");
  if (!paddings.ok()) return paddings.status();
  if (paddings->size() != 2 * static_cast<size_t>(in.Rank()))
    return Status::Error("paddings must be [rank, 2]");
  std::array<int32_t, 4> before = {0, 0, 0, 0};
  const size_t offset = 4 - static_cast<size_t>(in.Rank());
  for (size_t d = 0; d < static_cast<size_t>(in.Rank()); ++d)
    before[offset + d] = static_cast<int32_t>((*paddings)[2 * d]);
  float value = 0.0f;
  if (context.has_input(2)) {
    const RuntimeTensor& pad_value = context.input(2);
    if (pad_value.type != TensorType::kFloat32 || !pad_value.is_constant || !pad_value.data)
      return Status::Error("the pad value must be a float32 constant");
    value = pad_value.Data<const float>()[0];
  }
  return Launch(program, "pad", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                Dims4(out.shape), Dims4(in.shape), before, value);
}

Result<ClStep> EncodeReduce(const KernelContext& context, const ClNodeBuffers& buffers,
                            const OpenClProgram& program, int op) {
  const RuntimeTensor& in = context.input(0);
  auto axes = ReadIndexTensor(context.input(1), "axes");
  if (!axes.ok()) return axes.status();
  std::array<int32_t, 4> reduced = {0, 0, 0, 0};
  const int offset = 4 - in.Rank();
  for (int64_t axis : *axes) {
    auto resolved = ResolveAxis(axis, in.Rank());
    if (!resolved.ok()) return resolved.status();
    reduced[static_cast<size_t>(offset + *resolved)] = 1;
  }
  return Launch(program, "reduce", context.output(0).NumElements(), buffers.inputs[0],
                buffers.outputs[0], Dims4(in.shape), reduced, op);
}

Result<ClMem> UploadIndices(const OpenClDevice& device, const std::vector<int32_t>& indices) {
  auto buffer = CreateBuffer(device, indices.size() * sizeof(int32_t));
  if (!buffer.ok()) return buffer.status();
  if (indices.empty()) return buffer;
  TFA_RETURN_IF_ERROR(CheckCl(
      clEnqueueWriteBuffer(device.queue(), buffer->get(), CL_TRUE, 0,
                           indices.size() * sizeof(int32_t), indices.data(), 0, nullptr, nullptr),
      "clEnqueueWriteBuffer"));
  return buffer;
}

// Runs the op's CPU kernel on a tensor of element indices in place of input `data_input`: each
// output then holds, per element, the index of the input element it copies. The CPU kernels of
// these ops move elements of any type, so the map reproduces their exact semantics (clamping,
// masks, negative axes). Other inputs (begin/end, permutations, paddings, indices) must be
// constants: the map is computed once.
Result<std::vector<ClStep>> EncodeIndexMap(const KernelContext& context,
                                           const ClNodeBuffers& buffers,
                                           const OpenClProgram& program, const OpenClDevice& device,
                                           size_t data_input) {
  const KernelRegistration* cpu = FindCpuKernel(context.node->op);
  if (!cpu) return Status::Error("no CPU kernel to compute the index map with");
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (i != data_input && context.has_input(i) && !context.input(i).is_constant)
      return Status::Error("input " + std::to_string(i) + " must be a constant");
  }
  RuntimeTensor data = context.input(data_input);
  if (!buffers.inputs[data_input] || data.bytes != 4 * static_cast<uint64_t>(data.NumElements()))
    return Status::Error("the data input must be a device tensor of 4-byte elements");
  std::vector<int32_t> positions(static_cast<size_t>(data.NumElements()));
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<int32_t>(i);
  data.type = TensorType::kInt32;
  data.quantization = nullptr;
  data.data = reinterpret_cast<uint8_t*>(positions.data());
  KernelContext map_context = context;
  map_context.inputs[data_input] = &data;
  std::vector<RuntimeTensor> outputs(context.outputs.size());
  std::vector<std::vector<int32_t>> maps(context.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i] = context.output(i);
    outputs[i].type = TensorType::kInt32;
    outputs[i].quantization = nullptr;
    maps[i].resize(static_cast<size_t>(outputs[i].NumElements()));
    outputs[i].data = reinterpret_cast<uint8_t*>(maps[i].data());
    map_context.outputs[i] = &outputs[i];
  }
  TFA_RETURN_IF_ERROR(cpu->prepare(map_context));
  std::vector<uint8_t> scratch(static_cast<size_t>(map_context.scratch_bytes));
  map_context.scratch = scratch.data();
  TFA_RETURN_IF_ERROR(cpu->eval(map_context));
  std::vector<ClStep> steps;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!buffers.outputs[i] || maps[i].empty()) continue;
    auto map = UploadIndices(device, maps[i]);
    if (!map.ok()) return map.status();
    auto step = Launch(program, "gather_map", static_cast<int64_t>(maps[i].size()),
                       buffers.inputs[data_input], map->get(), buffers.outputs[i]);
    if (!step.ok()) return step.status();
    step->owned = std::move(*map);
    step->uploaded_bytes = maps[i].size() * sizeof(int32_t);
    steps.push_back(std::move(*step));
  }
  return steps;
}

// The product of `shape`'s dims after `axis`.
int32_t InnerSize(std::span<const int32_t> shape, int axis) {
  int32_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  return inner;
}

// UNPACK (output i is the input's slice i along the axis, the axis dropped) and PACK (input i
// becomes slice i of a new axis of the output): one split_part or concat_part per slice.
Result<std::vector<ClStep>> EncodeSlices(const KernelContext& context, const ClNodeBuffers& buffers,
                                         const OpenClProgram& program, bool pack) {
  const RuntimeTensor& whole = pack ? context.output(0) : context.input(0);
  auto axis = ResolveAxis(context.options().axis, whole.Rank());
  if (!axis.ok()) return axis.status();
  const int32_t inner = InnerSize(whole.shape, *axis);
  const std::vector<cl_mem>& slices = pack ? buffers.inputs : buffers.outputs;
  std::vector<ClStep> steps;
  for (size_t i = 0; i < slices.size(); ++i) {
    if (!slices[i])
      return Status::Error(std::string(pack ? "inputs" : "outputs") + " must be device tensors");
    const int64_t elements = (pack ? context.input(i) : context.output(i)).NumElements();
    const int32_t slice = static_cast<int32_t>(i);
    auto step = pack ? Launch(program, "concat_part", elements, slices[i], buffers.outputs[0], 1,
                              inner, whole.Dim(*axis), slice)
                     : Launch(program, "split_part", elements, buffers.inputs[0], slices[i], 1,
                              inner, whole.Dim(*axis), slice);
    if (!step.ok()) return step.status();
    steps.push_back(std::move(*step));
  }
  return steps;
}

// QUANTIZE / DEQUANTIZE on float values (upstream parses both as QUANTIZE_AND_DEQUANTIZE). The
// context holds the interpreter's tensors (the quantized side int8 or uint8); the buffers are
// float (the quantized side's float twin, opencl_quantization.h).
Result<ClStep> EncodeFakeQuant(const KernelContext& context, const ClNodeBuffers& buffers,
                               const OpenClProgram& program, bool quantized_input) {
  const RuntimeTensor& quantized = quantized_input ? context.input(0) : context.output(0);
  auto range = FakeQuantRangeOf(quantized, program.precision());
  if (!range.ok()) return range.status();
  return Launch(program, "quantize_dequantize", context.output(0).NumElements(), buffers.inputs[0],
                buffers.outputs[0], range->min, range->max, range->scale);
}

Result<ClStep> EncodeTile(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  if (in.Rank() != out.Rank()) return Status::Error("TILE keeps the rank");
  for (int d = 0; d < in.Rank(); ++d) {
    if (in.Dim(d) == 0 || out.Dim(d) % in.Dim(d) != 0)
      return Status::Error("output dims must be multiples of the input's");
  }
  return Launch(program, "tile", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                Dims4(out.shape), Dims4(in.shape));
}

Result<ClStep> EncodeCast(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program) {
  const TensorType from = context.input(0).type, to = context.output(0).type;
  const RuntimeTensor& out = context.output(0);
  if (from == to) {
    ClStep step;
    step.copy_from = buffers.inputs[0];
    step.copy_to = buffers.outputs[0];
    step.copy_bytes = static_cast<size_t>(out.bytes);
    return step;
  }
  if (from == TensorType::kFloat32 && to == TensorType::kInt32)
    return Launch(program, "cast_float_to_int", out.NumElements(), buffers.inputs[0],
                  buffers.outputs[0]);
  if (from == TensorType::kInt32 && to == TensorType::kFloat32)
    return Launch(program, "cast_int_to_float", out.NumElements(), buffers.inputs[0],
                  buffers.outputs[0]);
  if (from == TensorType::kBool && to == TensorType::kFloat32)
    return Launch(program, "cast_bool_to_float", out.NumElements(), buffers.inputs[0],
                  buffers.outputs[0]);
  return Status::Error("CAST from float32, int32 or bool to float32, or float32 to int32 only");
}

// ADD_N: out = in0 + in1, then out += in_k (each work-item reads and writes its own element).
Result<std::vector<ClStep>> EncodeAddN(const KernelContext& context, const ClNodeBuffers& buffers,
                                       const OpenClProgram& program) {
  const RuntimeTensor& out = context.output(0);
  const auto dims = Dims4(out.shape);
  const std::array<int32_t, 4> dense = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
  std::vector<ClStep> steps;
  for (size_t i = 1; i < context.inputs.size(); ++i) {
    if (!buffers.inputs[i] || context.input(i).shape != out.shape)
      return Status::Error("inputs must be float32 tensors of the output's shape");
    const cl_mem sum = i == 1 ? buffers.inputs[0] : buffers.outputs[0];
    auto step =
        Launch(program, "binary", out.NumElements(), sum, buffers.inputs[i], buffers.outputs[0],
               dims, dense, dense, static_cast<int>(ClBinaryOp::kAdd), -FLT_MAX, FLT_MAX);
    if (!step.ok()) return step.status();
    steps.push_back(std::move(*step));
  }
  return steps;
}

Result<ClStep> EncodeBatchMatmul(const KernelContext& context, const ClNodeBuffers& buffers,
                                 const OpenClProgram& program) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  const RuntimeTensor& out = context.output(0);
  if (!buffers.inputs[1] || a.Rank() < 2 || b.Rank() < 2 || out.Rank() < 2)
    return Status::Error("inputs must be float32 tensors of rank 2 or more");
  const OpOptions& o = context.options();
  const int32_t m = out.Dim(out.Rank() - 2), n = out.Dim(out.Rank() - 1);
  const int32_t k = o.adj_x ? a.Dim(a.Rank() - 2) : a.Dim(a.Rank() - 1);
  const int64_t batches = out.NumElements() / (static_cast<int64_t>(m) * n);
  const int64_t a_batches = a.NumElements() / (static_cast<int64_t>(m) * k);
  const int64_t b_batches = b.NumElements() / (static_cast<int64_t>(k) * n);
  if ((a_batches != batches && a_batches != 1) || (b_batches != batches && b_batches != 1))
    return Status::Error("batch dims must match or be 1");
  return Launch(program, "batch_matmul", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                buffers.outputs[0], m, n, k, a_batches == 1 ? 0 : m * k, b_batches == 1 ? 0 : k * n,
                o.adj_x ? 1 : 0, o.adj_y ? 1 : 0);
}

// LSTM's basic kernel as upstream's GPU delegate builds it (model_builder.cc
// LSTMOperationParser::ParseBasic): a concatenation of the input and the previous activation into
// output 2, a fully connected layer into output 3, then the cell (tasks/lstm.cc) into outputs 0
// and 1. The CPU kernel's Prepare has checked the shapes and types. The new state and activation
// stay on the device: upstream's graph does not write them back over the state inputs.
Result<std::vector<ClStep>> EncodeBasicLstm(const KernelContext& context,
                                            const ClNodeBuffers& buffers,
                                            const OpenClProgram& program) {
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (!buffers.inputs[i])
      return Status::Error("input " + std::to_string(i) + " must be a float device tensor");
  }
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& concat = context.output(2);
  const int32_t batch = input.Dim(0), input_depth = input.Dim(1);
  const int32_t depth = context.input(1).Dim(1), total_depth = concat.Dim(1);
  std::vector<ClStep> steps;
  const auto add = [&steps](Result<ClStep> step) {
    if (step.ok()) steps.push_back(std::move(*step));
    return step.status();
  };
  TFA_RETURN_IF_ERROR(add(Launch(program, "concat_part", input.NumElements(), buffers.inputs[0],
                                 buffers.outputs[2], input_depth, 1, total_depth, 0)));
  TFA_RETURN_IF_ERROR(
      add(Launch(program, "concat_part", context.input(1).NumElements(), buffers.inputs[1],
                 buffers.outputs[2], depth, 1, total_depth, input_depth)));
  TFA_RETURN_IF_ERROR(
      add(Launch(program, "fully_connected", context.output(3).NumElements(), buffers.outputs[2],
                 buffers.inputs[2], buffers.inputs[3], buffers.outputs[3], total_depth, 4 * depth,
                 1, -FLT_MAX, FLT_MAX)));
  TFA_RETURN_IF_ERROR(
      add(Launch(program, "basic_lstm_cell", int64_t{batch} * depth, buffers.outputs[3],
                 buffers.inputs[4], buffers.outputs[0], buffers.outputs[1], depth)));
  return steps;
}

// LSTM's full kernel at batch 1, the form upstream's GPU delegate builds (lstm_parser.cc refuses
// a batch). One launch of one work-item with a scratch buffer of its own (op_kernels_source).
Result<ClStep> EncodeLstm(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program, const OpenClDevice& device) {
  const TensorType f32 = TensorType::kFloat32;
  auto s = lstm::ReadLayout(context, {.input = f32,
                                      .weights = f32,
                                      .bias = f32,
                                      .peephole = f32,
                                      .projection_bias = f32,
                                      .output_state = f32,
                                      .cell_state = f32,
                                      .output = f32});
  if (!s.ok()) return s.status();
  if (s->batch != 1) return Status::Error("Batched execution is not supported for LSTM");
  int32_t activation = 0;
  switch (context.options().fused_activation) {
    case Activation::kNone:
      break;
    case Activation::kRelu:
      activation = 1;
      break;
    case Activation::kRelu6:
      activation = 3;
      break;
    case Activation::kTanh:
      activation = 4;
      break;
    default:
      return Status::Error("unsupported LSTM activation");
  }
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (context.has_input(i) && !buffers.inputs[i])
      return Status::Error("input " + std::to_string(i) + " must be a float device tensor");
  }
  const int32_t flags = (s->cifg ? 1 : 0) | (s->peephole ? 2 : 0) | (s->layer_norm ? 4 : 0) |
                        (s->projection ? 8 : 0) |
                        (context.has_input(lstm::kProjectionBias) ? 16 : 0);
  const uint64_t scratch_bytes = 6 * static_cast<uint64_t>(s->n_cell) * sizeof(float);
  auto scratch = CreateBuffer(device, static_cast<size_t>(scratch_bytes));
  if (!scratch.ok()) return scratch.status();
  const auto in = [&](size_t i) { return Optional(context, buffers, i); };
  const float cell_clip = context.options().cell_clip;
  const float proj_clip = context.options().proj_clip;
  auto step =
      Launch(program, "lstm_step", 1, in(0), in(1), in(2), in(3), in(4), in(5), in(6), in(7), in(8),
             in(9), in(10), in(11), in(12), in(13), in(14), in(15), in(16), in(17), in(18), in(19),
             in(20), in(21), in(22), in(23), buffers.outputs[0], scratch->get(),
             std::array<int32_t, 4>{s->n_input, s->n_cell, s->n_output, flags}, activation,
             std::array<float, 2>{cell_clip, proj_clip});
  if (!step.ok()) return step.status();
  step->owned = std::move(*scratch);
  step->owned_bytes = scratch_bytes;
  return step;
}

}  // namespace

bool OpenClHasKernelFor(const std::string& op) { return OpTable().count(op) > 0; }

Status EnqueueStep(cl_command_queue queue, const ClStep& step) {
  if (step.kernel) {
    if (step.global_size == 0) return Status::Ok();
    return CheckCl(clEnqueueNDRangeKernel(queue, step.kernel.get(), 1, nullptr, &step.global_size,
                                          &step.local_size, 0, nullptr, nullptr),
                   "clEnqueueNDRangeKernel");
  }
  if (step.copy_bytes == 0) return Status::Ok();
  return CheckCl(clEnqueueCopyBuffer(queue, step.copy_from, step.copy_to, 0, 0, step.copy_bytes, 0,
                                     nullptr, nullptr),
                 "clEnqueueCopyBuffer");
}

Result<ClStep> EncodeStorageRounding(cl_mem buffer, int64_t elements,
                                     const OpenClProgram& program) {
  return Launch(program, "round_to_storage", elements, buffer);
}

std::vector<std::string> OpenClOpNames() {
  std::vector<std::string> names;
  for (const auto& [name, entry] : OpTable()) names.push_back(name);
  return names;
}

bool OpenClMovesAnyElementType(const std::string& op) {
  const auto entry = OpTable().find(op);
  if (entry == OpTable().end()) return false;
  switch (entry->second.kind) {
    case OpKind::kCopy:
    case OpKind::kIndexMap:
    case OpKind::kUnpack:
    case OpKind::kPack:
    case OpKind::kTile:
    case OpKind::kCast:
    case OpKind::kCompare:
    case OpKind::kLogicalAnd:
    case OpKind::kSelect:
      return true;
    default:
      return false;
  }
}

Result<std::vector<ClStep>> EncodeNode(const KernelContext& context, const ClNodeBuffers& buffers,
                                       const OpenClProgram& program, const OpenClDevice& device) {
  const auto entry = OpTable().find(context.node->op);
  if (entry == OpTable().end())
    return Status::Error("the OpenCL delegate has no kernel for " + context.node->op);
  if (entry->second.kind == OpKind::kFoldedOnly)
    return Status::Error("the OpenCL delegate computes it only from constant inputs, at Prepare");
  if (entry->second.kind == OpKind::kFakeQuant) {
    if (!buffers.inputs[0] || !buffers.outputs[0])
      return Status::Error("input and output must be device tensors (float, or quantized ones)");
    if (context.output(0).Rank() > 4) return Status::Error("ranks above 4 are not supported");
  } else if (OpenClMovesAnyElementType(context.node->op)) {
    for (size_t i = 0; i < context.outputs.size(); ++i) {
      if (!context.outputs[i] || !buffers.outputs[i])
        return Status::Error("outputs must be device tensors");
      if (context.outputs[i]->Rank() > 4) return Status::Error("ranks above 4 are not supported");
    }
  } else {
    TFA_RETURN_IF_ERROR(CheckFloat(context, buffers));
  }
  const RuntimeTensor& out = context.output(0);
  const auto one = [](Result<ClStep> step) -> Result<std::vector<ClStep>> {
    if (!step.ok()) return step.status();
    std::vector<ClStep> steps;
    steps.push_back(std::move(*step));
    return steps;
  };
  const bool data_not_first = entry->second.kind == OpKind::kTransposeConv ||
                              (entry->second.kind == OpKind::kIndexMap && entry->second.code != 0);
  if (!data_not_first && !buffers.inputs[0])
    return Status::Error("input 0 must be a device tensor");
  switch (entry->second.kind) {
    case OpKind::kConv:
      return one(EncodeConv(context, buffers, program, false));
    case OpKind::kDepthwiseConv:
      return one(EncodeConv(context, buffers, program, true));
    case OpKind::kTransposeConv:
      return one(EncodeTransposeConv(context, buffers, program, false));
    case OpKind::kTransposeConvBias:
      return one(EncodeTransposeConv(context, buffers, program, true));
    case OpKind::kFullyConnected:
      return one(EncodeFullyConnected(context, buffers, program));
    case OpKind::kBinary:
      return one(EncodeBinary(context, buffers, program, entry->second.code));
    case OpKind::kUnary:
      return one(Launch(program, "unary", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                        entry->second.code, context.options().alpha));
    case OpKind::kAveragePool:
      return one(EncodePool(context, buffers, program, true));
    case OpKind::kMaxPool:
      return one(EncodePool(context, buffers, program, false));
    case OpKind::kMaxPoolArgmax:
      return one(EncodeArgmaxPool(context, buffers, program, false));
    case OpKind::kMaxUnpool:
      return one(EncodeArgmaxPool(context, buffers, program, true));
    case OpKind::kConcatenation:
      return EncodeConcatenation(context, buffers, program);
    case OpKind::kCopy: {
      ClStep step;
      step.copy_from = buffers.inputs[0];
      step.copy_to = buffers.outputs[0];
      step.copy_bytes = static_cast<size_t>(out.bytes);
      return one(std::move(step));
    }
    case OpKind::kResizeBilinear:
      return one(EncodeResize(context, buffers, program, true));
    case OpKind::kResizeNearest:
      return one(EncodeResize(context, buffers, program, false));
    case OpKind::kPad:
      return one(EncodePad(context, buffers, program));
    case OpKind::kReduce:
      return one(EncodeReduce(context, buffers, program, entry->second.code));
    case OpKind::kSoftmax:
      return one(Launch(program, "softmax", out.NumElements(), buffers.inputs[0],
                        buffers.outputs[0], out.Dim(out.Rank() - 1), context.options().beta));
    case OpKind::kIndexMap:
      return EncodeIndexMap(context, buffers, program, device,
                            static_cast<size_t>(entry->second.code));
    case OpKind::kUnpack:
      return EncodeSlices(context, buffers, program, false);
    case OpKind::kPack:
      return EncodeSlices(context, buffers, program, true);
    case OpKind::kTile:
      return one(EncodeTile(context, buffers, program));
    case OpKind::kCast:
      return one(EncodeCast(context, buffers, program));
    case OpKind::kAddN:
      return EncodeAddN(context, buffers, program);
    case OpKind::kBatchMatmul:
      return one(EncodeBatchMatmul(context, buffers, program));
    case OpKind::kCompare:
    case OpKind::kLogicalAnd:
    case OpKind::kSelect:
      return one(EncodeLogical(context, buffers, program, entry->second.kind, entry->second.code));
    case OpKind::kFakeQuant:
      return one(EncodeFakeQuant(context, buffers, program, entry->second.code == 1));
    case OpKind::kLstm:
      if (context.options().lstm_basic_kernel) return EncodeBasicLstm(context, buffers, program);
      return one(EncodeLstm(context, buffers, program, device));
    case OpKind::kFoldedOnly:
      break;
  }
  return Status::Error("unreachable op kind");
}

}  // namespace tfa::runtime
