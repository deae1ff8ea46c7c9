#include "libanalysis/prepare/builtin_kernel_prepare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <string_view>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/constant_folding.h"
#include "libanalysis/prepare/detection_postprocess_prepare.h"
#include "libanalysis/prepare/fake_quant_prepare.h"
#include "libanalysis/prepare/random_kernel_prepare.h"
#include "libanalysis/prepare/recurrent_kernel_prepare.h"

namespace tfa {
namespace {

using PrepareFunction = Result<KernelPrepareEffect> (*)(const Subgraph&, const Node&);
using prepare_internal::Append;
using prepare_internal::ArenaTensor;
using prepare_internal::CheckedInt32Product;
using prepare_internal::DimensionProduct;
using prepare_internal::DynamicTensor;
using prepare_internal::Elements;
using prepare_internal::IsConstantOrPersistent;
using prepare_internal::IsQuantizedWeightType;
using prepare_internal::NodeError;
using prepare_internal::Operand;
using prepare_internal::SpareTensor;

// Upstream's kMaxIm2colBufferSizeMobile (tflite/kernels/conv.cc, conv3d.cc).
constexpr uint64_t kMaxIm2colBytesMobile = uint64_t{1} << 30;

// Whether a mobile build drops an im2col of `elements` values of `type` (IsMobilePlatform() and
// at least 1 GiB): the kernel then falls back to the reference one, which needs none.
bool Im2colOversized(const KernelBuild& build, uint64_t elements, TensorType type) {
  if (!build.mobile) return false;
  const auto bytes = DataBytes(type, elements);
  return !bytes || *bytes >= kMaxIm2colBytesMobile;
}

// CONV_2D (tflite/kernels/conv.cc, kGenericOptimized): im2col whenever the convolution is not a
// plain 1x1 stride-1 undilated one; hybrid kernels (float input, 8/4-bit weights) add the
// quantized input, scaling factors and int32 accumulators, and per-channel hybrid ones also
// input offsets and persistent row sums. Builds: a mobile one drops an im2col of 1 GiB or more
// (not for per-tensor hybrid convolutions, which have no fallback); the multithreaded Eigen
// kernel of builds without ruy, with other than one thread, keeps float weights known at Prepare
// transposed ("hwcn", persistent) for undilated float convolutions and needs no im2col then.
Result<KernelPrepareEffect> PrepareConv2D(const Subgraph& subgraph, const Node& node,
                                          const KernelBuild& build) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  const Tensor* output = Operand(subgraph, node.outputs, 0);
  if (!input || !filter || !output) return NodeError(node, "needs input, filter and output");
  if (input->shape.size() != 4 || filter->shape.size() != 4 || output->shape.size() != 4) {
    return NodeError(node, "input, filter and output must be 4-D");
  }
  const int32_t batches = input->shape[0], in_h = input->shape[1], in_w = input->shape[2];
  const int32_t in_ch = input->shape[3];
  const int32_t ch_out = filter->shape[0], f_h = filter->shape[1], f_w = filter->shape[2];
  const int32_t f_ch = filter->shape[3];
  if (f_ch <= 0 || in_ch % f_ch != 0)
    return NodeError(node, "input channels must be a multiple of the filter's");
  const int32_t groups = in_ch / f_ch;
  const int32_t out_h = output->shape[1], out_w = output->shape[2];
  const OpOptions& o = node.options;
  const bool is_hybrid = input->type == TensorType::kFloat32 && IsQuantizedWeightType(filter->type);

  const auto& scales = filter->quantization->scale;
  const bool per_channel =
      filter->type != TensorType::kUInt8 && scales.size() > 1 &&
      std::any_of(scales.begin(), scales.end(), [&](float s) { return s != scales[0]; });
  const bool undilated = o.dilation_w == 1 && o.dilation_h == 1;
  const bool hwcn = build.multithreaded_conv() && input->type == TensorType::kFloat32 &&
                    !is_hybrid && undilated && filter->allocation != AllocationType::kArenaRw &&
                    filter->allocation != AllocationType::kDynamic;

  KernelPrepareEffect effect;
  bool need_im2col =
      !hwcn && (!undilated || o.stride_w != 1 || o.stride_h != 1 || f_h != 1 || f_w != 1);
  auto depth = CheckedInt32Product(node, {f_h, f_w, f_ch});
  if (!depth.ok()) return depth.status();
  if (need_im2col && !(is_hybrid && !per_channel)) {
    const auto elements = Elements(std::array<int32_t, 4>{batches, out_h, out_w, *depth});
    need_im2col = !(elements && Im2colOversized(build, *elements, input->type));
  }
  if (need_im2col) {
    TensorType type = input->type;
    if (is_hybrid) type = filter->type == TensorType::kInt4 ? TensorType::kInt8 : filter->type;
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, type, {batches, out_h, out_w, *depth})));
  }
  if (hwcn) {
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kFloat32, {*depth, ch_out},
                                   AllocationType::kArenaRwPersistent, "Conv_hwcn_weights")));
  }
  if (!is_hybrid) return effect;

  auto flattened_input = CheckedInt32Product(node, {batches, in_h, in_w, groups});
  auto scratch_width = CheckedInt32Product(node, {batches, out_h, out_w});
  if (!flattened_input.ok()) return flattened_input.status();
  if (!scratch_width.ok()) return scratch_width.status();
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt8, input->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {*flattened_input})));
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, TensorType::kInt32, {ch_out, *scratch_width})));
  if (per_channel) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*flattened_input})));
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt32, {ch_out},
                                   AllocationType::kArenaRwPersistent, "Conv_row_sums")));
  }
  return effect;
}

// DEPTHWISE_CONV_2D (tflite/kernels/depthwise_conv.cc): only the hybrid kernel (float input,
// int8 weights) has temporaries: quantized input, one scaling factor and one offset per batch.
Result<KernelPrepareEffect> PrepareDepthwiseConv2D(const Subgraph& subgraph, const Node& node) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  if (!input || !filter) return NodeError(node, "needs input and filter");
  KernelPrepareEffect effect;
  if (input->type != TensorType::kFloat32 || filter->type != TensorType::kInt8) return effect;
  if (input->shape.empty()) return NodeError(node, "input must be 4-D");
  const int32_t batches = input->shape[0];
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt8, input->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batches})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {batches})));
  return effect;
}

// FULLY_CONNECTED (tflite/kernels/fully_connected.cc): the first Prepare always adds six tensors;
// only the hybrid kernel (float32 input, 8- or 4-bit weights) uses them, the rest stay spare.
// batch = input elements / weights' input depth. The generic hybrid kernel sizes five (six with
// sparse weights): the int8 input, float scaling factors [batch], int32 accumulators [units,
// batch], int32 input offsets [batch] and persistent int32 row sums [units]. Constant int4
// weights with an even input depth of at least 32 and at least 4 units take the packed 4-bit
// kernel instead (x86 without SSSE3: one packed row, filter blocks 4 x 32): the int8 input
// [batch, depth rounded up to 32], scaling factors and offsets [batch], accumulators [batch,
// units rounded up to 4], and a fifth temporary it never sizes. Sparse constant weights' sixth
// temporary is their persistent uint8 ledger (Tensor::sparse_ledger_bytes).
Result<KernelPrepareEffect> PrepareFullyConnected(const Subgraph& subgraph, const Node& node,
                                                  const KernelBuild& build) {
  constexpr int kScratchTensors = 6;
  constexpr int32_t kFilterWidth = 4, kFilterDepth = 32;  // optimized/4bit/fully_connected_common.h
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  if (!input || !filter) return NodeError(node, "needs input and weights");
  if (filter->shape.size() != 2) return NodeError(node, "weights must be 2-D");
  KernelPrepareEffect effect;
  const bool is_hybrid =
      input->type == TensorType::kFloat32 && (IsQuantizedWeightType(filter->type));
  const int32_t accum_depth = filter->shape[1];
  if (!is_hybrid || accum_depth == 0) {
    effect.added.assign(kScratchTensors, SpareTensor());
    return effect;
  }
  auto input_elements = Elements(input->shape);
  if (!input_elements) return NodeError(node, "input size overflows");
  const auto batch = static_cast<int64_t>(*input_elements / static_cast<uint64_t>(accum_depth));
  if (batch > INT32_MAX) return NodeError(node, "batch size overflows int32");
  const auto batch_size = static_cast<int32_t>(batch);
  const int32_t num_units = filter->shape[0];
  const bool packed_4bit = filter->type == TensorType::kInt4 && filter->is_constant() &&
                           batch_size > 0 && accum_depth % 2 == 0 && num_units >= kFilterWidth &&
                           accum_depth >= kFilterDepth;
  if (packed_4bit) {
    // The kernel packs the input in blocks of the largest power of two up to the build's maximum
    // rows that the batch reaches, and rounds the batch up to a multiple of it.
    int32_t block_rows = build.fc_4bit_max_rows;
    while (block_rows > 1 && block_rows > batch_size) block_rows /= 2;
    const int64_t rows = (int64_t{batch_size} + block_rows - 1) / block_rows * block_rows;
    auto padded_batch = CheckedInt32Product(node, {rows});
    if (!padded_batch.ok()) return padded_batch.status();
    auto depth = CheckedInt32Product(
        node, {(int64_t{accum_depth} + kFilterDepth - 1) / kFilterDepth * kFilterDepth});
    auto units = CheckedInt32Product(
        node, {(int64_t{num_units} + kFilterWidth - 1) / kFilterWidth * kFilterWidth});
    if (!depth.ok()) return depth.status();
    if (!units.ok()) return units.status();
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt8, {*padded_batch, *depth})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {*padded_batch})));
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt32, {*padded_batch, *units})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*padded_batch})));
    TFA_RETURN_IF_ERROR(Append(effect, SpareTensor()));
    effect.added.push_back(SpareTensor());
    return effect;
  }
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt8, input->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch_size})));
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, TensorType::kInt32, {num_units, batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {num_units},
                                                 AllocationType::kArenaRwPersistent)));
  if (prepare_internal::HasSparsity(*filter)) {
    TFA_RETURN_IF_ERROR(prepare_internal::AppendSparseLedger(effect, node, *filter, "FC_ledger"));
  } else {
    effect.added.push_back(SpareTensor());
  }
  return effect;
}

// DEQUANTIZE (tflite/kernels/dequantize.cc) and DENSIFY (tflite/kernels/densify.cc): a constant
// input is unpacked once, so the output moves to the persistent arena.
Result<KernelPrepareEffect> PrepareConstantUnpacking(const Subgraph& subgraph, const Node& node) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  if (!input || !Operand(subgraph, node.outputs, 0)) {
    return NodeError(node, "needs one input and one output");
  }
  KernelPrepareEffect effect;
  if (input->is_constant()) {
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kArenaRwPersistent);
  }
  return effect;
}

std::optional<TensorType> ReduceAccumulatorType(TensorType input) {
  switch (input) {
    case TensorType::kFloat32:
      return TensorType::kFloat32;
    case TensorType::kInt32:
    case TensorType::kInt64:
      return TensorType::kInt64;
    case TensorType::kUInt8:
    case TensorType::kInt8:
    case TensorType::kInt16:
      return TensorType::kInt32;
    case TensorType::kBool:
      return TensorType::kBool;
    default:
      return std::nullopt;
  }
}

enum class ReduceAccumulator : uint8_t {
  kUnused,  // REDUCE_MAX/MIN/ANY/ALL: typed but never sized or allocated
  kSized,   // MEAN/SUM/REDUCE_PROD: the output's element count
};

// The reduce family (tflite/kernels/reduce.cc): four tensors, all temporaries: an index per input
// dimension, the resolved axes, an accumulator per output element and the normalized dims. With
// an axis unknown at Prepare (neither constant nor folded) the axes, the accumulator and the
// output are sized at Eval; the normalized dims are sized at Eval unless the input is known.
// REDUCE_PROD of a known input and axis with at most 8 output elements is computed in Prepare:
// the output becomes persistent read-only and every temporary but the index is dynamic.
Result<KernelPrepareEffect> PrepareReduce(const Subgraph& subgraph, const Node& node,
                                          ReduceAccumulator accumulator) {
  constexpr uint64_t kMaxConstantOutputElements = 8;  // reduce.cc kMaxConstantOutputTensorSize
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* axis = Operand(subgraph, node.inputs, 1);
  const Tensor* output = Operand(subgraph, node.outputs, 0);
  if (!input || !axis || !output) return NodeError(node, "needs input, axis and output");
  const auto accumulator_type = ReduceAccumulatorType(input->type);
  if (!accumulator_type) return NodeError(node, "unsupported input type");
  const auto rank = static_cast<int32_t>(input->shape.size());
  auto axis_count = Elements(axis->shape);
  auto output_elements = Elements(output->shape);
  if (!axis_count || *axis_count > INT32_MAX || !output_elements || *output_elements > INT32_MAX) {
    return NodeError(node, "axis or output size overflows int32");
  }
  const bool known_input = IsConstantOrPersistent(*input);
  const bool known_axis = IsConstantOrPersistent(*axis);
  const auto axis_size = static_cast<int32_t>(*axis_count);
  const auto output_size = static_cast<int32_t>(*output_elements);
  KernelPrepareEffect effect;
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {rank})));
  const bool folded = node.op == "REDUCE_PROD" && known_input && known_axis &&
                      *output_elements <= kMaxConstantOutputElements;
  if (folded) {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32, {axis_size})));
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(*accumulator_type, {output_size})));
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32, {rank})));
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kPersistentRo);
    return effect;
  }
  if (known_axis) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {axis_size})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32)));
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
  }
  if (accumulator == ReduceAccumulator::kUnused) {
    AddedTensor unused = SpareTensor();
    unused.type = *accumulator_type;
    TFA_RETURN_IF_ERROR(Append(effect, unused));
  } else if (known_axis) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, *accumulator_type, {output_size})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(*accumulator_type)));
  }
  if (known_input) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {rank})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32)));
  }
  return effect;
}

Result<KernelPrepareEffect> PrepareMeanSumProd(const Subgraph& subgraph, const Node& node) {
  return PrepareReduce(subgraph, node, ReduceAccumulator::kSized);
}

Result<KernelPrepareEffect> PrepareReduceSimple(const Subgraph& subgraph, const Node& node) {
  return PrepareReduce(subgraph, node, ReduceAccumulator::kUnused);
}

// BATCH_MATMUL (tflite/kernels/batch_matmul.cc): the first Prepare adds seven tensors. The first
// two are always temporaries: the LHS with its last two dimensions swapped (arena) and the RHS
// likewise (persistent when the RHS is a constant, which is then transposed once). The hybrid
// kernel (float32 LHS, int8 RHS) uses the other five: the quantized LHS, one scaling factor and
// one offset per LHS row, int32 accumulators and the persistent row sums of the RHS.
Result<KernelPrepareEffect> PrepareBatchMatMul(const Subgraph& subgraph, const Node& node) {
  constexpr int kHybridTensors = 5;
  const Tensor* lhs = Operand(subgraph, node.inputs, 0);
  const Tensor* rhs = Operand(subgraph, node.inputs, 1);
  if (!lhs || !rhs || node.inputs.size() != 2) return NodeError(node, "needs two inputs");
  const size_t lhs_rank = lhs->shape.size(), rhs_rank = rhs->shape.size();
  if (lhs_rank < 2 || lhs_rank > 5 || rhs_rank < 2 || rhs_rank > 5) {
    return NodeError(node, "inputs must have 2 to 5 dimensions");
  }
  Dims lhs_transposed = lhs->shape, rhs_transposed = rhs->shape;
  std::swap(lhs_transposed[lhs_rank - 1], lhs_transposed[lhs_rank - 2]);
  std::swap(rhs_transposed[rhs_rank - 1], rhs_transposed[rhs_rank - 2]);
  KernelPrepareEffect effect;
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, lhs->type, lhs_transposed)));
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, rhs->type, rhs_transposed,
                                 rhs->is_constant() ? AllocationType::kArenaRwPersistent
                                                    : AllocationType::kArenaRw,
                                 "BatchMatMul_scratch_buffer")));
  const bool hybrid = lhs->type == TensorType::kFloat32 && rhs->type == TensorType::kInt8;
  if (!hybrid) {
    effect.added.insert(effect.added.end(), kHybridTensors, SpareTensor());
    return effect;
  }
  const int32_t batch_size =
      node.options->adj_x ? lhs->shape[lhs_rank - 1] : lhs->shape[lhs_rank - 2];
  const int32_t num_units =
      node.options->adj_y ? rhs->shape[rhs_rank - 2] : rhs->shape[rhs_rank - 1];
  auto num_batches = DimensionProduct(node, lhs->shape, 0, lhs_rank - 2);
  auto num_matrices = DimensionProduct(node, rhs->shape, 0, rhs_rank - 2);
  if (!num_batches.ok()) return num_batches.status();
  if (!num_matrices.ok()) return num_matrices.status();
  auto rows = CheckedInt32Product(node, {*num_batches, batch_size});
  auto row_sums = CheckedInt32Product(node, {*num_matrices, num_units});
  if (!rows.ok()) return rows.status();
  if (!row_sums.ok()) return row_sums.status();
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, rhs->type, lhs->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {*rows})));
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, TensorType::kInt32, {num_units, batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*rows})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*row_sums},
                                                 AllocationType::kArenaRwPersistent)));
  return effect;
}

// TRANSPOSE_CONV (tflite/kernels/transpose_conv.cc, kGenericOptimized): col2im and the weights
// transposed to HWOI, both allocated on their own (kTfLiteDynamic) however their sizes are known;
// quantized inputs add a dynamic accumulator shaped like the output; the hybrid kernel (float32
// input, int8 weights) adds the quantized input and one scaling factor and one offset per input
// row, in the arena. An output shape unknown at Prepare makes the output dynamic.
Result<KernelPrepareEffect> PrepareTransposeConv(const Subgraph& subgraph, const Node& node) {
  const Tensor* output_shape = Operand(subgraph, node.inputs, 0);
  const Tensor* weights = Operand(subgraph, node.inputs, 1);
  const Tensor* input = Operand(subgraph, node.inputs, 2);
  const Tensor* output = Operand(subgraph, node.outputs, 0);
  if (!output_shape || !weights || !input || !output ||
      (node.inputs.size() != 3 && node.inputs.size() != 4)) {
    return NodeError(node, "needs output shape, weights, input (and optional bias)");
  }
  if (input->shape.size() != 4 || weights->shape.size() != 4) {
    return NodeError(node, "input and weights must be 4-D");
  }
  const bool known_shape = output_shape->is_constant();
  KernelPrepareEffect effect;
  const TensorType col2im_type =
      input->type == TensorType::kFloat32 ? TensorType::kFloat32 : TensorType::kInt32;
  if (known_shape) {
    auto rows = DimensionProduct(node, input->shape, 1, 3);
    auto columns = DimensionProduct(node, weights->shape, 0, 3);
    if (!rows.ok()) return rows.status();
    if (!columns.ok()) return columns.status();
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(col2im_type, {*rows, *columns})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(col2im_type)));
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
  }
  const Dims& w = weights->shape;
  TFA_RETURN_IF_ERROR(Append(effect, weights->is_constant()
                                         ? DynamicTensor(weights->type, {w[1], w[2], w[0], w[3]})
                                         : DynamicTensor(weights->type)));
  if (input->type == TensorType::kUInt8 || input->type == TensorType::kInt8 ||
      input->type == TensorType::kInt16) {
    const TensorType accumulator =
        input->type == TensorType::kInt16 ? TensorType::kInt64 : TensorType::kInt32;
    TFA_RETURN_IF_ERROR(
        Append(effect, DynamicTensor(accumulator, known_shape ? output->shape : Dims{})));
  }
  if (input->type == TensorType::kFloat32 && weights->type == TensorType::kInt8) {
    auto input_elements = Elements(input->shape);
    if (!input_elements || w[3] <= 0) return NodeError(node, "input size is invalid");
    const auto rows = static_cast<int64_t>(*input_elements / static_cast<uint64_t>(w[3]));
    auto height = CheckedInt32Product(node, {rows});
    if (!height.ok()) return height.status();
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt8, input->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {*height})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*height})));
  }
  return effect;
}

// CONV_3D (tflite/kernels/conv3d.cc, kGenericOptimized): an im2col buffer unless the convolution
// is 1x1x1, stride 1 and undilated (x86 is not a mobile platform, so no size cap applies).
Result<KernelPrepareEffect> PrepareConv3D(const Subgraph& subgraph, const Node& node,
                                          const KernelBuild& build) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  const Tensor* output = Operand(subgraph, node.outputs, 0);
  if (!input || !filter || !output) return NodeError(node, "needs input, filter and output");
  if (input->shape.size() != 5 || filter->shape.size() != 5 || output->shape.size() != 5) {
    return NodeError(node, "input, filter and output must be 5-D");
  }
  const OpOptions& o = node.options;
  const Dims& f = filter->shape;
  const bool need_im2col = o.dilation_d != 1 || o.dilation_h != 1 || o.dilation_w != 1 ||
                           o.stride_d != 1 || o.stride_h != 1 || o.stride_w != 1 || f[0] != 1 ||
                           f[1] != 1 || f[2] != 1;
  KernelPrepareEffect effect;
  if (!need_im2col) return effect;
  auto depth = DimensionProduct(node, f, 0, 4);
  if (!depth.ok()) return depth.status();
  const Dims& out = output->shape;
  const std::array<int32_t, 5> im2col_shape = {out[0], out[1], out[2], out[3], *depth};
  // conv3d.cc counts the mobile cap in float32 bytes.
  const auto elements = Elements(im2col_shape);
  if (elements && Im2colOversized(build, *elements, TensorType::kFloat32)) return effect;
  TFA_RETURN_IF_ERROR(Append(
      effect, ArenaTensor(node, input->type, Dims(im2col_shape.begin(), im2col_shape.end()))));
  return effect;
}

// CONV_3D_TRANSPOSE (tflite/kernels/conv3d_transpose.cc): the optimized kernel's col2im, allocated
// on its own; a dilated convolution falls back to the reference kernel, which adds nothing.
Result<KernelPrepareEffect> PrepareConv3DTranspose(const Subgraph& subgraph, const Node& node) {
  const Tensor* output_shape = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  const Tensor* input = Operand(subgraph, node.inputs, 2);
  if (!output_shape || !filter || !input || node.outputs.empty()) {
    return NodeError(node, "needs output shape, filter, input and output");
  }
  if (input->shape.size() != 5 || filter->shape.size() != 5) {
    return NodeError(node, "input and filter must be 5-D");
  }
  const OpOptions& o = node.options;
  KernelPrepareEffect effect;
  if (o.dilation_d > 1 || o.dilation_h > 1 || o.dilation_w > 1) return effect;
  if (!IsConstantOrPersistent(*output_shape)) {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kFloat32)));
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
    return effect;
  }
  auto rows = DimensionProduct(node, input->shape, 1, 4);
  auto columns = DimensionProduct(node, filter->shape, 0, 4);
  if (!rows.ok()) return rows.status();
  if (!columns.ok()) return columns.status();
  TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kFloat32, {*rows, *columns})));
  return effect;
}

// RFFT2D (tflite/kernels/rfft2d.cc): four temporaries for fft2d's working areas: an int32 bit
// reversal table, a cosine/sine table (doubles, typed int64), one row pointer per FFT row and the
// rows themselves. Sized from fft_length, which this model does not carry; Prepare sets the
// output to [.., fft_h, fft_w / 2 + 1] from it, so the output's shape gives it back (fft_w is a
// power of two). An fft_length unknown at Prepare makes all four and the output dynamic.
Result<KernelPrepareEffect> PrepareRfft2D(const Subgraph& subgraph, const Node& node) {
  constexpr int kTemporaries = 4;
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* fft_length = Operand(subgraph, node.inputs, 1);
  const Tensor* output = Operand(subgraph, node.outputs, 0);
  if (!input || !fft_length || !output || node.inputs.size() != 2) {
    return NodeError(node, "needs input, fft_length and output");
  }
  if (input->shape.size() < 2 || output->shape.size() < 2) {
    return NodeError(node, "input must have at least 2 dimensions");
  }
  KernelPrepareEffect effect;
  if (!IsConstantOrPersistent(*fft_length)) {
    for (TensorType type :
         {TensorType::kInt32, TensorType::kInt64, TensorType::kInt64, TensorType::kInt64}) {
      TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(type)));
    }
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
    return effect;
  }
  const size_t rank = output->shape.size();
  const int64_t fft_height = output->shape[rank - 2];
  const int64_t last = output->shape[rank - 1];
  const int64_t fft_width = last <= 1 ? 1 : 2 * (last - 1);
  const int64_t working_length = std::max(fft_height, fft_width / 2);
  const auto integer_area =
      2 + static_cast<int64_t>(std::sqrt(static_cast<double>(working_length)));
  auto double_area = CheckedInt32Product(node, {working_length / 2 + fft_width / 4});
  auto rows = CheckedInt32Product(node, {fft_height});
  auto row_width = CheckedInt32Product(node, {fft_width + 2});
  auto integers = CheckedInt32Product(node, {integer_area});
  if (!double_area.ok()) return double_area.status();
  if (!rows.ok()) return rows.status();
  if (!row_width.ok()) return row_width.status();
  if (!integers.ok()) return integers.status();
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {*integers})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt64, {*double_area})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt64, {*rows})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt64, {*rows, *row_width})));
  static_assert(kTemporaries == 4);
  return effect;
}

// EMBEDDING_LOOKUP_SPARSE (tflite/kernels/embedding_lookup_sparse.cc): the output's shape comes
// from the dense-shape input's values, so it is always sized at Eval.
Result<KernelPrepareEffect> PrepareDynamicOutput(const Subgraph& subgraph, const Node& node) {
  if (node.outputs.size() != 1 || !Operand(subgraph, node.outputs, 0)) {
    return NodeError(node, "expects one output");
  }
  KernelPrepareEffect effect;
  effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
  return effect;
}

struct KernelRule {
  std::string_view op;
  PrepareFunction prepare;
};

using BuildPrepareFunction = Result<KernelPrepareEffect> (*)(const Subgraph&, const Node&,
                                                             const KernelBuild&);
struct BuildKernelRule {
  std::string_view op;
  BuildPrepareFunction prepare;
};

// Builtin kernels whose Prepare depends on how TFLite was built (kernel_build.h).
constexpr std::array<BuildKernelRule, 3> kBuildKernelRules = {{
    {"CONV_2D", PrepareConv2D},
    {"FULLY_CONNECTED", PrepareFullyConnected},
    {"CONV_3D", PrepareConv3D},
}};

// The other builtin kernels whose Prepare changes memory (see docs/kernel-temporaries.md).
constexpr std::array<KernelRule, 26> kKernelRules = {{
    {"DEPTHWISE_CONV_2D", PrepareDepthwiseConv2D},
    {"DEQUANTIZE", PrepareConstantUnpacking},
    {"DENSIFY", PrepareConstantUnpacking},
    {"MEAN", PrepareMeanSumProd},
    {"SUM", PrepareMeanSumProd},
    {"REDUCE_PROD", PrepareMeanSumProd},
    {"REDUCE_MAX", PrepareReduceSimple},
    {"REDUCE_MIN", PrepareReduceSimple},
    {"REDUCE_ANY", PrepareReduceSimple},
    {"REDUCE_ALL", PrepareReduceSimple},
    {"BATCH_MATMUL", PrepareBatchMatMul},
    {"TRANSPOSE_CONV", PrepareTransposeConv},
    {"CONV_3D_TRANSPOSE", PrepareConv3DTranspose},
    {"RFFT2D", PrepareRfft2D},
    {"UNIDIRECTIONAL_SEQUENCE_LSTM", PrepareUnidirectionalSequenceLstm},
    {"LSTM", PrepareLstm},
    {"RNN", PrepareRnn},
    {"UNIDIRECTIONAL_SEQUENCE_RNN", PrepareRnn},
    {"SVDF", PrepareSvdf},
    {"BIDIRECTIONAL_SEQUENCE_RNN", PrepareBidirectionalSequenceRnn},
    {"EMBEDDING_LOOKUP_SPARSE", PrepareDynamicOutput},
    {"BIDIRECTIONAL_SEQUENCE_LSTM", PrepareBidirectionalSequenceLstm},
    {"FAKE_QUANT", PrepareFakeQuant},
    {"RANDOM_UNIFORM", PrepareRandom},
    {"RANDOM_STANDARD_NORMAL", PrepareRandom},
    {"MULTINOMIAL", PrepareMultinomial},
}};

// Custom ops whose Prepare adds no temporaries, so their outputs stay in the arena as any node's:
// - AudioSpectrogram and Mfcc, whose Prepare only resizes the output; the kernels work in vectors
//   of their own, outside the arena (tflite/kernels/audio_spectrogram.cc, mfcc.cc);
// - the Edge TPU's, which the Edge TPU runtime registers (edgetpu::RegisterCustomOp): its Prepare
//   checks the tensors' sizes against the compiled program and at most resizes an output's batch
//   dimension to the input's (google-coral/libedgetpu tflite/custom_op.cc, CustomOpPrepare).
Result<KernelPrepareEffect> PrepareWithoutTemporaries(const Subgraph&, const Node&) {
  return KernelPrepareEffect{};
}

// Custom ops upstream's BuiltinOpResolver registers, by custom code, and the Edge TPU's.
constexpr std::array<KernelRule, 4> kCustomKernelRules = {{
    {"TFLite_Detection_PostProcess", PrepareDetectionPostProcess},
    {"AudioSpectrogram", PrepareWithoutTemporaries},
    {"Mfcc", PrepareWithoutTemporaries},
    {"edgetpu-custom-op", PrepareWithoutTemporaries},
}};

}  // namespace

std::optional<uint64_t> ShapeBytes(TensorType type, std::span<const int32_t> shape) {
  const auto elements = Elements(shape);
  if (!elements) return std::nullopt;
  return DataBytes(type, *elements);
}

int32_t KernelInitTensorCount(const Node& node) {
  if (node.kind == NodeKind::kCustom) {
    return node.op == "TFLite_Detection_PostProcess" ? 2 : 0;
  }
  if (node.kind != NodeKind::kBuiltin) return 0;
  return RecurrentKernelInitTensorCount(node);
}

Result<KernelPrepareEffect> PrepareBuiltinKernel(const Subgraph& subgraph, const Node& node,
                                                 const KernelBuild& build) {
  if (node.kind == NodeKind::kCustom) {
    for (const KernelRule& rule : kCustomKernelRules) {
      if (rule.op == node.op) return rule.prepare(subgraph, node);
    }
    // Other custom ops' Prepare is unknown (the oracle stubs them: no temporaries, shapes as in
    // the file).
    KernelPrepareEffect effect;
    effect.modelled = false;
    return effect;
  }
  if (node.kind != NodeKind::kBuiltin) return KernelPrepareEffect{};
  for (const BuildKernelRule& rule : kBuildKernelRules) {
    if (rule.op == node.op) return rule.prepare(subgraph, node, build);
  }
  for (const KernelRule& rule : kKernelRules) {
    if (rule.op == node.op) return rule.prepare(subgraph, node);
  }
  if (auto folded = PrepareConstantFolding(subgraph, node)) return *folded;
  return KernelPrepareEffect{};
}

}  // namespace tfa
