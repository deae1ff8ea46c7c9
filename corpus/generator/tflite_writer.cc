#include "corpus/generator/tflite_writer.h"

#include <algorithm>
#include <tuple>

#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/tflite_schema_generated.h"
#include "libanalysis/model/unmodelled_builtin_options.h"

namespace tfa {
namespace {

// BuiltinOperator values whose options this writer fills in.
enum : int32_t {
  kAdd = 0,
  kAveragePool2D = 1,
  kConcatenation = 2,
  kConv2D = 3,
  kDepthwiseConv2D = 4,
  kFullyConnected = 9,
  kL2Normalization = 11,
  kL2Pool2D = 12,
  kLstm = 16,
  kMaxPool2D = 17,
  kMul = 18,
  kReshape = 22,
  kResizeBilinear = 23,
  kRnn = 24,
  kSoftmax = 25,
  kCall = 31,
  kEmbeddingLookupSparse = 33,
  kUnidirectionalSequenceRnn = 35,
  kGather = 36,
  kMean = 40,
  kSub = 41,
  kDiv = 42,
  kSqueeze = 43,
  kUnidirectionalSequenceLstm = 44,
  kStridedSlice = 45,
  kBidirectionalSequenceRnn = 46,
  kSplit = 49,
  kBidirectionalSequenceLstm = 52,
  kTransposeConv = 67,
  kSum = 74,
  kFakeQuant = 80,
  kReduceProd = 81,
  kReduceMax = 82,
  kPack = 83,
  kUnpack = 88,
  kReduceMin = 89,
  kReduceAny = 91,
  kResizeNearestNeighbor = 97,
  kLeakyRelu = 98,
  kMirrorPad = 100,
  kSplitV = 102,
  kIf = 118,
  kWhile = 119,
  kBatchMatMul = 126,
  kCallOnce = 129,
  kConv3D = 132,
  kReduceAll = 140,
  kConv3DTranspose = 141,
  kVarHandle = 142,
  kRandomStandardNormal = 146,
  kRandomUniform = 148,
  kMultinomial = 149,
};

tflite::ActivationFunctionType ToSchema(Activation a) {
  switch (a) {
    case Activation::kNone:
      return tflite::ActivationFunctionType::NONE;
    case Activation::kRelu:
      return tflite::ActivationFunctionType::RELU;
    case Activation::kReluN1To1:
      return tflite::ActivationFunctionType::RELU_N1_TO_1;
    case Activation::kRelu6:
      return tflite::ActivationFunctionType::RELU6;
    case Activation::kTanh:
      return tflite::ActivationFunctionType::TANH;
    case Activation::kSignBit:
      return tflite::ActivationFunctionType::SIGN_BIT;
    case Activation::kUnknown:
      break;
  }
  return tflite::ActivationFunctionType::NONE;
}

// kUnknown has no schema value; SAME is the schema default, what a reader sees for absent padding.
tflite::Padding ToSchema(Padding p) {
  return p == Padding::kValid ? tflite::Padding::VALID : tflite::Padding::SAME;
}

// Builtin options for the ops whose options the loader reads (tflite_loader.cc ReadOptions),
// plus VAR_HANDLE, whose kernel tells resources apart by shared_name.
void WriteBuiltinOptions(const Node& node, const Tensor* first_output, tflite::OperatorT& op) {
  const OpOptions& o = node.options;
  auto& u = op.builtin_options;
  switch (node.builtin_code) {
    case kConv2D: {
      tflite::Conv2DOptionsT c;
      c.padding = ToSchema(o.padding);
      c.stride_w = o.stride_w;
      c.stride_h = o.stride_h;
      c.dilation_w_factor = o.dilation_w;
      c.dilation_h_factor = o.dilation_h;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kDepthwiseConv2D: {
      tflite::DepthwiseConv2DOptionsT c;
      c.padding = ToSchema(o.padding);
      c.stride_w = o.stride_w;
      c.stride_h = o.stride_h;
      c.depth_multiplier = o.depth_multiplier;
      c.dilation_w_factor = o.dilation_w;
      c.dilation_h_factor = o.dilation_h;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kAveragePool2D:
    case kMaxPool2D:
    case kL2Pool2D: {
      tflite::Pool2DOptionsT c;
      c.padding = ToSchema(o.padding);
      c.stride_w = o.stride_w;
      c.stride_h = o.stride_h;
      c.filter_width = o.filter_w;
      c.filter_height = o.filter_h;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kTransposeConv: {
      tflite::TransposeConvOptionsT c;
      c.padding = ToSchema(o.padding);
      c.stride_w = o.stride_w;
      c.stride_h = o.stride_h;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kFullyConnected: {
      tflite::FullyConnectedOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.weights_format = static_cast<tflite::FullyConnectedOptionsWeightsFormat>(o.weights_format);
      c.keep_num_dims = o.keep_num_dims;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kSoftmax: {
      tflite::SoftmaxOptionsT c;
      c.beta = o.beta;
      u.Set(std::move(c));
      break;
    }
    case kConcatenation: {
      tflite::ConcatenationOptionsT c;
      c.axis = o.axis;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kAdd: {
      tflite::AddOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.pot_scale_int16 = o.pot_scale_int16;
      u.Set(std::move(c));
      break;
    }
    case kSub: {
      tflite::SubOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.pot_scale_int16 = o.pot_scale_int16;
      u.Set(std::move(c));
      break;
    }
    case kMul: {
      tflite::MulOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kDiv: {
      tflite::DivOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kL2Normalization: {
      tflite::L2NormOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kReshape: {
      tflite::ReshapeOptionsT c;
      c.new_shape = o.new_shape;
      u.Set(std::move(c));
      break;
    }
    case kSqueeze: {
      tflite::SqueezeOptionsT c;
      c.squeeze_dims = o.squeeze_dims;
      u.Set(std::move(c));
      break;
    }
    case kResizeBilinear: {
      tflite::ResizeBilinearOptionsT c;
      c.align_corners = o.align_corners;
      c.half_pixel_centers = o.half_pixel_centers;
      u.Set(std::move(c));
      break;
    }
    case kResizeNearestNeighbor: {
      tflite::ResizeNearestNeighborOptionsT c;
      c.align_corners = o.align_corners;
      c.half_pixel_centers = o.half_pixel_centers;
      u.Set(std::move(c));
      break;
    }
    case kMean:
    case kSum:
    case kReduceProd:
    case kReduceMax:
    case kReduceMin:
    case kReduceAny:
    case kReduceAll: {
      tflite::ReducerOptionsT c;
      c.keep_dims = o.keep_dims;
      u.Set(std::move(c));
      break;
    }
    case kGather: {
      tflite::GatherOptionsT c;
      c.axis = o.axis;
      u.Set(std::move(c));
      break;
    }
    case kSplit: {
      tflite::SplitOptionsT c;
      c.num_splits = o.num_splits;
      u.Set(std::move(c));
      break;
    }
    case kSplitV: {
      tflite::SplitVOptionsT c;
      c.num_splits = o.num_splits;
      u.Set(std::move(c));
      break;
    }
    case kPack: {
      tflite::PackOptionsT c;
      c.axis = o.axis;
      c.values_count = static_cast<int32_t>(node.inputs.size());
      u.Set(std::move(c));
      break;
    }
    case kUnpack: {
      tflite::UnpackOptionsT c;
      c.axis = o.axis;
      c.num = static_cast<int32_t>(node.outputs.size());
      u.Set(std::move(c));
      break;
    }
    case kStridedSlice: {
      tflite::StridedSliceOptionsT c;
      c.begin_mask = o.begin_mask;
      c.end_mask = o.end_mask;
      c.ellipsis_mask = o.ellipsis_mask;
      c.new_axis_mask = o.new_axis_mask;
      c.shrink_axis_mask = o.shrink_axis_mask;
      c.offset = o.offset;
      u.Set(std::move(c));
      break;
    }
    case kLeakyRelu: {
      tflite::LeakyReluOptionsT c;
      c.alpha = o.alpha;
      u.Set(std::move(c));
      break;
    }
    case kMirrorPad: {
      tflite::MirrorPadOptionsT c;
      c.mode = static_cast<tflite::MirrorPadMode>(o.mirror_pad_mode);
      u.Set(std::move(c));
      break;
    }
    case kBatchMatMul: {
      tflite::BatchMatMulOptionsT c;
      c.adj_x = o.adj_x;
      c.adj_y = o.adj_y;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kConv3D:
    case kConv3DTranspose: {
      tflite::Conv3DOptionsT c;
      c.padding = ToSchema(o.padding);
      c.stride_d = o.stride_d;
      c.stride_w = o.stride_w;
      c.stride_h = o.stride_h;
      c.dilation_d_factor = o.dilation_d;
      c.dilation_w_factor = o.dilation_w;
      c.dilation_h_factor = o.dilation_h;
      c.fused_activation_function = ToSchema(o.fused_activation);
      u.Set(std::move(c));
      break;
    }
    case kLstm: {
      tflite::LSTMOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.kernel_type =
          o.lstm_basic_kernel ? tflite::LSTMKernelType::BASIC : tflite::LSTMKernelType::FULL;
      c.cell_clip = o.cell_clip;
      c.proj_clip = o.proj_clip;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kUnidirectionalSequenceLstm: {
      tflite::UnidirectionalSequenceLSTMOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.cell_clip = o.cell_clip;
      c.proj_clip = o.proj_clip;
      c.time_major = o.time_major;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kRnn: {
      tflite::RNNOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kUnidirectionalSequenceRnn: {
      tflite::SequenceRNNOptionsT c;
      c.time_major = o.time_major;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kBidirectionalSequenceRnn: {
      tflite::BidirectionalSequenceRNNOptionsT c;
      c.time_major = o.time_major;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.merge_outputs = o.merge_outputs;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kBidirectionalSequenceLstm: {
      tflite::BidirectionalSequenceLSTMOptionsT c;
      c.fused_activation_function = ToSchema(o.fused_activation);
      c.cell_clip = o.cell_clip;
      c.proj_clip = o.proj_clip;
      c.merge_outputs = o.merge_outputs;
      c.time_major = o.time_major;
      c.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
      u.Set(std::move(c));
      break;
    }
    case kIf: {
      tflite::IfOptionsT c;
      c.then_subgraph_index = o.then_subgraph;
      c.else_subgraph_index = o.else_subgraph;
      u.Set(std::move(c));
      break;
    }
    case kWhile: {
      tflite::WhileOptionsT c;
      c.cond_subgraph_index = o.cond_subgraph;
      c.body_subgraph_index = o.body_subgraph;
      u.Set(std::move(c));
      break;
    }
    case kCallOnce: {
      tflite::CallOnceOptionsT c;
      c.init_subgraph_index = o.init_subgraph;
      u.Set(std::move(c));
      break;
    }
    case kCall: {
      tflite::CallOptionsT c;
      c.subgraph = static_cast<uint32_t>(o.subgraph);
      u.Set(std::move(c));
      break;
    }
    case kVarHandle: {
      // Upstream's converter names the resource after the variable; the output tensor's name is
      // what a synthetic model has for it.
      tflite::VarHandleOptionsT c;
      if (first_output != nullptr) c.shared_name = first_output->name;
      u.Set(std::move(c));
      break;
    }
    case kEmbeddingLookupSparse: {
      auto combiner = EmbeddingLookupSparseCombinerOf(o);
      if (!combiner.ok()) break;
      tflite::EmbeddingLookupSparseOptionsT c;
      c.combiner = static_cast<tflite::CombinerType>(*combiner);
      u.Set(std::move(c));
      break;
    }
    case kRandomStandardNormal:
    case kRandomUniform:
    case kMultinomial: {
      auto seeds = RandomSeedsOf(o);
      if (!seeds.ok()) break;
      tflite::RandomOptionsT c;
      c.seed = seeds->seed;
      c.seed2 = seeds->seed2;
      u.Set(std::move(c));
      break;
    }
    case kFakeQuant: {
      // The loader keeps these in custom_options (unmodelled_builtin_options.h); a node whose
      // options do not read back is written without any, as upstream's defaults.
      auto p = FakeQuantParametersOf(o);
      if (!p.ok()) break;
      tflite::FakeQuantOptionsT c;
      c.min = p->min;
      c.max = p->max;
      c.num_bits = p->num_bits;
      c.narrow_range = p->narrow_range;
      u.Set(std::move(c));
      break;
    }
    default:
      break;
  }
}

// The IR keeps of a sparse tensor only its ledger size (Tensor::sparse_ledger_bytes): written as
// a CSR matrix, dense rows over sparse columns, whose dimension-1 segments and indices add up to
// it (rows = min(shape[0], ledger), so segments = rows + 1 and indices = ledger + 1 - segments).
// Without a ledger size, or for a tensor that is not 2-D, the parameters are empty.
std::unique_ptr<tflite::SparsityParametersT> ToSparsityT(const Tensor& t) {
  auto sparsity = std::make_unique<tflite::SparsityParametersT>();
  if (!t.sparse_ledger_bytes || t.shape.size() != 2) return sparsity;
  const auto ledger = static_cast<int32_t>(*t.sparse_ledger_bytes);
  const int32_t rows = std::min(t.shape[0], ledger);
  const int32_t columns = std::max(t.shape[1], 1);
  const int32_t nonzeros = ledger - rows;
  sparsity->traversal_order = {0, 1};
  auto dense = std::make_unique<tflite::DimensionMetadataT>();
  dense->format = tflite::DimensionType::DENSE;
  dense->dense_size = rows;
  auto csr = std::make_unique<tflite::DimensionMetadataT>();
  csr->format = tflite::DimensionType::SPARSE_CSR;
  tflite::Int32VectorT segments, indices;
  for (int32_t r = 0; r <= rows; ++r) {
    segments.values.push_back(rows == 0 ? 0 : static_cast<int32_t>(int64_t{r} * nonzeros / rows));
  }
  for (int32_t i = 0; i < nonzeros; ++i) indices.values.push_back(i % columns);
  csr->array_segments.Set(std::move(segments));
  csr->array_indices.Set(std::move(indices));
  sparsity->dim_metadata.push_back(std::move(dense));
  sparsity->dim_metadata.push_back(std::move(csr));
  return sparsity;
}

std::unique_ptr<tflite::TensorT> ToTensorT(const Tensor& t, uint32_t buffer) {
  auto out = std::make_unique<tflite::TensorT>();
  out->name = t.name;
  out->type = static_cast<tflite::TensorType>(static_cast<int8_t>(t.type));
  out->shape.assign(t.shape.begin(), t.shape.end());
  out->shape_signature = t.shape_signature;
  out->buffer = buffer;
  out->is_variable = t.is_variable;
  if (!t.quantization->empty()) {
    auto q = std::make_unique<tflite::QuantizationParametersT>();
    q->scale = t.quantization->scale;
    q->zero_point = t.quantization->zero_point;
    q->quantized_dimension = t.quantization->quantized_dimension;
    out->quantization = std::move(q);
  }
  if (t.is_sparse) out->sparsity = ToSparsityT(t);
  return out;
}

// Buffer index of every constant tensor: its own when set, else a fresh one after the highest.
class BufferAssignment {
 public:
  explicit BufferAssignment(const Model& model) {
    for (const Subgraph& sg : model.subgraphs) {
      for (const Tensor& t : sg.tensors) count_ = std::max(count_, t.buffer + 1);
    }
    for (const Subgraph& sg : model.subgraphs) {
      std::vector<int32_t>& indices = indices_.emplace_back();
      for (const Tensor& t : sg.tensors) {
        int32_t index = t.buffer;
        if (index == 0 && t.is_constant() && t.constant_bytes > 0) index = count_++;
        if (index > 0 && t.is_constant()) sizes_[index] = t.constant_bytes;
        indices.push_back(index);
      }
    }
  }
  int32_t count() const { return count_; }
  int32_t index(size_t subgraph, size_t tensor) const { return indices_[subgraph][tensor]; }
  uint64_t size(int32_t buffer) const {
    auto it = sizes_.find(buffer);
    return it == sizes_.end() ? 0 : it->second;
  }

 private:
  int32_t count_ = 1;  // buffer 0 is the empty sentinel
  std::vector<std::vector<int32_t>> indices_;
  std::map<int32_t, uint64_t> sizes_;
};

}  // namespace

tflite::ModelT ToModelT(const Model& model, const ModelData& data) {
  tflite::ModelT out;
  out.version = model.schema_version;
  out.description = model.description;

  const BufferAssignment buffers(model);
  for (int32_t b = 0; b < buffers.count(); ++b) {
    auto buffer = std::make_unique<tflite::BufferT>();
    if (auto it = data.buffers.find(b); it != data.buffers.end()) {
      buffer->data = it->second;
    } else {
      buffer->data.assign(static_cast<size_t>(buffers.size(b)), 0);
    }
    out.buffers.push_back(std::move(buffer));
  }

  std::map<std::tuple<int32_t, std::string, int32_t>, uint32_t> opcode_index;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraphs[s];
    auto sub = std::make_unique<tflite::SubGraphT>();
    sub->name = sg.name;
    sub->inputs = sg.inputs;
    sub->outputs = sg.outputs;
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      sub->tensors.push_back(ToTensorT(sg.tensors[t], static_cast<uint32_t>(buffers.index(s, t))));
    }
    for (const Node& node : sg.nodes) {
      // Delegate kernels have no builtin code; they are written as the custom op they stand for.
      const bool builtin = node.kind == NodeKind::kBuiltin;
      const int32_t code = builtin ? node.builtin_code : kBuiltinCustom;
      const std::string custom_code = builtin ? std::string() : node.op;
      auto [it, inserted] = opcode_index.try_emplace(
          {code, custom_code, node.version}, static_cast<uint32_t>(out.operator_codes.size()));
      if (inserted) {
        auto opcode = std::make_unique<tflite::OperatorCodeT>();
        // Upstream writers clamp the byte field to 127 for codes above it (schema_utils.cc).
        opcode->deprecated_builtin_code =
            static_cast<int8_t>(std::min(code, kBuiltinPlaceholderForGreaterOpCodes));
        opcode->builtin_code = code;
        opcode->custom_code = custom_code;
        opcode->version = node.version;
        out.operator_codes.push_back(std::move(opcode));
      }
      auto op = std::make_unique<tflite::OperatorT>();
      op->opcode_index = it->second;
      op->inputs.assign(node.inputs.begin(), node.inputs.end());
      op->outputs.assign(node.outputs.begin(), node.outputs.end());
      op->intermediates.assign(node.intermediates.begin(), node.intermediates.end());
      const Tensor* first_output = nullptr;
      if (!node.outputs.empty() && node.outputs[0] >= 0 &&
          static_cast<size_t>(node.outputs[0]) < sg.tensors.size()) {
        first_output = &sg.tensors[static_cast<size_t>(node.outputs[0])];
      }
      if (builtin) WriteBuiltinOptions(node, first_output, *op);
      // A builtin whose custom_options hold its builtin options has them written above.
      if (builtin && HasUnmodelledBuiltinOptions(node.op)) {
        op->custom_options.clear();
      } else if (node.options->custom_options.empty()) {
        op->custom_options.assign(static_cast<size_t>(node.options->custom_options_size), 0);
      } else {
        op->custom_options = node.options->custom_options;
      }
      sub->operators.push_back(std::move(op));
    }
    out.subgraphs.push_back(std::move(sub));
  }

  for (const std::string& name : model.metadata_names) {
    auto buffer = std::make_unique<tflite::BufferT>();
    if (auto it = data.metadata.find(name); it != data.metadata.end()) buffer->data = it->second;
    auto metadata = std::make_unique<tflite::MetadataT>();
    metadata->name = name;
    metadata->buffer = static_cast<uint32_t>(out.buffers.size());
    out.buffers.push_back(std::move(buffer));
    out.metadata.push_back(std::move(metadata));
  }

  for (const SignatureDef& sig : model.signatures) {
    auto def = std::make_unique<tflite::SignatureDefT>();
    def->signature_key = sig.key;
    def->subgraph_index = static_cast<uint32_t>(sig.subgraph_index);
    auto write_map = [](const std::vector<std::pair<std::string, int32_t>>& in,
                        std::vector<std::unique_ptr<tflite::TensorMapT>>& maps) {
      for (const auto& [name, tensor] : in) {
        auto map = std::make_unique<tflite::TensorMapT>();
        map->name = name;
        map->tensor_index = static_cast<uint32_t>(tensor);
        maps.push_back(std::move(map));
      }
    };
    write_map(sig.inputs, def->inputs);
    write_map(sig.outputs, def->outputs);
    out.signature_defs.push_back(std::move(def));
  }
  return out;
}

std::vector<uint8_t> PackTflite(const tflite::ModelT& model) {
  flatbuffers::FlatBufferBuilder builder;
  tflite::FinishModelBuffer(builder, tflite::Model::Pack(builder, &model));
  return std::vector<uint8_t>(builder.GetBufferPointer(),
                              builder.GetBufferPointer() + builder.GetSize());
}

std::vector<uint8_t> WriteTflite(const Model& model, const ModelData& data) {
  return PackTflite(ToModelT(model, data));
}

}  // namespace tfa
