#include "runtime/delegates/opencl/opencl_ops.h"

#include <array>
#include <cstring>
#include <map>

#include "runtime/delegates/opencl/op_kernels_source.h"
#include "runtime/kernels/cpu/kernel_util.h"

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
  kConcatenation,
  kCopy,
  kResizeBilinear,
  kResizeNearest,
  kPad,
  kMean,
  kSoftmax,
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
      {"CONCATENATION", {OpKind::kConcatenation}},
      {"RESHAPE", {OpKind::kCopy}},
      {"SQUEEZE", {OpKind::kCopy}},
      {"EXPAND_DIMS", {OpKind::kCopy}},
      {"RESIZE_BILINEAR", {OpKind::kResizeBilinear}},
      {"RESIZE_NEAREST_NEIGHBOR", {OpKind::kResizeNearest}},
      {"PAD", {OpKind::kPad}},
      {"PADV2", {OpKind::kPad}},
      {"MEAN", {OpKind::kMean}},
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

template <typename... Args>
Result<ClStep> Launch(const OpenClProgram& program, const char* name, int64_t work_items,
                      Args... args) {
  auto kernel = program.CreateKernel(name);
  if (!kernel.ok()) return kernel.status();
  cl_uint index = 0;
  Status status;
  ((status.ok() ? (void)(status = SetArg(kernel->get(), index++, args)) : (void)0), ...);
  TFA_RETURN_IF_ERROR(status.WithContext(name));
  ClStep step;
  step.kernel = std::move(*kernel);
  step.global_size = static_cast<size_t>(work_items);
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
std::array<int32_t, 4> Dims4(const std::vector<int32_t>& shape) {
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
  const auto common = [&](const char* name, auto... extra) {
    return Launch(program, name, out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                  Optional(context, buffers, 2), buffers.outputs[0], in.Dim(1), in.Dim(2),
                  in.Dim(3), out.Dim(1), out.Dim(2), out.Dim(3), kh, kw, o.stride_h, o.stride_w,
                  o.dilation_h, o.dilation_w, pad_top, pad_left, has_bias, range->min, range->max,
                  extra...);
  };
  if (depthwise) return common("depthwise_conv2d", out.Dim(3) / in.Dim(3));
  return common("conv2d");
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
                in.Dim(1), in.Dim(2), in.Dim(3), out.Dim(1), out.Dim(2), out.Dim(3), kh, kw,
                stride_h, stride_w, pad_top, pad_left, context.has_input(bias) ? 1 : 0, range.min,
                range.max);
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

Result<ClStep> EncodeBinary(const KernelContext& context, const ClNodeBuffers& buffers,
                            const OpenClProgram& program, int op) {
  const RuntimeTensor& out = context.output(0);
  for (size_t i = 0; i < 2; ++i) {
    if (!buffers.inputs[i] || context.input(i).Rank() > 4)
      return Status::Error("inputs must be float32 tensors of rank 4 or less");
  }
  const auto out_dims = Dims4(out.shape);
  std::array<std::array<int32_t, 4>, 2> strides{};
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<int64_t> s = BroadcastStrides(context.input(i).shape, out.shape);
    const size_t offset = 4 - s.size();
    strides[i] = {0, 0, 0, 0};
    for (size_t d = 0; d < s.size(); ++d) strides[i][offset + d] = static_cast<int32_t>(s[d]);
  }
  ActivationRange range = GetActivationRange(Activation::kNone).value();
  if (op != static_cast<int>(ClBinaryOp::kPrelu)) {
    auto fused = FusedRange(context);
    if (!fused.ok()) return fused.status();
    range = *fused;
  }
  return Launch(program, "binary", out.NumElements(), buffers.inputs[0], buffers.inputs[1],
                buffers.outputs[0], out_dims[1], out_dims[2], out_dims[3], strides[0][0],
                strides[0][1], strides[0][2], strides[0][3], strides[1][0], strides[1][1],
                strides[1][2], strides[1][3], op, range.min, range.max);
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
  return Launch(program, "pool2d", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                in.Dim(1), in.Dim(2), in.Dim(3), out.Dim(1), out.Dim(2), o.filter_h, o.filter_w,
                o.stride_h, o.stride_w, pad_top, pad_left, average ? 1 : 0, range->min, range->max);
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
  const float scale_h = ResizeScale(in.Dim(1), out.Dim(1), o.align_corners);
  const float scale_w = ResizeScale(in.Dim(2), out.Dim(2), o.align_corners);
  const int32_t half_pixel = o.half_pixel_centers ? 1 : 0;
  if (bilinear) {
    return Launch(program, "resize_bilinear", out.NumElements(), buffers.inputs[0],
                  buffers.outputs[0], in.Dim(1), in.Dim(2), in.Dim(3), out.Dim(1), out.Dim(2),
                  scale_h, scale_w, half_pixel);
  }
  return Launch(program, "resize_nearest", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                in.Dim(1), in.Dim(2), in.Dim(3), out.Dim(1), out.Dim(2), scale_h, scale_w,
                o.align_corners ? 1 : 0, half_pixel);
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
  const auto in_dims = Dims4(in.shape), out_dims = Dims4(out.shape);
  return Launch(program, "pad", out.NumElements(), buffers.inputs[0], buffers.outputs[0],
                out_dims[1], out_dims[2], out_dims[3], in_dims[0], in_dims[1], in_dims[2],
                in_dims[3], before[0], before[1], before[2], before[3], value);
}

Result<ClStep> EncodeMean(const KernelContext& context, const ClNodeBuffers& buffers,
                          const OpenClProgram& program) {
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
  const auto dims = Dims4(in.shape);
  return Launch(program, "mean", context.output(0).NumElements(), buffers.inputs[0],
                buffers.outputs[0], dims[0], dims[1], dims[2], dims[3], reduced[0], reduced[1],
                reduced[2], reduced[3]);
}

}  // namespace

bool OpenClHasKernelFor(const std::string& op) { return OpTable().count(op) > 0; }

Result<std::vector<ClStep>> EncodeNode(const KernelContext& context, const ClNodeBuffers& buffers,
                                       const OpenClProgram& program) {
  const auto entry = OpTable().find(context.node->op);
  if (entry == OpTable().end())
    return Status::Error("the OpenCL delegate has no kernel for " + context.node->op);
  TFA_RETURN_IF_ERROR(CheckFloat(context, buffers));
  const RuntimeTensor& out = context.output(0);
  const auto one = [](Result<ClStep> step) -> Result<std::vector<ClStep>> {
    if (!step.ok()) return step.status();
    std::vector<ClStep> steps;
    steps.push_back(std::move(*step));
    return steps;
  };
  if (entry->second.kind != OpKind::kTransposeConv && !buffers.inputs[0])
    return Status::Error("input 0 must be a float32 tensor");
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
    case OpKind::kMean:
      return one(EncodeMean(context, buffers, program));
    case OpKind::kSoftmax:
      return one(Launch(program, "softmax", out.NumElements(), buffers.inputs[0],
                        buffers.outputs[0], out.Dim(out.Rank() - 1), context.options().beta));
  }
  return Status::Error("unreachable op kind");
}

}  // namespace tfa::runtime
