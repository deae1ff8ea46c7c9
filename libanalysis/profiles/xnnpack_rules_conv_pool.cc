// XNNPACK visits of the convolutions, pools and matrix products.

#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa::xnnpack_visit {

namespace {

Reason PoolNode(const Visit& v, bool quantizable) {
  const int32_t in = v.input_id(0);
  const int32_t out = v.output_id(0);
  if (quantizable) {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
  } else {
    if (Reason r = v.CheckTensorFloat32Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32Type(out)) return r;
  }
  if (Reason r = v.CheckPoolingParams()) return r;
  if (Reason r = v.CalculatePadding()) return r;
  return v.ConvertActivationToOutputRange(v.options().fused_activation);
}

// The tensor checks CONV_2D and DEPTHWISE_CONV_2D share, in upstream's order: a 4-D input; a 4-D
// filter quantized along `filter_quantized_dimension`, static or quasi-static; a present 1-D
// static bias; a 4-D output.
Reason ConvolutionTensors(const Visit& v, int filter_quantized_dimension) {
  const int32_t in = v.input_id(0);
  const int32_t filter = v.input_id(1);
  const int32_t out = v.output_id(0);
  if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
  if (Reason r = v.CheckTensorShape(in, 4)) return r;
  if (Reason r = v.CheckTensorFloat32OrQCInt8Type(filter, filter_quantized_dimension)) return r;
  if (Reason r = v.CheckTensorShape(filter, 4)) return r;
  if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
  const int32_t bias = v.input_id(2);
  if (bias < 0) {
    return Format("unsupported %s node #%d without bias", v.op_name().c_str(), v.node_index());
  }
  if (Reason r = v.CheckBias(bias)) return r;
  if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
  return v.CheckTensorShape(out, 4);
}

// CalculateTransposeConvPaddings (dilation 1).
Reason TransposeConvPaddings(const Visit& v, int input_height, int input_width, int kernel_height,
                             int kernel_width, int output_height, int output_width) {
  const OpOptions& o = v.options();
  switch (o.padding) {
    case Padding::kValid:
      if (kernel_height > output_height || kernel_width > output_width) {
        return Format(
            "output smaller than effective kernel dimensions unsupported with VALID padding in "
            "TRANSPOSE_CONV node #%d: effective kernel size %dx%d (HxW), output %dx%d",
            v.node_index(), kernel_height, kernel_width, output_height, output_width);
      }
      return std::nullopt;
    case Padding::kSame: {
      // ComputePaddingHeightWidth with SAME: the input a convolution would take to produce the
      // output size.
      if (o.stride_h <= 0 || o.stride_w <= 0) {
        return Format("invalid stride in TRANSPOSE_CONV node #%d", v.node_index());
      }
      const int expected_height = (output_height + o.stride_h - 1) / o.stride_h;
      const int expected_width = (output_width + o.stride_w - 1) / o.stride_w;
      if (expected_height != input_height || expected_width != input_width) {
        return Format(
            "inconsistent combination of parameters for TRANSPOSE_CONV op in node #%d: computed "
            "input size %dx%d (HxW), actual %dx%d",
            v.node_index(), expected_height, expected_width, input_height, input_width);
      }
      if (kernel_height < o.stride_h || kernel_width < o.stride_w) {
        return Format(
            "strides larger than effective kernel dimensions unsupported in TRANSPOSE_CONV node "
            "#%d: kernel size %dx%d (HxW), strides %dx%d",
            v.node_index(), kernel_height, kernel_width, o.stride_h, o.stride_w);
      }
      return std::nullopt;
    }
    case Padding::kUnknown:
      break;
  }
  return v.CalculatePadding();
}

}  // namespace

CheckOutcome AveragePool2dNode(const NodeContext& context) {
  return RunCounted(context, 1, 1,
                    [](const Visit& v) { return PoolNode(v, /*quantizable=*/false); });
}

CheckOutcome MaxPool2dNode(const NodeContext& context) {
  return RunCounted(context, 1, 1,
                    [](const Visit& v) { return PoolNode(v, /*quantizable=*/true); });
}

// ----- VisitBatchMatMulNode -----

CheckOutcome BatchMatMulNode(const NodeContext& context) {
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t a = v.input_id(0);
    const int32_t b = v.input_id(1);
    if (Reason r = v.CheckTensorFloat32Type(a)) return r;
    const int rank_b = Rank(v.tensor(b));
    if (Reason r =
            v.CheckTensorFloat32OrQCInt8Type(b, v.options().adj_y ? rank_b - 2 : rank_b - 1)) {
      return r;
    }
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    for (const int32_t id : {a, b}) {
      if (Rank(v.tensor(id)) < 2) {
        return Format(
            "failed to delegate BATCH_MATMUL node #%d. Unsupported number of dimensions %d for "
            "tensor #%d, must be at least 2",
            v.node_index(), Rank(v.tensor(id)), id);
      }
    }
    return std::nullopt;
  });
}

CheckOutcome Conv2dNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckStridesAndDilations(/*dilations=*/true)) return Outcome(r);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = ConvolutionTensors(v, /*filter_quantized_dimension=*/0)) return r;
    const TensorType in_type = v.tensor(in).type;
    const TensorType filter_type = v.tensor(filter).type;
    const bool dynamically_quantized = v.flags().enable_latest_operators &&
                                       in_type == TensorType::kFloat32 &&
                                       filter_type == TensorType::kInt8;
    if (in_type != v.tensor(out).type || (in_type != filter_type && !dynamically_quantized)) {
      return Format("unsupported mixed types in CONV_2D operator #%d", v.node_index());
    }
    const int input_channels = Dim(v.tensor(filter), 3);
    if (input_channels == 0 || Dim(v.tensor(in), 3) / input_channels == 0) {
      return Format("groups of zero is not supported by CONV_2D operator #%d", v.node_index());
    }
    if (Reason r = v.CalculatePadding()) return r;
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

CheckOutcome DepthwiseConv2dNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = ConvolutionTensors(v, /*filter_quantized_dimension=*/3)) return r;
    const TensorType in_type = v.tensor(in).type;
    if (in_type != v.tensor(out).type || in_type != v.tensor(filter).type) {
      return Format("unsupported mixed types in DEPTHWISE_CONV_2D operator #%d", v.node_index());
    }
    // CheckDepthwiseConvolutionParams.
    const OpOptions& o = v.options();
    const int output_channels = Dim(v.tensor(filter), 3);
    if (Reason r = v.CheckStridesAndDilations(/*dilations=*/false)) return r;
    if (o.depth_multiplier <= 0) {
      return Format("invalid depth multiplier %d in node #%d", o.depth_multiplier, v.node_index());
    }
    if (output_channels % o.depth_multiplier != 0) {
      return Format(
          "depth multiplier %d is incompatible with number of output channels %d in node #%d",
          o.depth_multiplier, output_channels, v.node_index());
    }
    if (o.dilation_w <= 0) {
      return Format("invalid dilation width factor %d in node #%d", o.dilation_w, v.node_index());
    }
    if (o.dilation_h <= 0) {
      return Format("invalid dilation height factor %d in node #%d", o.dilation_h, v.node_index());
    }
    if (Reason r = v.CalculatePadding()) return r;
    return v.ConvertActivationToOutputRange(o.fused_activation);
  });
}

CheckOutcome TransposeConvNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 4, 1)) return Outcome(r);
  return Run(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t output_shape = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t in = v.input_id(2);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorType(output_shape, TensorType::kInt32)) return r;
    // Upstream names TRANSPOSE here, not TRANSPOSE_CONV.
    if (Reason r = v.CheckShapeTensorShape(output_shape, false, "TRANSPOSE")) return r;
    if (Reason r = v.CheckTensorStaticAllocation(output_shape, "TRANSPOSE_CONV")) return r;
    if (Dim(v.tensor(output_shape), 0) != 4) {
      return Format(
          "unsupported number of output shape dimensions (%d) in node #%d: 4 dimensions expected",
          Dim(v.tensor(output_shape), 0), v.node_index());
    }
    if (Reason r = v.CheckTensorShape(filter, 4)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorFloat32OrQCInt8Type(filter, 0)) return r;
    if (v.num_inputs() >= 4 && v.input_id(3) >= 0) {
      if (Reason r = v.CheckBias(v.input_id(3))) return r;
    }
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 4)) return r;
    const Tensor& input = v.tensor(in);
    const Tensor& weights = v.tensor(filter);
    // The output-shape tensor's values, read from the output tensor's shape.
    const Tensor& output = v.tensor(out);
    if (Dim(weights, 0) != Dim(output, 3)) {
      return Format(
          "transpose convolution kernel output channel dimension (%d) doesn't match output shape "
          "channel dimension (%d) in node #%d: 4 dimensions expected",
          Dim(weights, 0), Dim(output, 3), v.node_index());
    }
    if (Dim(weights, 3) != Dim(input, 3)) {
      return Format(
          "transpose convolution kernel input channel dimension (%d) doesn't match filter input "
          "channel (%d) in node #%d",
          Dim(weights, 3), Dim(input, 3), v.node_index());
    }
    if (Reason r = TransposeConvPaddings(v, Dim(input, 1), Dim(input, 2), Dim(weights, 1),
                                         Dim(weights, 2), Dim(output, 1), Dim(output, 2))) {
      return r;
    }
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

CheckOutcome FullyConnectedNode(const NodeContext& context) {
  // VisitNode: version 8 is FULLY_CONNECTED with sparse weights.
  if (context.node.version == 8) {
    return CheckOutcome::Reject(Format("Unsupported version %d of FullyConnected.", 8));
  }
  const Visit probe(context);
  if (probe.options().weights_format != 0) {
    return Outcome(
        Format("unsupported non-default weights format in node #%d", probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputsAndOutputs(2, 3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(filter, 2)) return r;
    const Tensor& weights = v.tensor(filter);
    // Dynamic weights and biases are allowed, float32 only, with the dynamic FC flag.
    if (!(v.flags().dynamic_fully_connected && weights.type == TensorType::kFloat32)) {
      if (Reason r = v.CheckTensorFloat32OrFloat16OrQCInt4OrQCInt8Type(filter, 0)) return r;
      if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    }
    const int output_channels = Dim(weights, 0);
    const int input_channels = Dim(weights, 1);
    if (v.num_inputs() >= 3 && v.input_id(2) >= 0) {
      const int32_t bias = v.input_id(2);
      if (!(v.flags().dynamic_fully_connected && v.tensor(bias).type == TensorType::kFloat32)) {
        const int64_t bias_elements = NumElements(v.tensor(bias));
        if (bias_elements != output_channels) {
          // Upstream prints the input tensor's index as "node".
          return Format(
              "Fully Connected: Mismatch between number of bias elements %d and number of output "
              "channels %d at node %d",
              static_cast<int>(bias_elements), output_channels, in);
        }
        if (Reason r = v.CheckTensorFloat32OrFloat16OrQCInt32Type(bias)) return r;
        if (Reason r = v.CheckStaticUnlessQuasiStatic(bias)) return r;
      }
    }
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    const TensorType in_type = v.tensor(in).type;
    const TensorType w_type = weights.type;
    const bool int_weights = w_type == TensorType::kInt4 || w_type == TensorType::kInt8;
    const bool dynamically_quantized =
        v.flags().enable_latest_operators && in_type == TensorType::kFloat32 && int_weights;
    const bool supported_srq = in_type == TensorType::kInt8 && int_weights;
    if (in_type != v.tensor(out).type ||
        (in_type != w_type && !(dynamically_quantized || supported_srq))) {
      return Format("unsupported mixed types in FULLY_CONNECTED operator #%d", v.node_index());
    }
    if (w_type == TensorType::kInt4 && input_channels % 2 == 1) {
      return Format(
          "unsupported odd number of inputs channels (%d) in FULLY_CONNECTED operator #%d",
          input_channels, v.node_index());
    }
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

}  // namespace tfa::xnnpack_visit
