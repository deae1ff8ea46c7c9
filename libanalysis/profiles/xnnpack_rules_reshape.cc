// XNNPACK visits of the shape and layout ops: concatenation, reshapes, slices, splits, padding,
// transposes, the moves between space and depth, resizes.

#include <algorithm>
#include <cinttypes>
#include <utility>

#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa::xnnpack_visit {

namespace {

// "Some models contain illegal crop info" (VisitStridedSliceNode): a crop past the input's
// extent refuses the node. Masked bits read 0 for begin and end.
Reason StridedSliceCrops(const Visit& v, int num_dims) {
  const int64_t* begin = v.known_values(v.input_id(1), num_dims);
  const int64_t* end = v.known_values(v.input_id(2), num_dims);
  if (begin == nullptr || end == nullptr) return std::nullopt;
  const OpOptions& o = v.options();
  for (int i = 0; i < num_dims; ++i) {
    const int64_t b = (o.begin_mask & (1 << i)) != 0 ? 0 : begin[i];
    const int64_t e = (o.end_mask & (1 << i)) != 0 ? 0 : o.offset ? end[i] + b : end[i];
    const int64_t extent = Dim(v.input(0), i);
    const int64_t offset = b < 0 ? b + extent : b;
    const int64_t size = e <= 0 ? e + extent - offset : e - offset;
    if (offset + size > extent) {
      return Format("offset %" PRId64 " + size %" PRId64 " exceeds extent %" PRId64
                    " in STRIDED_SLICE node #%d for dimension %d",
                    offset, size, extent, v.node_index(), i);
    }
  }
  return std::nullopt;
}

}  // namespace

// ----- VisitConcatenationNode -----

CheckOutcome ConcatenationNode(const NodeContext& context) {
  const Visit probe(context);
  // XNNPACK defines concatenations of 2 to 5 inputs only (xnn_define_concatenate2..5).
  if (Reason r = probe.CheckNumInputsAndOutputs(2, 5, 1)) return Outcome(r);
  return Run(context, probe.num_inputs(), 1, [](const Visit& v) -> Reason {
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    const Tensor& output = v.tensor(out);
    if (output.type == TensorType::kUInt8) {
      for (int i = 0; i < v.num_inputs(); ++i) {
        const Tensor& input = v.input(i);
        if (LegacyZeroPoint(input) != LegacyZeroPoint(output)) {
          return Format(
              "Mismatching quantization zero point across the %dth input (%d) and the output (%d) "
              "for CONCATENATE operator #%d",
              i, LegacyZeroPoint(input), LegacyZeroPoint(output), v.node_index());
        }
        if (LegacyScale(input) != LegacyScale(output)) {
          return Format(
              "Mismatching quantization scale across the %dth input (%f) and the output (%f) for "
              "CONCATENATE operator #%d",
              i, static_cast<double>(LegacyScale(input)), static_cast<double>(LegacyScale(output)),
              v.node_index());
        }
      }
    }
    for (int i = 0; i < v.num_inputs(); ++i) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(i))) return r;
    }
    return std::nullopt;
  });
}

// DEPTH_TO_SPACE's block size from its shapes (output height / input height).
CheckOutcome DepthToSpaceNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    const int input_height = Dim(v.input(0), 1);
    const int block_size = input_height > 0 ? Dim(v.output(0), 1) / input_height : 0;
    if (block_size <= 1) {
      return Format("invalid block size (%d) in DEPTH_TO_SPACE node #%d", block_size,
                    v.node_index());
    }
    return std::nullopt;
  });
}

// SPACE_TO_DEPTH's block size from its shapes (input height / output height).
CheckOutcome SpaceToDepthNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    const int output_height = Dim(v.output(0), 1);
    const int block_size = output_height > 0 ? Dim(v.input(0), 1) / output_height : 0;
    if (block_size <= 1) {
      return Format("block size (%d) in SPACE_TO_DEPTH node #%d must be greater > 1", block_size,
                    v.node_index());
    }
    const int input_height = Dim(v.input(0), 1);
    const int input_width = Dim(v.input(0), 2);
    // Upstream passes (height or width, block size, node) to a format naming the node first;
    // its line is reproduced as it prints.
    if (input_height % block_size != 0) {
      return Format(
          "SPACE_TO_DEPTH node #%d input height (%d) must be divisible by block_size (%d).",
          input_height, block_size, v.node_index());
    }
    if (input_width % block_size != 0) {
      return Format(
          "SPACE_TO_DEPTH node #%d input width (%d) must be divisible by block_size (%d).",
          input_width, block_size, v.node_index());
    }
    return std::nullopt;
  });
}

// VisitExpandDimsNode returns an error before any of its checks.
CheckOutcome ExpandDimsNode(const NodeContext& context) {
  return CheckOutcome::Reject(
      Format("EXPAND_DIMS node #%d: VisitExpandDimsNode refuses every node", context.node_index));
}

CheckOutcome PadNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t paddings = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 1, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorType(paddings, TensorType::kInt32)) return r;
    // CheckPaddingsTensorShape; upstream prints the rank where it means the row / column count.
    const Tensor& p = v.tensor(paddings);
    if (Rank(p) != 2) {
      return Format(
          "unexpected number of shape dimensions (%d) in padding tensor #%d in node #%d: "
          "expected a 2D tensor",
          Rank(p), paddings, v.node_index());
    }
    if (Dim(p, 0) != Rank(v.tensor(in))) {
      return Format(
          "unexpected number of rows (%d) in padding tensor #%d in node #%d: %d rows expected",
          Rank(p), paddings, v.node_index(), Rank(v.tensor(in)));
    }
    if (Dim(p, 1) != 2) {
      return Format(
          "unexpected number of columns (%d) in padding tensor #%d in node #%d: 2 columns "
          "expected",
          Rank(p), paddings, v.node_index());
    }
    if (Reason r = v.CheckTensorStaticAllocation(paddings, "PAD")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 1, kMaxTensorDims)) return r;
    // Upstream loops over the paddings tensor's rank (2), not its rows, so only the first two
    // rows are checked, and the post-padding line prints the pre-padding.
    const int checked_rows = std::min(Rank(p), Dim(p, 0));
    if (const int64_t* pads = v.known_values(paddings, 2 * int64_t{checked_rows})) {
      for (int i = 0; i < checked_rows; ++i) {
        const int pre = static_cast<int>(pads[2 * i]);
        const int post = static_cast<int>(pads[2 * i + 1]);
        if (pre < 0) {
          return Format("invalid pre-padding %d for dimension #%d in node %d", pre, i,
                        v.node_index());
        }
        if (post < 0) {
          return Format("invalid post-padding %d for dimension #%d in node %d", pre, i,
                        v.node_index());
        }
      }
    }
    return std::nullopt;
  });
}

CheckOutcome ReshapeNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(1, 2, 1)) return Outcome(r);
  return Run(context, probe.num_inputs(), 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 0, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 0, kMaxTensorDims)) return r;
    const Tensor& input = v.tensor(in);
    const Tensor& output = v.tensor(out);
    if (output.type == TensorType::kUInt8 || output.type == TensorType::kInt8) {
      if (LegacyZeroPoint(input) != LegacyZeroPoint(output)) {
        return Format(
            "Mismatching quantization zero point across the input (%d) and the output (%d) for "
            "RESHAPE operator #%d",
            LegacyZeroPoint(input), LegacyZeroPoint(output), v.node_index());
      }
      if (LegacyScale(input) != LegacyScale(output)) {
        return Format(
            "Mismatching quantization scale across the input (%f) and the output (%f) for RESHAPE "
            "operator #%d",
            static_cast<double>(LegacyScale(input)), static_cast<double>(LegacyScale(output)),
            v.node_index());
      }
    }
    if (v.num_inputs() == 2) {
      const int32_t shape = v.input_id(1);
      if (Reason r = v.CheckTensorType(shape, TensorType::kInt32)) return r;
      if (Reason r = v.CheckShapeTensorShape(shape, /*squeeze_dims=*/true, "RESHAPE")) return r;
      if (Reason r = v.CheckTensorStaticAllocation(shape, "RESHAPE")) return r;
    }
    return std::nullopt;
  });
}

CheckOutcome ResizeBilinearNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t shape = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorType(shape, TensorType::kInt32)) return r;
    if (Reason r = v.CheckShapeTensorShape(shape, false, "RESIZE_BILINEAR")) return r;
    if (Reason r = v.CheckTensorStaticAllocation(shape, "RESIZE_BILINEAR")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 4)) return r;
    // Upstream loops over the size tensor's rank (1): only the output height is checked.
    if (const int64_t* size = v.known_values(shape, 1); size != nullptr && size[0] <= 0) {
      return Format("invalid output dimension #%d value %d in node %d", 0,
                    static_cast<int>(size[0]), v.node_index());
    }
    return std::nullopt;
  });
}

CheckOutcome SliceNode(const NodeContext& context) {
  return Run(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t begin = v.input_id(1);
    const int32_t size = v.input_id(2);
    if (Reason r = v.CheckSliceParamTensor(begin, "SLICE", /*allow_int64=*/true)) return r;
    if (Reason r = v.CheckSliceParamTensor(size, "SLICE", /*allow_int64=*/true)) return r;
    if (Reason r = v.CheckTensorsDimensionMatch(begin, size, 0, "SLICE")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    // A negative begin is only logged upstream; a size that is not positive refuses the node.
    const int num_dims = Dim(v.tensor(begin), 0);
    if (const int64_t* sizes = v.known_values(size, num_dims)) {
      for (int i = 0; i < num_dims; ++i) {
        if (sizes[i] <= 0) {
          return Format("size %" PRId64 " must be positive in SLICE node #%d", sizes[i],
                        v.node_index());
        }
      }
    }
    return std::nullopt;
  });
}

CheckOutcome SplitNode(const NodeContext& context) {
  const Visit probe(context);
  if (probe.options().num_splits != probe.num_outputs()) {
    return Outcome(Format("num_splits (%d) != number of outputs (%d) in SPLIT node #%d",
                          probe.options().num_splits, probe.num_outputs(), probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputs(2)) return Outcome(r);
  if (Reason r = probe.CheckNumOutputs(2, 4)) return Outcome(r);
  return Run(context, 2, probe.num_outputs(), [](const Visit& v) -> Reason {
    const int32_t split_dim = v.input_id(0);
    if (Reason r = v.CheckTensorType(split_dim, TensorType::kInt32)) return r;
    if (Reason r = v.CheckTensorStaticAllocation(split_dim, "SPLIT")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(1))) return r;
    for (int i = 0; i < v.num_outputs(); ++i) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(i))) return r;
    }
    return std::nullopt;
  });
}

CheckOutcome StridedSliceNode(const NodeContext& context) {
  const Visit probe(context);
  const OpOptions& o = probe.options();
  if (o.ellipsis_mask != 0 || o.new_axis_mask != 0 || o.shrink_axis_mask != 0) {
    return Outcome(
        Format("STRIDED_SLICE node #%d: ellipsis, new axis and shrink axis masks are not supported",
               probe.node_index()));
  }
  return Run(context, 4, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t begin = v.input_id(1);
    const int32_t end = v.input_id(2);
    const int32_t stride = v.input_id(3);
    if (Reason r = v.CheckSliceParamTensor(stride, "STRIDED_SLICE", false)) return r;
    const int num_dims = Dim(v.tensor(stride), 0);
    if (const int64_t* strides = v.known_values(stride, num_dims)) {
      for (int i = 0; i < num_dims; ++i) {
        if (strides[i] != 1) {
          // Upstream's format string lacks the space before "in".
          return Format("stride at dimension %d, %d, must be 1in STRIDED_SLICE node #%d", i,
                        static_cast<int>(strides[i]), v.node_index());
        }
      }
    }
    if (Reason r = v.CheckSliceParamTensor(begin, "STRIDED_SLICE", false)) return r;
    if (Reason r = v.CheckSliceParamTensor(end, "STRIDED_SLICE", false)) return r;
    const int input_rank = Rank(v.tensor(in));
    for (const auto& [id, name] : {std::pair{begin, "begin_tensor"}, std::pair{end, "end_tensor"},
                                   std::pair{stride, "stride_tensor"}}) {
      const Tensor& param = v.tensor(id);
      if (Rank(param) != 1 || input_rank != Dim(param, 0)) {
        // Upstream prints the tensor's first value as its "shape"; its length stands in when the
        // values are unknown.
        const int64_t* first = v.known_values(id, 1);
        return Format("%s shape (%d) must be equal to input shape (%d) in STRIDED_SLICE node #%d",
                      name, first != nullptr ? static_cast<int>(first[0]) : Dim(param, 0),
                      input_rank, v.node_index());
      }
    }
    if (Reason r = v.CheckTensorsDimensionMatch(stride, begin, 0, "STRIDED_SLICE")) return r;
    if (Reason r = v.CheckTensorsDimensionMatch(begin, end, 0, "STRIDED_SLICE")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    return StridedSliceCrops(v, num_dims);
  });
}

CheckOutcome TransposeNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    return v.CheckTensorStaticAllocation(v.input_id(1), "TRANSPOSE");
  });
}

}  // namespace tfa::xnnpack_visit
