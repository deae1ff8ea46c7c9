// The Graph IR every analysis works on: plain data, no behaviour beyond small accessors.
//
// A Model holds subgraphs; a Subgraph holds tensors, nodes and an execution plan. Indices are the
// model's own (tensor i of subgraph s is subgraphs[s].tensors[i]); -1 in a node's input list is
// an optional input that is absent, as in TFLite.
//
// Delegation does not mutate a Subgraph in place: it returns a copy whose `nodes` gain one node
// per delegated subset (kind kDelegateKernel, appended after the model's nodes, as upstream's
// ReplaceNodeSubsetsWithDelegateKernels does) and whose `execution_plan` lists what runs.
// Kernel temporaries that the arena replay models are likewise appended to `tensors`.
#ifndef LIBANALYSIS_MODEL_GRAPH_H_
#define LIBANALYSIS_MODEL_GRAPH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/inline_ints.h"
#include "libanalysis/core/optional_bytes.h"
#include "libanalysis/core/shared_list.h"
#include "libanalysis/core/shared_value.h"
#include "libanalysis/model/tensor_type.h"

namespace tfa {

// Where a tensor's bytes live, as TfLiteAllocationType.
enum class AllocationType : uint8_t {
  kArenaRw,            // planned in the arena (activations, temporaries)
  kArenaRwPersistent,  // planned in the persistent arena (variables, prepared constants)
  kMmapRo,             // constant: points into the model file, never planned
  kDynamic,            // sized at run time, allocated on its own, never planned
  kPersistentRo,       // computed in Prepare (constant folding), heap-allocated, never planned
  kCustom,             // memory supplied from outside (e.g. control-flow aliases), never planned
};

const char* AllocationTypeName(AllocationType type);  // "arena_rw", "mmap_ro", ...
std::optional<AllocationType> AllocationTypeFromName(const std::string& name);

// Builtin kernel in-place registration flags (TfLiteRegistration::inplace_operator).
enum InplaceFlags : uint32_t {
  kInplaceNone = 0,
  kInplaceOpDataUnmodified = 1,
  kInplaceInputShift = 2,  // bit position: input k may be shared when bit (k + 2) is set
  kInplaceInput0Shared = 4,
  kInplaceInput1Shared = 8,
  kInplaceInput2Shared = 16,
};

// A tensor's quantization as InterpreterBuilder::ParseQuantization reads it: affine (scale and
// zero point per tensor or per channel), or blockwise, whose scales and zero points are tensors
// of the subgraph and which ignores the affine fields.
struct Quantization {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
  int32_t block_size = 0;          // blockwise only
  int32_t block_scales = -1;       // blockwise: the scale tensor's index
  int32_t block_zero_points = -1;  // blockwise: the zero-point tensor's index, -1 = all zero
  bool blockwise = false;
  bool empty() const { return scale.empty() && zero_point.empty() && !blockwise; }
  bool per_channel() const { return scale.size() > 1; }
  bool operator==(const Quantization&) const = default;
};

// A node's tensor (or replaced node) indices: most lists have at most three, held inline.
using IdList = InlineInts<3>;
// A tensor's dimensions: up to five inline, which covers nearly every tensor.
using Dims = InlineInts<5>;

// Constant int32 / int64 tensors up to this many elements keep their values in the Graph IR.
inline constexpr uint64_t kMaxConstantIntValues = 64;

// The fields most tensors leave empty (quantization, shape signature, constant values) are
// SharedValues: out of line, shared by the copies of the tensor, no allocation when empty. A
// tensor is 112 bytes instead of 224, and its shape needs no allocation of its own (issue 18).
struct Tensor {
  std::string name;
  Dims shape;
  SharedValue<std::vector<int32_t>> shape_signature;  // empty when the model has none; -1 = dynamic
  // Bytes of data as TfLite computes them (element count * element size; for string and
  // resource tensors: the constant buffer's size, or unknown). nullopt = unknown or overflow.
  OptionalBytes bytes;
  uint64_t constant_bytes = 0;  // bytes of constant data in the model file (0 when none)
  // Sparse constants: the bytes of the ledger the sparse hybrid kernels build from the sparsity
  // metadata (dim_metadata[1]'s indices + segments - 1); nullopt when dimension 1 is not CSR.
  OptionalBytes sparse_ledger_bytes;
  SharedValue<Quantization> quantization;
  // The values of a small int32 / int64 constant (paddings, begin / size, strides, shapes: at
  // most kMaxConstantIntValues elements) as the model stores them, for the delegate rules that
  // read them. Empty when the tensor is no such constant or its source carries no data (Graph
  // JSON).
  SharedValue<std::vector<int64_t>> int_values;
  int32_t buffer = 0;  // model buffer index; 0 = no data
  TensorType type = TensorType::kFloat32;
  AllocationType allocation = AllocationType::kArenaRw;
  bool is_variable = false;
  bool is_sparse = false;

  bool is_constant() const { return allocation == AllocationType::kMmapRo; }
  bool has_dynamic_shape() const {
    for (int32_t d : *shape_signature) {
      if (d < 0) return true;
    }
    return false;
  }
  uint64_t bytes_or_zero() const { return bytes.value_or(0); }
};

enum class Padding : uint8_t { kSame, kValid, kUnknown };
enum class Activation : uint8_t { kNone, kRelu, kReluN1To1, kRelu6, kTanh, kSignBit, kUnknown };
const char* ActivationName(Activation activation);  // upstream's names: "NONE", "RELU", ...

// The builtin options the analyses and kernels read. Fields not set by the op keep defaults.
struct OpOptions {
  Activation fused_activation = Activation::kNone;
  Padding padding = Padding::kUnknown;
  int32_t stride_w = 1, stride_h = 1;
  int32_t dilation_w = 1, dilation_h = 1;
  int32_t stride_d = 1, dilation_d = 1;  // 3-D convolutions
  int32_t filter_w = 0, filter_h = 0;    // pooling window
  int32_t depth_multiplier = 1;
  int32_t axis = 0;        // concatenation, gather, split ...
  int32_t batch_dims = 0;  // gather
  int32_t block_size = 0;  // depth to space, space to depth
  int32_t num_splits = 0;
  bool keep_dims = false;
  bool align_corners = false;
  bool half_pixel_centers = false;
  bool pot_scale_int16 = true;
  bool adj_x = false, adj_y = false;  // batch matmul
  bool keep_num_dims = false;         // fully connected
  int32_t weights_format = 0;         // fully connected: 0 DEFAULT, 1 SHUFFLED4x16INT8
  bool asymmetric_quantize_inputs = false;
  // Recurrent ops: sequence layout, bidirectional output merging, LSTM kernel kind and clips, SVDF
  // rank.
  bool time_major = false;
  bool merge_outputs = false;
  bool lstm_basic_kernel = false;            // LSTMOptions kernel_type BASIC
  float cell_clip = 0.0f, proj_clip = 0.0f;  // LSTMs: 0 clips nothing
  int32_t svdf_rank = 0;
  float beta = 1.0f;                        // softmax, LRN
  float alpha = 0.0f;                       // leaky relu, LRN
  int32_t radius = 0;                       // LRN (LOCAL_RESPONSE_NORMALIZATION)
  float bias = 0.0f;                        // LRN
  bool exclusive = false, reverse = false;  // CUMSUM
  int32_t seq_dim = 0, batch_dim = 0;       // REVERSE_SEQUENCE
  std::vector<float> boundaries;            // BUCKETIZE, sorted
  int32_t mirror_pad_mode = 0;              // 0 REFLECT, 1 SYMMETRIC
  int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
          shrink_axis_mask = 0;    // strided slice
  bool offset = false;             // strided slice
  std::vector<int32_t> new_shape;  // reshape (may be empty)
  std::vector<int32_t> squeeze_dims;
  // Control flow: subgraph indices (-1 = not set).
  int32_t then_subgraph = -1, else_subgraph = -1;
  int32_t cond_subgraph = -1, body_subgraph = -1;
  int32_t init_subgraph = -1;  // CALL_ONCE
  int32_t subgraph = -1;       // CALL / STABLEHLO-style call; a composite's decomposition
  std::string composite_name;  // STABLEHLO_COMPOSITE: "odml.scaled_dot_product_attention", ...
  // Custom ops: the raw custom_options bytes' size (the content is op-specific flexbuffers).
  uint64_t custom_options_size = 0;
  // Custom ops read from a .tflite file: the custom_options bytes themselves (the Prepare replay
  // parses those of the custom ops upstream registers, e.g. TFLite_Detection_PostProcess).
  std::vector<uint8_t> custom_options;

  bool operator==(const OpOptions&) const = default;
};

// A node's options, out of line and shared by the copies of the node until one of them is changed:
// most nodes keep the defaults (no allocation at all), and a graph copy costs a pointer per node
// instead of the 296-byte struct.
using NodeOptions = SharedValue<OpOptions>;

enum class NodeKind : uint8_t {
  kBuiltin,
  kCustom,
  kDelegateKernel,  // created by delegation; `replaces` lists the model nodes it stands for
};

struct Node {
  std::string op;             // upstream builtin name ("CONV_2D"), custom code, or delegate name
  int32_t builtin_code = -1;  // BuiltinOperator value; 32 (CUSTOM) for custom ops
  int32_t version = 1;
  uint32_t inplace = kInplaceNone;  // InplaceFlags bitmask of the kernel registration
  NodeKind kind = NodeKind::kBuiltin;
  bool side_effect = false;  // chained by control edges when partitioning greedily
  NodeOptions options;
  IdList inputs;
  IdList outputs;
  IdList intermediates;
  IdList temporaries;
  IdList replaces;  // kDelegateKernel only: original node indices, in order
};

// A copy of a subgraph shares its tensors and nodes with the original (SharedList): delegation and
// the Prepare replay append to their copies, and change few of the elements they copied.
struct Subgraph {
  std::string name;
  SharedList<Tensor> tensors;
  SharedList<Node> nodes;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<int32_t> variables;
  std::vector<int32_t> execution_plan;  // node indices in execution order
  // Why upstream's AllocateTensors refuses this subgraph although InterpreterBuilder built it
  // (a builtin node whose inputs and outputs overlap marks it inconsistent); empty = it does not.
  std::string allocation_error;
};

struct SignatureDef {
  std::string key;
  int32_t subgraph_index = 0;
  std::vector<std::pair<std::string, int32_t>> inputs;  // name -> tensor index
  std::vector<std::pair<std::string, int32_t>> outputs;
};

struct Model {
  std::string path;    // where it was loaded from (used in error messages)
  std::string format;  // "tflite" or "graph-json"
  uint32_t schema_version = 0;
  std::string description;
  std::vector<Subgraph> subgraphs;
  std::vector<SignatureDef> signatures;
  std::vector<std::string> metadata_names;
  uint64_t constant_bytes = 0;  // sum of constant tensor data in all subgraphs
  bool has_sparse_tensors = false;
  // Graph JSON that describes a model as the .tflite does (options, no kernel temporaries, as
  // `convert` writes it): planned as a .tflite is, with the kernels' Prepare replay and the
  // control-flow interpreter. False for planner-level Graph JSON, which states its temporaries.
  bool kernel_prepare = false;
};

// Whether a delegate that reads `tensor` uploads it once rather than on every inference: the
// model's constants only. Delegates are set up before any CPU kernel's Prepare, so what the CPU
// later makes once (persistent outputs of a constant DEQUANTIZE, outputs folded in Prepare) is a
// runtime input to them and is copied on every Invoke (tflite/delegates/gpu/delegate.cc
// InitializeGraph keeps every input that is not kTfLiteMmapRo).
bool IsMadeOnce(const Tensor& tensor);

// The identity plan 0..n-1 for a subgraph whose plan is empty.
std::vector<int32_t> IdentityExecutionPlan(const Subgraph& subgraph);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_GRAPH_H_
