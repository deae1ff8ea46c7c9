// .tflite reader: flatbuffers Verifier first, then a checked walk of the model into the Graph IR.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/builtin_kernel_flags.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/graph_validation.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"
#include "libanalysis/model/unmodelled_builtin_options.h"

namespace tfa {
namespace {

// The flatbuffers Verifier takes buffers strictly below FLATBUFFERS_MAX_BUFFER_SIZE (it asserts so
// in builds with assertions); bigger models keep their buffers outside the flatbuffer
// (Buffer.offset/size) and only the flatbuffer part is verified.
constexpr uint64_t kMaxFlatbufferBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
// Nesting depth and table count limits for the Verifier: far above real models, low enough that
// a hostile file cannot make verification run away.
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 64;
constexpr flatbuffers::uoffset_t kVerifierMaxTables = 50'000'000;

// InterpreterBuilder::ParseQuantization's checks of an affine table against the tensor's
// dimensions (a scalar skips them), in its words: the quantized dimension must be one of the
// tensor's, and a per-axis table needs one scale per element of it. A converter that writes
// quantized_dimension 3 on rank-1 per-channel biases (TOCO did) makes a model upstream refuses.
std::optional<std::string> InvalidAffineDimension(const Quantization& q, const Dims& dims) {
  if (q.blockwise || q.scale.empty()) return std::nullopt;
  const int32_t dimension = q.quantized_dimension;
  if (dimension < 0 || (!dims.empty() && static_cast<size_t>(dimension) >= dims.size())) {
    return "quantized_dimension must be in range [0, " + std::to_string(dims.size()) + "). Was " +
           std::to_string(dimension) + ".";
  }
  if (q.scale.size() != 1 && !dims.empty() &&
      q.scale.size() != static_cast<size_t>(dims[static_cast<size_t>(dimension)])) {
    return "num_scales must be 1 for per-layer quantization, or " +
           std::to_string(dims[static_cast<size_t>(dimension)]) +
           " for per-axis quantization, but got " + std::to_string(q.scale.size()) + ".";
  }
  return std::nullopt;
}

template <typename T>
std::vector<T> ToVector(const flatbuffers::Vector<T>* v) {
  if (v == nullptr) return {};
  return std::vector<T>(v->begin(), v->end());
}

// Entries of one of a CSR dimension's index vectors; nullopt when it is absent or empty of values.
std::optional<uint64_t> IndexVectorSize(tflite::SparseIndexVector type, const void* vector) {
  if (vector == nullptr) return std::nullopt;
  switch (type) {
    case tflite::SparseIndexVector::Int32Vector:
      if (const auto* v = static_cast<const tflite::Int32Vector*>(vector)->values())
        return v->size();
      return std::nullopt;
    case tflite::SparseIndexVector::Uint16Vector:
      if (const auto* v = static_cast<const tflite::Uint16Vector*>(vector)->values())
        return v->size();
      return std::nullopt;
    case tflite::SparseIndexVector::Uint8Vector:
      if (const auto* v = static_cast<const tflite::Uint8Vector*>(vector)->values())
        return v->size();
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// The ledger the sparse hybrid kernels build (fully_connected.cc CreateLedgerTensor, lstm.cc
// make_ledger): one byte per index of dim_metadata[1] plus one per row (its segments - 1).
std::optional<uint64_t> SparseLedgerBytes(const tflite::SparsityParameters& sparsity) {
  const auto* dims = sparsity.dim_metadata();
  if (dims == nullptr || dims->size() < 2 || dims->Get(1) == nullptr) return std::nullopt;
  const tflite::DimensionMetadata& dim = *dims->Get(1);
  if (dim.format() != tflite::DimensionType::SPARSE_CSR) return std::nullopt;
  const auto segments = IndexVectorSize(dim.array_segments_type(), dim.array_segments());
  const auto indices = IndexVectorSize(dim.array_indices_type(), dim.array_indices());
  if (!segments || !indices || *segments == 0) return std::nullopt;
  return *indices + *segments - 1;
}

Activation ToActivation(tflite::ActivationFunctionType a) {
  switch (a) {
    case tflite::ActivationFunctionType::NONE:
      return Activation::kNone;
    case tflite::ActivationFunctionType::RELU:
      return Activation::kRelu;
    case tflite::ActivationFunctionType::RELU_N1_TO_1:
      return Activation::kReluN1To1;
    case tflite::ActivationFunctionType::RELU6:
      return Activation::kRelu6;
    case tflite::ActivationFunctionType::TANH:
      return Activation::kTanh;
    case tflite::ActivationFunctionType::SIGN_BIT:
      return Activation::kSignBit;
  }
  return Activation::kUnknown;
}

Padding ToPadding(tflite::Padding p) {
  switch (p) {
    case tflite::Padding::SAME:
      return Padding::kSame;
    case tflite::Padding::VALID:
      return Padding::kValid;
  }
  return Padding::kUnknown;
}

// Copies the builtin options the analyses read into OpOptions.
OpOptions ReadOptions(const tflite::Operator& op) {
  using BO = tflite::BuiltinOptions;
  OpOptions o;
  if (op.custom_options()) o.custom_options_size = op.custom_options()->size();
  if (op.large_custom_options_size() > 0) o.custom_options_size = op.large_custom_options_size();
  if (const auto* composite = op.builtin_options_2_as_StableHLOCompositeOptions()) {
    if (composite->name()) o.composite_name = composite->name()->str();
    o.subgraph = composite->decomposition_subgraph_index();
  }
  // A union type without its table (found by fuzzing) reads as upstream's defaults.
  if (op.builtin_options() == nullptr) return o;
  switch (op.builtin_options_type()) {
    case BO::Conv2DOptions: {
      const auto* c = op.builtin_options_as_Conv2DOptions();
      o.padding = ToPadding(c->padding());
      o.stride_w = c->stride_w();
      o.stride_h = c->stride_h();
      o.dilation_w = c->dilation_w_factor();
      o.dilation_h = c->dilation_h_factor();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::DepthwiseConv2DOptions: {
      const auto* c = op.builtin_options_as_DepthwiseConv2DOptions();
      o.padding = ToPadding(c->padding());
      o.stride_w = c->stride_w();
      o.stride_h = c->stride_h();
      o.depth_multiplier = c->depth_multiplier();
      o.dilation_w = c->dilation_w_factor();
      o.dilation_h = c->dilation_h_factor();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::Pool2DOptions: {
      const auto* c = op.builtin_options_as_Pool2DOptions();
      o.padding = ToPadding(c->padding());
      o.stride_w = c->stride_w();
      o.stride_h = c->stride_h();
      o.filter_w = c->filter_width();
      o.filter_h = c->filter_height();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::TransposeConvOptions: {
      const auto* c = op.builtin_options_as_TransposeConvOptions();
      o.padding = ToPadding(c->padding());
      o.stride_w = c->stride_w();
      o.stride_h = c->stride_h();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::FullyConnectedOptions: {
      const auto* c = op.builtin_options_as_FullyConnectedOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.weights_format = static_cast<int32_t>(c->weights_format());
      o.keep_num_dims = c->keep_num_dims();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::SoftmaxOptions:
      o.beta = op.builtin_options_as_SoftmaxOptions()->beta();
      break;
    case BO::ConcatenationOptions: {
      const auto* c = op.builtin_options_as_ConcatenationOptions();
      o.axis = c->axis();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::AddOptions: {
      const auto* c = op.builtin_options_as_AddOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.pot_scale_int16 = c->pot_scale_int16();
      break;
    }
    case BO::SubOptions: {
      const auto* c = op.builtin_options_as_SubOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.pot_scale_int16 = c->pot_scale_int16();
      break;
    }
    case BO::MulOptions:
      o.fused_activation =
          ToActivation(op.builtin_options_as_MulOptions()->fused_activation_function());
      break;
    case BO::DivOptions:
      o.fused_activation =
          ToActivation(op.builtin_options_as_DivOptions()->fused_activation_function());
      break;
    case BO::L2NormOptions:
      o.fused_activation =
          ToActivation(op.builtin_options_as_L2NormOptions()->fused_activation_function());
      break;
    case BO::ReshapeOptions:
      o.new_shape = ToVector(op.builtin_options_as_ReshapeOptions()->new_shape());
      break;
    case BO::SqueezeOptions:
      o.squeeze_dims = ToVector(op.builtin_options_as_SqueezeOptions()->squeeze_dims());
      break;
    case BO::ResizeBilinearOptions: {
      const auto* c = op.builtin_options_as_ResizeBilinearOptions();
      o.align_corners = c->align_corners();
      o.half_pixel_centers = c->half_pixel_centers();
      break;
    }
    case BO::ResizeNearestNeighborOptions: {
      const auto* c = op.builtin_options_as_ResizeNearestNeighborOptions();
      o.align_corners = c->align_corners();
      o.half_pixel_centers = c->half_pixel_centers();
      break;
    }
    case BO::ReducerOptions:
      o.keep_dims = op.builtin_options_as_ReducerOptions()->keep_dims();
      break;
    case BO::DepthToSpaceOptions:
      o.block_size = op.builtin_options_as_DepthToSpaceOptions()->block_size();
      break;
    case BO::SpaceToDepthOptions:
      o.block_size = op.builtin_options_as_SpaceToDepthOptions()->block_size();
      break;
    case BO::GatherOptions:
      o.axis = op.builtin_options_as_GatherOptions()->axis();
      o.batch_dims = op.builtin_options_as_GatherOptions()->batch_dims();
      break;
    case BO::SplitOptions:
      o.num_splits = op.builtin_options_as_SplitOptions()->num_splits();
      break;
    case BO::SplitVOptions:
      o.num_splits = op.builtin_options_as_SplitVOptions()->num_splits();
      break;
    case BO::PackOptions:
      o.axis = op.builtin_options_as_PackOptions()->axis();
      break;
    case BO::UnpackOptions:
      o.axis = op.builtin_options_as_UnpackOptions()->axis();
      break;
    case BO::StridedSliceOptions: {
      const auto* c = op.builtin_options_as_StridedSliceOptions();
      o.begin_mask = c->begin_mask();
      o.end_mask = c->end_mask();
      o.ellipsis_mask = c->ellipsis_mask();
      o.new_axis_mask = c->new_axis_mask();
      o.shrink_axis_mask = c->shrink_axis_mask();
      o.offset = c->offset();
      break;
    }
    case BO::OneHotOptions:
      // The project's schema omits OneHotOptions.axis, upstream's field 0 (an int).
      o.axis =
          static_cast<const flatbuffers::Table*>(op.builtin_options())->GetField<int32_t>(4, 0);
      break;
    case BO::FakeQuantOptions: {
      const auto* c = op.builtin_options_as_FakeQuantOptions();
      o.custom_options = EncodeFakeQuantParameters(
          FakeQuantParameters{c->min(), c->max(), c->num_bits(), c->narrow_range()});
      break;
    }
    case BO::EmbeddingLookupSparseOptions:
      o.custom_options = EncodeEmbeddingLookupSparseCombiner(
          static_cast<int32_t>(op.builtin_options_as_EmbeddingLookupSparseOptions()->combiner()));
      break;
    case BO::RandomOptions: {
      const auto* c = op.builtin_options_as_RandomOptions();
      o.custom_options = EncodeRandomSeeds(RandomSeeds{c->seed(), c->seed2()});
      break;
    }
    case BO::LeakyReluOptions:
      o.alpha = op.builtin_options_as_LeakyReluOptions()->alpha();
      break;
    case BO::LocalResponseNormalizationOptions: {
      const auto* c = op.builtin_options_as_LocalResponseNormalizationOptions();
      o.radius = c->radius();
      o.bias = c->bias();
      o.alpha = c->alpha();
      o.beta = c->beta();
      break;
    }
    case BO::CumsumOptions: {
      const auto* c = op.builtin_options_as_CumsumOptions();
      o.exclusive = c->exclusive();
      o.reverse = c->reverse();
      break;
    }
    case BO::ReverseSequenceOptions: {
      const auto* c = op.builtin_options_as_ReverseSequenceOptions();
      o.seq_dim = c->seq_dim();
      o.batch_dim = c->batch_dim();
      break;
    }
    case BO::BucketizeOptions:
      o.boundaries = ToVector(op.builtin_options_as_BucketizeOptions()->boundaries());
      break;
    case BO::MirrorPadOptions:
      o.mirror_pad_mode = static_cast<int32_t>(op.builtin_options_as_MirrorPadOptions()->mode());
      break;
    case BO::BatchMatMulOptions: {
      const auto* c = op.builtin_options_as_BatchMatMulOptions();
      o.adj_x = c->adj_x();
      o.adj_y = c->adj_y();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::IfOptions: {
      const auto* c = op.builtin_options_as_IfOptions();
      o.then_subgraph = c->then_subgraph_index();
      o.else_subgraph = c->else_subgraph_index();
      break;
    }
    case BO::WhileOptions: {
      const auto* c = op.builtin_options_as_WhileOptions();
      o.cond_subgraph = c->cond_subgraph_index();
      o.body_subgraph = c->body_subgraph_index();
      break;
    }
    case BO::CallOnceOptions:
      o.init_subgraph = op.builtin_options_as_CallOnceOptions()->init_subgraph_index();
      break;
    case BO::Conv3DOptions: {  // CONV_3D and CONV_3D_TRANSPOSE
      const auto* c = op.builtin_options_as_Conv3DOptions();
      o.padding = ToPadding(c->padding());
      o.stride_d = c->stride_d();
      o.stride_w = c->stride_w();
      o.stride_h = c->stride_h();
      o.dilation_d = c->dilation_d_factor();
      o.dilation_w = c->dilation_w_factor();
      o.dilation_h = c->dilation_h_factor();
      o.fused_activation = ToActivation(c->fused_activation_function());
      break;
    }
    case BO::LSTMOptions: {
      const auto* c = op.builtin_options_as_LSTMOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.cell_clip = c->cell_clip();
      o.proj_clip = c->proj_clip();
      o.lstm_basic_kernel = c->kernel_type() == tflite::LSTMKernelType::BASIC;
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::UnidirectionalSequenceLSTMOptions: {
      const auto* c = op.builtin_options_as_UnidirectionalSequenceLSTMOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.cell_clip = c->cell_clip();
      o.proj_clip = c->proj_clip();
      o.time_major = c->time_major();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::BidirectionalSequenceLSTMOptions: {
      const auto* c = op.builtin_options_as_BidirectionalSequenceLSTMOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.cell_clip = c->cell_clip();
      o.proj_clip = c->proj_clip();
      o.time_major = c->time_major();
      o.merge_outputs = c->merge_outputs();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::SequenceRNNOptions: {
      const auto* c = op.builtin_options_as_SequenceRNNOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.time_major = c->time_major();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::BidirectionalSequenceRNNOptions: {
      const auto* c = op.builtin_options_as_BidirectionalSequenceRNNOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.time_major = c->time_major();
      o.merge_outputs = c->merge_outputs();
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::RNNOptions: {
      const auto* c = op.builtin_options_as_RNNOptions();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::SVDFOptions: {
      const auto* c = op.builtin_options_as_SVDFOptions();
      o.svdf_rank = c->rank();
      o.fused_activation = ToActivation(c->fused_activation_function());
      o.asymmetric_quantize_inputs = c->asymmetric_quantize_inputs();
      break;
    }
    case BO::CallOptions:
      o.subgraph = static_cast<int32_t>(op.builtin_options_as_CallOptions()->subgraph());
      break;
    default:
      break;
  }
  return o;
}

class TfliteReader {
 public:
  TfliteReader(std::span<const uint8_t> file, std::string source)
      : file_(file), source_(std::move(source)) {}

  Result<Model> Read() {
    if (file_.size() < 8) {
      return Error("file is " + std::to_string(file_.size()) +
                   " bytes, too short for a .tflite model");
    }
    if (!flatbuffers::BufferHasIdentifier(file_.data(), tflite::ModelIdentifier())) {
      std::string id(reinterpret_cast<const char*>(file_.data()) + 4, 4);
      for (char& c : id) {
        if (c < 0x20 || c > 0x7e) c = '?';
      }
      return Error("file identifier is \"" + id + "\", expected \"TFL3\" (not a .tflite model)");
    }
    const size_t verified =
        static_cast<size_t>(std::min<uint64_t>(file_.size(), kMaxFlatbufferBytes));
    flatbuffers::Verifier verifier(file_.data(), verified, kVerifierMaxDepth, kVerifierMaxTables);
    if (!tflite::VerifyModelBuffer(verifier)) {
      return Error("flatbuffer verification failed (truncated or corrupted file)");
    }
    const tflite::Model* fb = tflite::GetModel(file_.data());

    Model model;
    model.path = source_;
    model.format = "tflite";
    model.schema_version = fb->version();
    if (fb->description()) model.description = fb->description()->str();
    if (fb->metadata()) {
      const size_t buffers = fb->buffers() ? fb->buffers()->size() : 0;
      for (const auto* m : *fb->metadata()) {
        const std::string name = m->name() ? m->name()->str() : std::string();
        if (m->buffer() >= buffers) {
          return Error("metadata \"" + name + "\" names buffer " + std::to_string(m->buffer()) +
                       " of " + std::to_string(buffers));
        }
        model.metadata_names.push_back(name);
      }
    }
    if (!fb->subgraphs() || fb->subgraphs()->size() == 0) {
      return Error(
          "model has no subgraphs (upstream's InterpreterBuilder: \"No subgraph in the model.\")");
    }
    TFA_RETURN_IF_ERROR(ReadOperatorCodes(*fb));
    const size_t subgraph_count = fb->subgraphs()->size();
    for (size_t s = 0; s < subgraph_count; ++s) {
      auto sg = ReadSubgraph(*fb, s);
      if (!sg.ok()) return sg.status();
      model.subgraphs.push_back(std::move(*sg));
    }
    if (Status calls = ValidateSubgraphCalls(model); !calls.ok()) return Error(calls.message());
    if (fb->signature_defs()) {
      for (const auto* def : *fb->signature_defs()) {
        SignatureDef sig;
        if (def->signature_key()) sig.key = def->signature_key()->str();
        sig.subgraph_index = static_cast<int32_t>(def->subgraph_index());
        if (def->subgraph_index() >= subgraph_count) {
          return Error("signature \"" + sig.key + "\" names subgraph " +
                       std::to_string(def->subgraph_index()) + " of " +
                       std::to_string(subgraph_count));
        }
        const size_t tensor_count = model.subgraphs[def->subgraph_index()].tensors.size();
        auto read_map = [&](const flatbuffers::Vector<flatbuffers::Offset<tflite::TensorMap>>* maps,
                            std::vector<std::pair<std::string, int32_t>>& out) -> Status {
          if (!maps) return Status::Ok();
          for (const auto* m : *maps) {
            const std::string name = m->name() ? m->name()->str() : std::string();
            if (m->tensor_index() >= tensor_count) {
              return Error("signature \"" + sig.key + "\": \"" + name + "\" names tensor " +
                           std::to_string(m->tensor_index()) + " of " +
                           std::to_string(tensor_count));
            }
            out.emplace_back(name, static_cast<int32_t>(m->tensor_index()));
          }
          return Status::Ok();
        };
        TFA_RETURN_IF_ERROR(read_map(def->inputs(), sig.inputs));
        TFA_RETURN_IF_ERROR(read_map(def->outputs(), sig.outputs));
        model.signatures.push_back(std::move(sig));
      }
    }
    // Tensors of several subgraphs (an LLM's prefill and decode signatures) may share one weight
    // buffer: the file holds, and the interpreter maps, its bytes once.
    std::unordered_set<int32_t> counted_buffers;
    for (const Subgraph& sg : model.subgraphs) {
      for (const Tensor& t : sg.tensors) {
        if (t.constant_bytes > 0 && counted_buffers.insert(t.buffer).second) {
          model.constant_bytes += t.constant_bytes;
        }
        model.has_sparse_tensors |= t.is_sparse;
      }
    }
    return model;
  }

 private:
  struct OpCode {
    int32_t builtin_code;
    std::string custom_code;
    int32_t version;
  };

  Status Error(const std::string& message) const { return Status::Error(source_ + ": " + message); }

  Status ReadOperatorCodes(const tflite::Model& fb) {
    if (!fb.operator_codes()) return Status::Ok();
    for (size_t i = 0; i < fb.operator_codes()->size(); ++i) {
      const auto* code = fb.operator_codes()->Get(static_cast<flatbuffers::uoffset_t>(i));
      // Files written before the 32-bit builtin_code field only fill the byte-sized
      // deprecated_builtin_code; newer files fill both, with the byte clamped to 127 for codes
      // above it. The larger of the two is the real code (tflite/schema/schema_utils.cc).
      const int32_t builtin =
          std::max<int32_t>(code->builtin_code(), code->deprecated_builtin_code());
      OpCode op{builtin, code->custom_code() ? code->custom_code()->str() : std::string(),
                code->version()};
      if (builtin == kBuiltinCustom && op.custom_code.empty()) {
        return Error("operator code " + std::to_string(i) + " is CUSTOM without a custom_code");
      }
      if (builtin < 0) {
        return Error("operator code " + std::to_string(i) + " has builtin code " +
                     std::to_string(builtin));
      }
      op_codes_.push_back(std::move(op));
    }
    return Status::Ok();
  }

  // Constant data of a buffer: inline data, or the offset/size form of models over 2 GB.
  Result<uint64_t> BufferBytes(const tflite::Model& fb, uint32_t index,
                               const std::string& where) const {
    if (index == 0) return uint64_t{0};
    if (!fb.buffers() || index >= fb.buffers()->size()) {
      return Error(where + ": buffer " + std::to_string(index) + " is out of range (" +
                   std::to_string(fb.buffers() ? fb.buffers()->size() : 0) + " buffers)");
    }
    const tflite::Buffer* b = fb.buffers()->Get(index);
    if (b->offset() > 1) {
      auto end = CheckedAdd(b->offset(), b->size());
      if (!end || *end > file_.size()) {
        return Error(where + ": buffer " + std::to_string(index) + " spans bytes [" +
                     std::to_string(b->offset()) + ", +" + std::to_string(b->size()) +
                     ") beyond the end of the file (" + std::to_string(file_.size()) + " bytes)");
      }
      return b->size();
    }
    return static_cast<uint64_t>(b->data() ? b->data()->size() : 0);
  }

  // The values of a small dense int32 / int64 constant, copied byte-wise (buffer data carries no
  // alignment guarantee). BufferBytes has checked the buffer's range.
  std::vector<int64_t> SmallIntValues(const tflite::Model& fb, uint32_t index,
                                      const Tensor& t) const {
    const size_t element_size = t.type == TensorType::kInt32   ? sizeof(int32_t)
                                : t.type == TensorType::kInt64 ? sizeof(int64_t)
                                                               : 0;
    if (element_size == 0 || t.is_sparse || t.constant_bytes == 0 ||
        t.constant_bytes % element_size != 0 ||
        t.constant_bytes / element_size > kMaxConstantIntValues) {
      return {};
    }
    const tflite::Buffer* b = fb.buffers()->Get(index);
    const uint8_t* data = b->offset() > 1 ? file_.data() + b->offset() : b->data()->data();
    std::vector<int64_t> values(t.constant_bytes / element_size);
    for (size_t i = 0; i < values.size(); ++i) {
      if (element_size == sizeof(int32_t)) {
        int32_t v = 0;
        std::memcpy(&v, data + i * element_size, sizeof(v));
        values[i] = v;
      } else {
        std::memcpy(&values[i], data + i * element_size, sizeof(int64_t));
      }
    }
    return values;
  }

  Result<Subgraph> ReadSubgraph(const tflite::Model& fb, size_t s) {
    const tflite::SubGraph* in = fb.subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(s));
    const std::string where_sg = "subgraph " + std::to_string(s);
    Subgraph sg;
    if (in->name()) sg.name = in->name()->str();
    if (in->tensors()) {
      sg.tensors.reserve(in->tensors()->size());
      for (size_t t = 0; t < in->tensors()->size(); ++t) {
        auto tensor = ReadTensor(fb, *in->tensors()->Get(static_cast<flatbuffers::uoffset_t>(t)),
                                 where_sg + ": tensor " + std::to_string(t));
        if (!tensor.ok()) return tensor.status();
        sg.tensors.push_back(std::move(*tensor));
      }
    }
    sg.inputs = ToVector(in->inputs());
    sg.outputs = ToVector(in->outputs());
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      if (sg.tensors[t].is_variable) sg.variables.push_back(static_cast<int32_t>(t));
    }
    if (in->operators()) {
      sg.nodes.reserve(in->operators()->size());
      for (size_t i = 0; i < in->operators()->size(); ++i) {
        const auto* op = in->operators()->Get(static_cast<flatbuffers::uoffset_t>(i));
        const std::string where = where_sg + ": node " + std::to_string(i);
        if (op->opcode_index() >= op_codes_.size()) {
          return Error(where + ": opcode_index " + std::to_string(op->opcode_index()) +
                       " is out of range (" + std::to_string(op_codes_.size()) +
                       " operator codes)");
        }
        const OpCode& code = op_codes_[op->opcode_index()];
        Node node;
        node.builtin_code = code.builtin_code;
        node.version = code.version;
        if (code.builtin_code == kBuiltinCustom) {
          node.kind = NodeKind::kCustom;
          node.op = code.custom_code;
        } else {
          const char* name = BuiltinName(code.builtin_code);
          node.op = name ? name : "BUILTIN_" + std::to_string(code.builtin_code);
          node.inplace = BuiltinInplaceFlags(code.builtin_code);
          node.side_effect = BuiltinHasSideEffect(code.builtin_code);
        }
        node.inputs = ToVector(op->inputs());
        node.outputs = ToVector(op->outputs());
        node.intermediates = ToVector(op->intermediates());
        node.options = ReadOptions(*op);
        if (op->large_custom_options_size() > 0) {
          auto end = CheckedAdd(op->large_custom_options_offset(), op->large_custom_options_size());
          if (!end || *end > file_.size()) {
            return Error(where + " (" + node.op +
                         "): custom options lie beyond the end of the file");
          }
          if (node.kind == NodeKind::kCustom) {
            const uint8_t* first = file_.data() + op->large_custom_options_offset();
            node.options.Mutable().custom_options.assign(first,
                                                         first + op->large_custom_options_size());
          }
        } else if (node.kind == NodeKind::kCustom && op->custom_options() != nullptr) {
          node.options.Mutable().custom_options.assign(op->custom_options()->begin(),
                                                       op->custom_options()->end());
        }
        sg.nodes.push_back(std::move(node));
      }
    }
    sg.execution_plan = IdentityExecutionPlan(sg);
    sg.allocation_error = OverlappingNodeError(sg);
    if (Status st = ValidateSubgraph(sg, static_cast<int>(s)); !st.ok()) return Error(st.message());
    return sg;
  }

  Result<Tensor> ReadTensor(const tflite::Model& fb, const tflite::Tensor& in,
                            const std::string& where) {
    Tensor t;
    if (in.name()) t.name = in.name()->str();
    const std::string where_named = where + (t.name.empty() ? "" : " \"" + t.name + "\"");
    auto type = TensorTypeFromSchemaValue(static_cast<int>(in.type()));
    if (!type) {
      return Error(where_named + ": unknown tensor type " +
                   std::to_string(static_cast<int>(in.type())));
    }
    t.type = *type;
    t.shape = ToVector(in.shape());
    t.shape_signature = ToVector(in.shape_signature());
    t.is_variable = in.is_variable();
    t.is_sparse = in.sparsity() != nullptr;
    t.buffer = static_cast<int32_t>(in.buffer());
    if (const auto* q = in.quantization()) {
      Quantization quantization;
      quantization.quantized_dimension = q->quantized_dimension();
      // A blockwise table replaces the affine fields (interpreter_builder.cc ParseQuantization).
      if (const auto* blockwise = q->details_as_BlockwiseQuantization()) {
        quantization.blockwise = true;
        quantization.block_scales = blockwise->scales();
        quantization.block_zero_points = blockwise->zero_points();
        quantization.block_size = blockwise->block_size();
      } else {
        if (q->scale()) quantization.scale.assign(q->scale()->begin(), q->scale()->end());
        if (const auto* zp = q->zero_point()) {
          // The Verifier checks a vector's length prefix, not the alignment of 8-byte elements
          // (found by fuzzing: a misaligned int64 load), so copy them out byte-wise.
          const auto* raw = reinterpret_cast<const uint8_t*>(zp->Data());
          quantization.zero_point.resize(zp->size());
          if (zp->size() > 0)
            std::memcpy(quantization.zero_point.data(), raw, zp->size() * sizeof(int64_t));
        }
      }
      if (auto invalid = InvalidAffineDimension(quantization, t.shape)) {
        return Error(where_named + ": " + *invalid +
                     " (InterpreterBuilder refuses the model: invalid quantization parameters)");
      }
      t.quantization = std::move(quantization);  // an empty table holds nothing
    }
    auto data_bytes = BufferBytes(fb, in.buffer(), where_named);
    if (!data_bytes.ok()) return data_bytes.status();
    t.constant_bytes = *data_bytes;
    t.int_values = SmallIntValues(fb, in.buffer(), t);
    // InterpreterBuilder parses sparsity only for constants.
    if (in.sparsity() != nullptr && t.constant_bytes > 0) {
      t.sparse_ledger_bytes = SparseLedgerBytes(*in.sparsity());
    }

    // Bytes as tflite/util.cc BytesRequired computes them: product of dims times element size,
    // sub-byte types packed, overflow-checked. Negative dims (unknown) leave the size unknown.
    std::optional<uint64_t> elements = 1;
    for (int32_t d : t.shape) {
      if (d < 0) {
        elements.reset();
        break;
      }
      elements = CheckedMul(*elements, static_cast<uint64_t>(d));
      if (!elements) {
        return Error(where_named + ": shape has more elements than fit in 64 bits");
      }
    }
    const auto element_size = ElementSize(t.type);
    if (elements && element_size) {
      t.bytes = DataBytes(t.type, *elements);
      if (!t.bytes) return Error(where_named + ": byte size overflows 64 bits");
    }

    // Allocation as InterpreterBuilder::ParseTensors and Subgraph::SetTensorParameters* decide.
    if (t.constant_bytes > 0) {
      if (t.is_variable) {
        return Error(where_named + ": a variable tensor with a constant buffer is not supported");
      }
      t.allocation = AllocationType::kMmapRo;
      if (!element_size || t.is_sparse) {
        t.bytes = t.constant_bytes;  // strings and sparse constants: the buffer is the data
      } else if (t.bytes && *t.bytes != t.constant_bytes) {
        return Error(where_named + ": constant buffer " + std::to_string(in.buffer()) + " holds " +
                     std::to_string(t.constant_bytes) + " bytes but the shape needs " +
                     std::to_string(*t.bytes));
      }
    } else if (!element_size) {
      // Strings, resources and variants without data are sized at run time.
      t.allocation = AllocationType::kDynamic;
      t.bytes.reset();
    } else if (t.is_variable) {
      t.allocation = AllocationType::kArenaRwPersistent;
    } else {
      t.allocation = AllocationType::kArenaRw;
    }
    return t;
  }

  std::span<const uint8_t> file_;
  std::string source_;
  std::vector<OpCode> op_codes_;
};

}  // namespace

Result<Model> ParseTflite(std::span<const uint8_t> file, const std::string& source_name) {
  // Flatbuffers reads scalars in place and assumes the buffer starts suitably aligned; a span
  // into the middle of some other buffer is copied to storage that is. The Model owns all it
  // reads, so the copy can go once parsing is done.
  constexpr uintptr_t kFlatbufferAlignment = 16;
  if (reinterpret_cast<uintptr_t>(file.data()) % kFlatbufferAlignment != 0) {
    const std::vector<uint8_t> aligned(file.begin(), file.end());
    return TfliteReader(aligned, source_name).Read();
  }
  return TfliteReader(file, source_name).Read();
}

Result<std::vector<uint8_t>> ReadFileBytes(const std::string& path, uint64_t max_bytes) {
  // An ifstream opens a directory on Linux and reports a nonsense size for it.
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return Status::Error(path + ": is a directory");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return Status::Error(path + ": cannot open file: " + std::strerror(errno));
  const std::streamoff size = in.tellg();
  if (size < 0) return Status::Error(path + ": cannot read file size");
  if (static_cast<uint64_t>(size) > max_bytes) {
    return Status::Error(path + ": file is " + std::to_string(size) +
                         " bytes, above the limit of " + std::to_string(max_bytes));
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) {
    return Status::Error(path + ": read error");
  }
  return bytes;
}

namespace {

// Graph JSON when the first non-blank byte is '{', else .tflite.
Result<Model> ParseModelBytes(std::span<const uint8_t> bytes, const std::string& path,
                              TextMemory memory) {
  const auto first = std::find_if(bytes.begin(), bytes.end(), [](uint8_t c) {
    return c != ' ' && c != '\n' && c != '\r' && c != '\t';
  });
  if (first != bytes.end() && *first == '{') {
    return ParseGraphJson(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path, memory);
  }
  return ParseTflite(bytes, path);
}

struct Unmap {
  size_t size = 0;
  void operator()(const uint8_t* data) const { munmap(const_cast<uint8_t*>(data), size); }
};
using Mapping = std::unique_ptr<const uint8_t, Unmap>;

}  // namespace

Result<Model> LoadModelFile(const std::string& path, const LoadOptions& options) {
  // A regular file is mapped, not read: the flatbuffer is verified and walked in place, and the
  // pages of weights the analysis never reads are never loaded (an LLM's gigabytes cost nothing).
  // Anything else (a pipe, a file that cannot be mapped) is read whole.
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return Status::Error(path + ": is a directory");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open file: " + std::strerror(errno));
  struct stat st {};
  const bool mappable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  if (mappable && static_cast<uint64_t>(st.st_size) > options.max_file_bytes) {
    close(fd);
    return Status::Error(path + ": file is " + std::to_string(st.st_size) +
                         " bytes, above the limit of " + std::to_string(options.max_file_bytes));
  }
  void* mapped = mappable
                     ? mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                     : MAP_FAILED;
  close(fd);
  if (mapped == MAP_FAILED) {
    auto bytes = ReadFileBytes(path, options.max_file_bytes);
    if (!bytes.ok()) return bytes.status();
    return ParseModelBytes(*bytes, path, TextMemory::kOwned);
  }
  const Mapping mapping(static_cast<const uint8_t*>(mapped),
                        Unmap{static_cast<size_t>(st.st_size)});
  return ParseModelBytes(std::span(mapping.get(), static_cast<size_t>(st.st_size)), path,
                         TextMemory::kFileMapping);
}

}  // namespace tfa
