#include "libanalysis/prepare/builtin_kernel_prepare.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

using PrepareFunction = Result<KernelPrepareEffect> (*)(const Subgraph&, const Node&);

Status NodeError(const Node& node, const std::string& reason) {
  return Status::Error(node.op + ": " + reason);
}

// The tensor at input (or output) `position`, or nullptr when the node has no such operand or it
// is an absent optional input.
const Tensor* Operand(const Subgraph& subgraph, const std::vector<int32_t>& list, size_t position) {
  if (position >= list.size()) return nullptr;
  const int32_t index = list[position];
  if (index < 0 || static_cast<size_t>(index) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[index];
}

std::optional<uint64_t> Elements(const std::vector<int32_t>& shape) {
  uint64_t elements = 1;
  for (int32_t d : shape) {
    if (d < 0) return std::nullopt;
    auto product = CheckedMul(elements, static_cast<uint64_t>(d));
    if (!product) return std::nullopt;
    elements = *product;
  }
  return elements;
}

bool IsQuantizedWeightType(TensorType type) {
  return type == TensorType::kUInt8 || type == TensorType::kInt8 || type == TensorType::kInt4;
}

// An arena tensor of `type` and `shape`; an error when its size overflows.
Result<AddedTensor> ArenaTensor(const Node& node, TensorType type, std::vector<int32_t> shape,
                                AllocationType allocation = AllocationType::kArenaRw,
                                std::string name = "") {
  auto bytes = ShapeBytes(type, shape);
  if (!bytes) return NodeError(node, "temporary tensor size overflows");
  return AddedTensor{std::move(name), type, std::move(shape), allocation, *bytes};
}

// Sized at Eval (SetTensorToDynamic): no arena bytes at planning time.
AddedTensor DynamicTensor(TensorType type) {
  return AddedTensor{"", type, {}, AllocationType::kDynamic, 0};
}

// Added by AddTensors and never touched again: upstream leaves it kTfLiteMemNone.
AddedTensor SpareTensor() { return AddedTensor{}; }

Status Append(KernelPrepareEffect& effect, Result<AddedTensor> tensor, bool temporary = true) {
  if (!tensor.ok()) return tensor.status();
  if (temporary) effect.temporaries.push_back(static_cast<int32_t>(effect.added.size()));
  effect.added.push_back(std::move(tensor).value());
  return Status::Ok();
}

Result<int32_t> CheckedInt32Product(const Node& node, std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors) {
    if (f < 0 || __builtin_mul_overflow(product, f, &product) || product > INT32_MAX) {
      return NodeError(node, "temporary dimension overflows int32");
    }
  }
  return static_cast<int32_t>(product);
}

// CONV_2D (tflite/kernels/conv.cc, kGenericOptimized): im2col whenever the convolution is not a
// plain 1x1 stride-1 undilated one; hybrid kernels (float input, 8/4-bit weights) add the
// quantized input, scaling factors and int32 accumulators, and per-channel hybrid ones also
// input offsets and persistent row sums.
Result<KernelPrepareEffect> PrepareConv2D(const Subgraph& subgraph, const Node& node) {
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
  if (f_ch <= 0 || in_ch % f_ch != 0) return NodeError(node, "input channels must be a multiple of the filter's");
  const int32_t groups = in_ch / f_ch;
  const int32_t out_h = output->shape[1], out_w = output->shape[2];
  const OpOptions& o = node.options;
  const bool is_hybrid = input->type == TensorType::kFloat32 && IsQuantizedWeightType(filter->type);

  KernelPrepareEffect effect;
  const bool need_im2col = o.dilation_w != 1 || o.dilation_h != 1 || o.stride_w != 1 ||
                           o.stride_h != 1 || f_h != 1 || f_w != 1;
  if (need_im2col) {
    TensorType type = input->type;
    if (is_hybrid) type = filter->type == TensorType::kInt4 ? TensorType::kInt8 : filter->type;
    auto depth = CheckedInt32Product(node, {f_h, f_w, f_ch});
    if (!depth.ok()) return depth.status();
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, type, {batches, out_h, out_w, *depth})));
  }
  if (!is_hybrid) return effect;

  const auto& scales = filter->quantization.scale;
  const bool per_channel =
      filter->type != TensorType::kUInt8 && scales.size() > 1 &&
      std::any_of(scales.begin(), scales.end(), [&](float s) { return s != scales[0]; });
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
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {ch_out},
                                                   AllocationType::kArenaRwPersistent,
                                                   "Conv_row_sums")));
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
// only the hybrid kernel uses them (five, six with sparse weights), the rest stay unallocated.
Result<KernelPrepareEffect> PrepareFullyConnected(const Subgraph& subgraph, const Node& node) {
  constexpr int kScratchTensors = 6;
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* filter = Operand(subgraph, node.inputs, 1);
  if (!input || !filter) return NodeError(node, "needs input and weights");
  if (filter->shape.size() != 2) return NodeError(node, "weights must be 2-D");
  KernelPrepareEffect effect;
  const bool is_hybrid = input->type == TensorType::kFloat32 &&
                         (IsQuantizedWeightType(filter->type));
  const int32_t accum_depth = filter->shape[1];
  if (!is_hybrid || accum_depth == 0) {
    effect.added.assign(kScratchTensors, SpareTensor());
    return effect;
  }
  if (filter->type == TensorType::kInt4 || filter->is_sparse) {
    // The 4-bit kernel sizes its buffers from the CPU's packing constants, and the sparse one
    // sizes a ledger from the sparsity metadata: neither is known here.
    effect.modelled = false;
    effect.added.assign(kScratchTensors, SpareTensor());
    return effect;
  }
  auto input_elements = Elements(input->shape);
  if (!input_elements) return NodeError(node, "input size overflows");
  const auto batch = static_cast<int64_t>(*input_elements / static_cast<uint64_t>(accum_depth));
  if (batch > INT32_MAX) return NodeError(node, "batch size overflows int32");
  const auto batch_size = static_cast<int32_t>(batch);
  const int32_t num_units = filter->shape[0];
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt8, input->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {num_units, batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {batch_size})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {num_units},
                                                 AllocationType::kArenaRwPersistent)));
  effect.added.push_back(SpareTensor());
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
    case TensorType::kFloat32: return TensorType::kFloat32;
    case TensorType::kInt32:
    case TensorType::kInt64: return TensorType::kInt64;
    case TensorType::kUInt8:
    case TensorType::kInt8:
    case TensorType::kInt16: return TensorType::kInt32;
    case TensorType::kBool: return TensorType::kBool;
    default: return std::nullopt;
  }
}

enum class ReduceAccumulator : uint8_t {
  kUnused,  // REDUCE_MAX/MIN/ANY/ALL: typed but never sized or allocated
  kSized,   // MEAN/SUM/REDUCE_PROD: the output's element count
};

// The reduce family (tflite/kernels/reduce.cc): four tensors, all temporaries: an index per input
// dimension, the resolved axes, an accumulator per output element and the normalized dims. With
// a non-constant axis the axes and accumulator are sized at Eval; the normalized dims are sized at
// Eval unless the input is constant.
Result<KernelPrepareEffect> PrepareReduce(const Subgraph& subgraph, const Node& node,
                                          ReduceAccumulator accumulator) {
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
  KernelPrepareEffect effect;
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {rank})));
  if (axis->is_constant()) {
    TFA_RETURN_IF_ERROR(Append(
        effect, ArenaTensor(node, TensorType::kInt32, {static_cast<int32_t>(*axis_count)})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32)));
  }
  if (accumulator == ReduceAccumulator::kUnused) {
    AddedTensor unused = SpareTensor();
    unused.type = *accumulator_type;
    TFA_RETURN_IF_ERROR(Append(effect, unused));
  } else if (axis->is_constant()) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, *accumulator_type,
                                                   {static_cast<int32_t>(*output_elements)})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(*accumulator_type)));
  }
  if (input->is_constant()) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {rank})));
  } else {
    TFA_RETURN_IF_ERROR(Append(effect, DynamicTensor(TensorType::kInt32)));
  }
  return effect;
}

Result<KernelPrepareEffect> PrepareMeanSumProd(const Subgraph& subgraph, const Node& node) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  if (node.op == "REDUCE_PROD" && input && input->is_constant()) {
    // A constant REDUCE_PROD is folded in Prepare into a persistent read-only output.
    KernelPrepareEffect effect;
    effect.modelled = false;
    return effect;
  }
  return PrepareReduce(subgraph, node, ReduceAccumulator::kSized);
}

Result<KernelPrepareEffect> PrepareReduceSimple(const Subgraph& subgraph, const Node& node) {
  return PrepareReduce(subgraph, node, ReduceAccumulator::kUnused);
}

struct KernelRule {
  std::string_view op;
  PrepareFunction prepare;
};

// Builtin kernels whose Prepare changes memory (see docs/kernel-temporaries.md).
constexpr std::array<KernelRule, 12> kKernelRules = {{
    {"CONV_2D", PrepareConv2D},
    {"DEPTHWISE_CONV_2D", PrepareDepthwiseConv2D},
    {"FULLY_CONNECTED", PrepareFullyConnected},
    {"DEQUANTIZE", PrepareConstantUnpacking},
    {"DENSIFY", PrepareConstantUnpacking},
    {"MEAN", PrepareMeanSumProd},
    {"SUM", PrepareMeanSumProd},
    {"REDUCE_PROD", PrepareMeanSumProd},
    {"REDUCE_MAX", PrepareReduceSimple},
    {"REDUCE_MIN", PrepareReduceSimple},
    {"REDUCE_ANY", PrepareReduceSimple},
    {"REDUCE_ALL", PrepareReduceSimple},
}};

// Builtin kernels upstream gives temporaries (or spare tensors) that this replay does not size.
constexpr std::array<std::string_view, 13> kUnmodelledOps = {
    "TRANSPOSE_CONV", "LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM",
    "RNN", "UNIDIRECTIONAL_SEQUENCE_RNN", "BIDIRECTIONAL_SEQUENCE_RNN", "SVDF",
    "BATCH_MATMUL", "CONV_3D", "CONV_3D_TRANSPOSE", "RFFT2D", "EMBEDDING_LOOKUP_SPARSE",
};

}  // namespace

std::optional<uint64_t> ShapeBytes(TensorType type, const std::vector<int32_t>& shape) {
  const auto element_size = ElementSize(type);
  const auto elements = Elements(shape);
  if (!element_size || !elements) return std::nullopt;
  return CheckedMul(*elements, *element_size);
}

Result<KernelPrepareEffect> PrepareBuiltinKernel(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin) {
    // Custom ops' Prepare is unknown (the oracle stubs them: no temporaries, shapes as in file).
    KernelPrepareEffect effect;
    effect.modelled = false;
    return effect;
  }
  for (const KernelRule& rule : kKernelRules) {
    if (rule.op == node.op) return rule.prepare(subgraph, node);
  }
  KernelPrepareEffect effect;
  effect.modelled = std::find(kUnmodelledOps.begin(), kUnmodelledOps.end(), node.op) ==
                    kUnmodelledOps.end();
  return effect;
}

}  // namespace tfa
