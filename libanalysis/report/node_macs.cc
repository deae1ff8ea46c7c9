#include "libanalysis/report/node_macs.h"

#include <span>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

// The shape of input/output `position`, or nothing when it is absent or has an unknown dimension.
std::optional<std::span<const int32_t>> ShapeOf(const Subgraph& subgraph, const IdList& tensors,
                                                size_t position) {
  if (position >= tensors.size() || tensors[position] < 0) return std::nullopt;
  const Tensor& t = subgraph.tensors[static_cast<size_t>(tensors[position])];
  for (int32_t d : t.shape) {
    if (d < 0) return std::nullopt;
  }
  return std::span<const int32_t>(t.shape.begin(), t.shape.end());
}

std::optional<uint64_t> Product(std::span<const int32_t> dims) {
  uint64_t product = 1;
  for (int32_t d : dims) {
    const std::optional<uint64_t> next = CheckedMul(product, static_cast<uint64_t>(d));
    if (!next) return std::nullopt;
    product = *next;
  }
  return product;
}

std::optional<uint64_t> Times(std::optional<uint64_t> a, std::optional<uint64_t> b) {
  if (!a || !b) return std::nullopt;
  return CheckedMul(*a, *b);
}

}  // namespace

std::optional<uint64_t> NodeMacs(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return std::nullopt;
  const auto input = ShapeOf(subgraph, node.inputs, 0);
  const auto output = ShapeOf(subgraph, node.outputs, 0);
  if (node.op == "CONV_2D" || node.op == "DEPTHWISE_CONV_2D") {
    // Filter [out channels, h, w, in channels per group] (conv) or [1, h, w, out channels]
    // (depthwise): every output value sums h * w * (in per group, or 1) products.
    const auto filter = ShapeOf(subgraph, node.inputs, 1);
    if (!output || !filter || filter->size() != 4) return std::nullopt;
    const size_t summed = node.op == "CONV_2D" ? 3 : 2;
    return Times(Product(*output), Product(filter->subspan(1, summed)));
  }
  if (node.op == "FULLY_CONNECTED") {
    // Weights [units, depth]: every output value sums `depth` products.
    const auto weights = ShapeOf(subgraph, node.inputs, 1);
    if (!output || !weights || weights->size() != 2) return std::nullopt;
    return Times(Product(*output), static_cast<uint64_t>((*weights)[1]));
  }
  if (node.op == "BATCH_MATMUL") {
    // Output [..., rows, columns]: each sums the LHS's inner dimension (its last, or with adj_x its
    // second last).
    if (!input || !output || input->size() < 2) return std::nullopt;
    const size_t inner = node.options->adj_x ? input->size() - 2 : input->size() - 1;
    return Times(Product(*output), static_cast<uint64_t>((*input)[inner]));
  }
  if (node.op == "TRANSPOSE_CONV") {
    // Inputs: output shape, weights [out channels, h, w, in channels], the input: every input value
    // is scattered into h * w * out channels outputs.
    const auto weights = ShapeOf(subgraph, node.inputs, 1);
    const auto data = ShapeOf(subgraph, node.inputs, 2);
    if (!weights || !data || weights->size() != 4) return std::nullopt;
    return Times(Product(*data), Product(weights->subspan(0, 3)));
  }
  return std::nullopt;
}

}  // namespace tfa
