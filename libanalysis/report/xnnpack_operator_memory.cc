#include "libanalysis/report/xnnpack_operator_memory.h"

#include <algorithm>
#include <array>
#include <optional>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

// Byte arithmetic that stays empty once a step overflows.
class Bytes {
 public:
  Bytes(uint64_t value) : value_(value) {}                 // NOLINT: a count is a byte figure
  Bytes(std::optional<uint64_t> value) : value_(value) {}  // NOLINT
  Bytes operator*(Bytes other) const {
    return value_ && other.value_ ? CheckedMul(*value_, *other.value_) : std::nullopt;
  }
  Bytes operator+(Bytes other) const {
    return value_ && other.value_ ? CheckedAdd(*value_, *other.value_) : std::nullopt;
  }
  Bytes AlignUp(uint64_t alignment) const {
    return value_ ? CheckedAlignUp(*value_, alignment) : std::nullopt;
  }
  const std::optional<uint64_t>& value() const { return value_; }

 private:
  std::optional<uint64_t> value_;
};

uint64_t RoundUp(uint64_t value, uint64_t multiple) {
  return multiple == 0 ? value : (value + multiple - 1) / multiple * multiple;
}

// A dimension of a tensor's shape, counted from the end (1 for -1); 0 when absent or unknown.
uint64_t Dim(const Tensor& tensor, size_t from_end) {
  if (from_end >= tensor.shape.size()) return 0;
  const int32_t d = tensor.shape[tensor.shape.size() - 1 - from_end];
  return d < 0 ? 0 : static_cast<uint64_t>(d);
}

bool IsBuiltin(const Node& node, const char* op) {
  return node.kind == NodeKind::kBuiltin && node.op == op;
}

const Tensor* InputTensor(const Subgraph& graph, const Node& node, size_t k) {
  if (k >= node.inputs.size() || node.inputs[k] < 0) return nullptr;
  return &graph.tensors[static_cast<size_t>(node.inputs[k])];
}

// Packed weight bytes per element: int8 filters stay 8-bit (with a float scale per output
// channel when quantized per channel), every other filter packs as float32.
struct WeightLayout {
  uint64_t element = 4;
  uint64_t kr = 1;
  uint64_t extra = 0;  // per output channel, after the bias
};

WeightLayout LayoutOf(const Tensor& filter, const XnnpackTiles& tiles) {
  if (filter.type != TensorType::kInt8 && filter.type != TensorType::kUInt8) {
    return {4, tiles.gemm_kr, 0};
  }
  return {1, tiles.qs8_gemm_kr, filter.quantization->per_channel() ? 4u : 0u};
}

// The smallest unipass depthwise tile that holds `taps` (XNNPACK's x86 and ARM kernels come in 3,
// 4, 9 and 25 taps); larger kernels run multipass over about their own taps.
uint64_t DepthwiseTile(uint64_t taps) {
  for (uint64_t tile : std::array<uint64_t, 4>{3, 4, 9, 25}) {
    if (tile >= taps) return tile;
  }
  return taps;
}

// The indirection buffer of a sliding window (depthwise convolution, pooling): one pointer per
// tap of every output row's step, plus the tile's overread.
Bytes WindowIndirection(uint64_t window_h, uint64_t window_w, uint64_t stride_w,
                        uint64_t dilation_w, uint64_t out_h, uint64_t out_w, uint64_t overread) {
  const uint64_t taps = window_h * window_w;
  const uint64_t step_width = dilation_w == 1 ? std::min(stride_w, window_w) : window_w;
  const Bytes step_height =
      Bytes(taps) + Bytes(out_w == 0 ? 0 : out_w - 1) * Bytes(step_width) * Bytes(window_h);
  return Bytes(8) * (Bytes(overread) + Bytes(out_h) * step_height);
}

// GEMM-packed weights: (taps * k_stride * element + bias + extra) * round_up(n, nr) per group.
Bytes GemmPacked(uint64_t groups, uint64_t taps, uint64_t k, uint64_t n, const WeightLayout& w,
                 const XnnpackTiles& tiles) {
  const Bytes per_column =
      Bytes(taps) * Bytes(RoundUp(k, w.kr)) * Bytes(w.element) + Bytes(4) + Bytes(w.extra);
  return (per_column * Bytes(RoundUp(n, tiles.gemm_nr)) * Bytes(groups))
      .AlignUp(tiles.allocation_alignment);
}

struct NodeMemory {
  Bytes packed = 0;
  Bytes indirection = 0;
};

NodeMemory ConvolutionMemory(const Subgraph& graph, const Node& node, const XnnpackTiles& tiles) {
  const Tensor* input = InputTensor(graph, node, 0);
  const Tensor* filter = InputTensor(graph, node, 1);
  const Tensor& output = graph.tensors[static_cast<size_t>(node.outputs[0])];
  if (!input || !filter || filter->shape.size() != 4) return {};
  const OpOptions& o = *node.options;
  const uint64_t kh = Dim(*filter, 2), kw = Dim(*filter, 1), taps = kh * kw;
  const uint64_t out_h = Dim(output, 2), out_w = Dim(output, 1);
  const WeightLayout layout = LayoutOf(*filter, tiles);
  const bool unit_stride = o.stride_h == 1 && o.stride_w == 1;
  NodeMemory m;
  if (IsBuiltin(node, "DEPTHWISE_CONV_2D") && o.depth_multiplier == 1) {
    const uint64_t channels = Dim(*filter, 0);
    const uint64_t tile = taps == 1 && unit_stride ? 1 : DepthwiseTile(taps);
    m.packed = ((Bytes(tile) * Bytes(layout.element) + Bytes(4) + Bytes(layout.extra)) *
                Bytes(RoundUp(channels, tiles.dwconv_channel_tile)))
                   .AlignUp(tiles.allocation_alignment);
    if (tile > 1) {
      m.indirection =
          WindowIndirection(kh, kw, static_cast<uint64_t>(o.stride_w),
                            static_cast<uint64_t>(o.dilation_w), out_h, out_w, tile - taps)
              .AlignUp(tiles.allocation_alignment);
    }
    return m;
  }
  uint64_t groups = 1, k = Dim(*filter, 0), n = Dim(*filter, 3);
  if (IsBuiltin(node, "DEPTHWISE_CONV_2D")) {  // a channel multiplier: grouped IGEMM
    groups = Dim(*input, 0);
    k = 1;
    n = groups == 0 ? 0 : Dim(*filter, 0) / groups;
  } else if (k > 0 && Dim(*input, 0) > k) {  // grouped CONV_2D
    groups = Dim(*input, 0) / k;
    n /= groups;
  }
  m.packed = GemmPacked(groups, taps, k, n, layout, tiles);
  if (taps != 1 || !unit_stride) {
    m.indirection =
        Bytes(8) * Bytes(taps) * Bytes(RoundUp(out_h * out_w, tiles.gemm_mr));  // reshape_igemm
  }
  return m;
}

// TRANSPOSE_CONV (inputs: output shape, filter, input, bias) and the custom
// Convolution2DTransposeBias (input, filter, bias): XNNPACK's deconvolution runs one IGEMM per
// stride phase, whose indirection buffers together hold a pointer per tap per output pixel.
NodeMemory DeconvolutionMemory(const Subgraph& graph, const Node& node, const XnnpackTiles& tiles) {
  const Tensor* filter = InputTensor(graph, node, 1);
  if (!filter || filter->shape.size() != 4 || node.outputs.empty()) return {};
  const Tensor& output = graph.tensors[static_cast<size_t>(node.outputs[0])];
  const uint64_t taps = Dim(*filter, 2) * Dim(*filter, 1);
  NodeMemory m;
  m.packed = GemmPacked(1, taps, Dim(*filter, 0), Dim(*filter, 3), LayoutOf(*filter, tiles), tiles);
  m.indirection = Bytes(8) * Bytes(taps) * Bytes(Dim(output, 2)) * Bytes(Dim(output, 1));
  return m;
}

NodeMemory PoolingMemory(const Subgraph& graph, const Node& node, const XnnpackTiles& tiles) {
  const OpOptions& o = *node.options;
  const uint64_t ph = static_cast<uint64_t>(std::max(o.filter_h, 0));
  const uint64_t pw = static_cast<uint64_t>(std::max(o.filter_w, 0));
  if (ph * pw <= 1 || node.outputs.empty()) return {};  // a 1x1 pool is a copy or clamp
  const Tensor& output = graph.tensors[static_cast<size_t>(node.outputs[0])];
  NodeMemory m;
  m.indirection = WindowIndirection(ph, pw, static_cast<uint64_t>(o.stride_w), 1, Dim(output, 2),
                                    Dim(output, 1), tiles.pooling_tile - 1);
  return m;
}

// resize-bilinear-nhwc.c: four input pointers and two interpolation weights per output pixel.
NodeMemory ResizeMemory(const Subgraph& graph, const Node& node) {
  if (node.outputs.empty()) return {};
  const Tensor& output = graph.tensors[static_cast<size_t>(node.outputs[0])];
  const uint64_t weight = output.type == TensorType::kFloat32 ? 4 : 2;
  const Bytes pixels = Bytes(Dim(output, 2)) * Bytes(Dim(output, 1));
  NodeMemory m;
  m.indirection = pixels * Bytes(8 * 4);
  m.packed = pixels * Bytes(2 * weight);
  return m;
}

NodeMemory FullyConnectedMemory(const Subgraph& graph, const Node& node,
                                const XnnpackTiles& tiles) {
  const Tensor* filter = InputTensor(graph, node, 1);
  if (!filter || filter->shape.size() != 2) return {};
  NodeMemory m;
  m.packed = GemmPacked(1, 1, Dim(*filter, 0), Dim(*filter, 1), LayoutOf(*filter, tiles), tiles);
  return m;
}

// BATCH_MATMUL packs a static right-hand side (batch x K x N, N the last dimension unless adj_y).
NodeMemory BatchMatmulMemory(const Subgraph& graph, const Node& node, const XnnpackTiles& tiles) {
  const Tensor* rhs = InputTensor(graph, node, 1);
  if (!rhs || !rhs->is_constant() || rhs->shape.size() < 2) return {};
  Bytes batch = 1;
  for (size_t d = 2; d < rhs->shape.size(); ++d) batch = batch * Bytes(Dim(*rhs, d));
  if (!batch.value()) return {batch, 0};
  NodeMemory m;
  m.packed =
      GemmPacked(*batch.value(), 1, Dim(*rhs, 1), Dim(*rhs, 0), LayoutOf(*rhs, tiles), tiles);
  return m;
}

NodeMemory OperatorMemory(const Subgraph& graph, const Node& node, const XnnpackTiles& tiles) {
  if (IsBuiltin(node, "CONV_2D") || IsBuiltin(node, "DEPTHWISE_CONV_2D")) {
    return ConvolutionMemory(graph, node, tiles);
  }
  if (IsBuiltin(node, "TRANSPOSE_CONV") ||
      (node.kind == NodeKind::kCustom && node.op == "Convolution2DTransposeBias")) {
    return DeconvolutionMemory(graph, node, tiles);
  }
  if (IsBuiltin(node, "MAX_POOL_2D") || IsBuiltin(node, "AVERAGE_POOL_2D")) {
    return PoolingMemory(graph, node, tiles);
  }
  if (IsBuiltin(node, "RESIZE_BILINEAR")) return ResizeMemory(graph, node);
  if (IsBuiltin(node, "FULLY_CONNECTED")) return FullyConnectedMemory(graph, node, tiles);
  if (IsBuiltin(node, "BATCH_MATMUL")) return BatchMatmulMemory(graph, node, tiles);
  return {};
}

}  // namespace

Result<XnnpackOperatorMemory> EstimateXnnpackOperatorMemory(const Subgraph& prepared,
                                                            const std::string& delegate,
                                                            const XnnpackTiles& tiles) {
  XnnpackOperatorMemory memory;
  for (int32_t planned : prepared.execution_plan) {
    const Node& kernel = prepared.nodes[static_cast<size_t>(planned)];
    if (kernel.kind != NodeKind::kDelegateKernel || kernel.op != delegate) continue;
    for (int32_t index : kernel.replaces) {
      const Node& node = prepared.nodes[static_cast<size_t>(index)];
      if (IsXnnpackStaticUnpackNode(prepared, node) || node.outputs.empty()) continue;
      const NodeMemory m = OperatorMemory(prepared, node, tiles);
      const Bytes packed = Bytes(memory.packed_weights) + m.packed;
      const Bytes indirection = Bytes(memory.indirection_buffers) + m.indirection;
      if (!packed.value() || !indirection.value()) {
        return Status::Error(SubgraphLabel(prepared) + ": node " + std::to_string(index) + " (" +
                             node.op + "): XNNPACK operator memory overflows");
      }
      memory.packed_weights = *packed.value();
      memory.indirection_buffers = *indirection.value();
    }
  }
  return memory;
}

}  // namespace tfa
