#include "libanalysis/model/graph_json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "libanalysis/core/char_iterator.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/core/json_nesting.h"
#include "libanalysis/core/json_run_reader.h"
#include "libanalysis/core/mapped_pages.h"
#include "libanalysis/core/parallel_map.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json_layout.h"
#include "libanalysis/model/graph_validation.h"

namespace tfa {
namespace {

using json = nlohmann::json;

// Graph JSON is a handful of levels deep; anything beyond this is not a graph.
constexpr int kMaxJsonDepth = 64;

// A JSON value as the checks need it: its kind and, for scalars, the value.
struct Value {
  enum class Kind : uint8_t {
    kAbsent,
    kNull,
    kBool,
    kInt,
    kUnsigned,
    kFloat,
    kString,
    kArray,
    kObject
  };
  Value() = default;
  explicit Value(Kind k) : kind(k) {}

  Kind kind = Kind::kAbsent;
  bool boolean = false;
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;
  double number = 0;
  std::string text;

  bool present() const { return kind != Kind::kAbsent; }
  bool is_integer() const { return kind == Kind::kInt || kind == Kind::kUnsigned; }
};

// An integer list as it streams in: the elements that fit in int32, up to the first that does
// not (not an integer, or out of int32's range), which is kept aside. Range checks wait for the
// end, when the tensor count is known.
struct IntListValue {
  Value::Kind kind = Value::Kind::kAbsent;
  std::vector<int32_t> values;
  std::optional<Value> first_unfit;

  void Reset(Value::Kind new_kind) {
    kind = new_kind;
    values.clear();
    first_unfit.reset();
  }
  void Add(Value&& element) {
    if (first_unfit) return;
    if (element.kind == Value::Kind::kInt &&
        element.integer >= std::numeric_limits<int32_t>::min() &&
        element.integer <= std::numeric_limits<int32_t>::max()) {
      values.push_back(static_cast<int32_t>(element.integer));
    } else if (element.kind == Value::Kind::kUnsigned &&
               element.unsigned_integer <= std::numeric_limits<int32_t>::max()) {
      values.push_back(static_cast<int32_t>(element.unsigned_integer));
    } else {
      first_unfit = std::move(element);
    }
  }
};

Status Fail(const std::string& path, const std::string& reason) {
  return Status::Error(path + ": " + reason);
}

Status RangeError(const std::string& path, int64_t v, int64_t min, int64_t max) {
  return Fail(path, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]");
}

// The value at `path` + `member` as an integer in [min, max]. The path is joined only for an
// error: a million-node file checks millions of values.
Result<int64_t> Int(const Value& v, const std::string& path, std::string_view member, int64_t min,
                    int64_t max) {
  const auto where = [&] { return path + std::string(member); };
  if (!v.is_integer()) return Fail(where(), "expected an integer");
  int64_t i = v.integer;
  if (v.kind == Value::Kind::kUnsigned) {
    if (v.unsigned_integer > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(where(), "integer out of range");
    }
    i = static_cast<int64_t>(v.unsigned_integer);
  }
  if (i < min || i > max) return RangeError(where(), i, min, max);
  return i;
}

// The list under `key` of the object at `path`, each element in [min, max] (min >= -1 and
// max <= INT32_MAX, so an element that did not fit in int32 is out of range too). A view of
// `list`'s values, which the caller copies into its graph: the list keeps its storage for the
// next object's, so a million nodes' lists cost no allocation here.
Result<std::span<const int32_t>> IntList(const IntListValue& list, const char* key,
                                         const std::string& path, int64_t min, int64_t max,
                                         bool required) {
  if (list.kind == Value::Kind::kAbsent) {
    if (required) return Fail(path, std::string("missing \"") + key + "\"");
    return std::span<const int32_t>();
  }
  // Appended piece by piece: GCC 12's -Wrestrict misfires on a literal + std::string temporary
  // at -O3 (GCC bug 105329), which Release builds make an error.
  const auto element = [&](size_t i) {
    std::string text = ".";
    text += key;
    text += '[';
    text += std::to_string(i);
    text += ']';
    return text;
  };
  if (list.kind != Value::Kind::kArray) return Fail(path + "." + key, "expected an array");
  for (size_t i = 0; i < list.values.size(); ++i) {
    if (list.values[i] < min || list.values[i] > max) {
      return RangeError(path + element(i), list.values[i], min, max);
    }
  }
  if (list.first_unfit) {
    return Int(*list.first_unfit, path, element(list.values.size()), min, max).status();
  }
  return std::span<const int32_t>(list.values);
}

// A member this reader takes whole (node options, quantization, int_values, signatures): small,
// so built as a document from the SAX events. nullopt when absent.
using CollectedValue = std::optional<json>;

json ToJson(Value&& v) {
  switch (v.kind) {
    case Value::Kind::kBool:
      return v.boolean;
    case Value::Kind::kInt:
      return v.integer;
    case Value::Kind::kUnsigned:
      return v.unsigned_integer;
    case Value::Kind::kFloat:
      return v.number;
    case Value::Kind::kString:
      return std::move(v.text);
    default:
      return nullptr;
  }
}

// Builds one collected member from the SAX events inside it.
class JsonCollector {
 public:
  void Start(json& target, Value::Kind kind) {
    target = Container(kind);
    stack_.assign(1, &target);
  }
  void Key(std::string& key) { key_ = std::move(key); }
  void Add(Value&& value) { Insert(ToJson(std::move(value))); }
  void Open(Value::Kind kind) { stack_.push_back(&Insert(Container(kind))); }
  void Close() { stack_.pop_back(); }

 private:
  static json Container(Value::Kind kind) {
    return kind == Value::Kind::kArray ? json::array() : json::object();
  }
  // Only the innermost open container grows, so the pointers on the stack stay valid.
  json& Insert(json&& value) {
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return top.back();
    }
    json& slot = top[key_];
    slot = std::move(value);
    return slot;
  }

  std::vector<json*> stack_;
  std::string key_;
};

Result<int64_t> JsonInt(const json& v, const std::string& path, int64_t min, int64_t max) {
  if (!v.is_number_integer()) return Fail(path, "expected an integer");
  int64_t i = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(path, "integer out of range");
    }
    i = static_cast<int64_t>(u);
  } else {
    i = v.get<int64_t>();
  }
  if (i < min || i > max) return RangeError(path, i, min, max);
  return i;
}

Status JsonFloat(const json& v, const std::string& path, float& out) {
  if (!v.is_number()) return Fail(path, "expected a number");
  const double d = v.get<double>();
  if (std::fabs(d) > std::numeric_limits<float>::max()) return Fail(path, "out of float range");
  out = static_cast<float>(d);
  return Status::Ok();
}

Status JsonBool(const json& v, const std::string& path, bool& out) {
  if (!v.is_boolean()) return Fail(path, "expected a boolean");
  out = v.get<bool>();
  return Status::Ok();
}

Status JsonString(const json& v, const std::string& path, std::string& out) {
  if (!v.is_string()) return Fail(path, "expected a string");
  out = v.get<std::string>();
  return Status::Ok();
}

const char* PaddingName(Padding padding) {
  switch (padding) {
    case Padding::kSame:
      return "SAME";
    case Padding::kValid:
      return "VALID";
    case Padding::kUnknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

constexpr Activation kActivations[] = {
    Activation::kNone, Activation::kRelu,    Activation::kReluN1To1, Activation::kRelu6,
    Activation::kTanh, Activation::kSignBit, Activation::kUnknown};
constexpr Padding kPaddings[] = {Padding::kSame, Padding::kValid, Padding::kUnknown};

// Every OpOptions field under the name Graph JSON gives it (the field's own), visited as
// visit(name, field of a, same field of b): the writer compares with the defaults, the reader
// fills one.
template <typename A, typename B, typename Visit>
void VisitOptionFields(A& a, B& b, Visit&& visit) {
  visit("fused_activation", a.fused_activation, b.fused_activation);
  visit("padding", a.padding, b.padding);
  visit("stride_w", a.stride_w, b.stride_w);
  visit("stride_h", a.stride_h, b.stride_h);
  visit("dilation_w", a.dilation_w, b.dilation_w);
  visit("dilation_h", a.dilation_h, b.dilation_h);
  visit("stride_d", a.stride_d, b.stride_d);
  visit("dilation_d", a.dilation_d, b.dilation_d);
  visit("filter_w", a.filter_w, b.filter_w);
  visit("filter_h", a.filter_h, b.filter_h);
  visit("depth_multiplier", a.depth_multiplier, b.depth_multiplier);
  visit("axis", a.axis, b.axis);
  visit("batch_dims", a.batch_dims, b.batch_dims);
  visit("block_size", a.block_size, b.block_size);
  visit("num_splits", a.num_splits, b.num_splits);
  visit("keep_dims", a.keep_dims, b.keep_dims);
  visit("align_corners", a.align_corners, b.align_corners);
  visit("half_pixel_centers", a.half_pixel_centers, b.half_pixel_centers);
  visit("pot_scale_int16", a.pot_scale_int16, b.pot_scale_int16);
  visit("adj_x", a.adj_x, b.adj_x);
  visit("adj_y", a.adj_y, b.adj_y);
  visit("keep_num_dims", a.keep_num_dims, b.keep_num_dims);
  visit("weights_format", a.weights_format, b.weights_format);
  visit("asymmetric_quantize_inputs", a.asymmetric_quantize_inputs, b.asymmetric_quantize_inputs);
  visit("time_major", a.time_major, b.time_major);
  visit("merge_outputs", a.merge_outputs, b.merge_outputs);
  visit("lstm_basic_kernel", a.lstm_basic_kernel, b.lstm_basic_kernel);
  visit("svdf_rank", a.svdf_rank, b.svdf_rank);
  visit("beta", a.beta, b.beta);
  visit("alpha", a.alpha, b.alpha);
  visit("radius", a.radius, b.radius);
  visit("bias", a.bias, b.bias);
  visit("exclusive", a.exclusive, b.exclusive);
  visit("reverse", a.reverse, b.reverse);
  visit("seq_dim", a.seq_dim, b.seq_dim);
  visit("batch_dim", a.batch_dim, b.batch_dim);
  visit("boundaries", a.boundaries, b.boundaries);
  visit("mirror_pad_mode", a.mirror_pad_mode, b.mirror_pad_mode);
  visit("begin_mask", a.begin_mask, b.begin_mask);
  visit("end_mask", a.end_mask, b.end_mask);
  visit("ellipsis_mask", a.ellipsis_mask, b.ellipsis_mask);
  visit("new_axis_mask", a.new_axis_mask, b.new_axis_mask);
  visit("shrink_axis_mask", a.shrink_axis_mask, b.shrink_axis_mask);
  visit("offset", a.offset, b.offset);
  visit("new_shape", a.new_shape, b.new_shape);
  visit("squeeze_dims", a.squeeze_dims, b.squeeze_dims);
  visit("then_subgraph", a.then_subgraph, b.then_subgraph);
  visit("else_subgraph", a.else_subgraph, b.else_subgraph);
  visit("cond_subgraph", a.cond_subgraph, b.cond_subgraph);
  visit("body_subgraph", a.body_subgraph, b.body_subgraph);
  visit("init_subgraph", a.init_subgraph, b.init_subgraph);
  visit("subgraph", a.subgraph, b.subgraph);
  visit("composite_name", a.composite_name, b.composite_name);
  visit("custom_options_size", a.custom_options_size, b.custom_options_size);
  visit("custom_options", a.custom_options, b.custom_options);
}

Status ReadOption(const json& v, const std::string& path, int32_t& out) {
  auto i =
      JsonInt(v, path, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  if (!i.ok()) return i.status();
  out = static_cast<int32_t>(*i);
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, uint64_t& out) {
  auto i = JsonInt(v, path, 0, std::numeric_limits<int64_t>::max());
  if (!i.ok()) return i.status();
  out = static_cast<uint64_t>(*i);
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, bool& out) {
  return JsonBool(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, float& out) {
  return JsonFloat(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, std::string& out) {
  return JsonString(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, std::vector<int32_t>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    TFA_RETURN_IF_ERROR(ReadOption(v[i], path + "[" + std::to_string(i) + "]", out[i]));
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, std::vector<float>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0.0f);
  for (size_t i = 0; i < v.size(); ++i) {
    TFA_RETURN_IF_ERROR(ReadOption(v[i], path + "[" + std::to_string(i) + "]", out[i]));
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, std::vector<uint8_t>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    auto byte = JsonInt(v[i], path + "[" + std::to_string(i) + "]", 0, 255);
    if (!byte.ok()) return byte.status();
    out[i] = static_cast<uint8_t>(*byte);
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, Activation& out) {
  std::string name;
  TFA_RETURN_IF_ERROR(JsonString(v, path, name));
  for (Activation a : kActivations) {
    if (name == ActivationName(a)) {
      out = a;
      return Status::Ok();
    }
  }
  return Fail(path, "unknown activation \"" + name + "\"");
}
Status ReadOption(const json& v, const std::string& path, Padding& out) {
  std::string name;
  TFA_RETURN_IF_ERROR(JsonString(v, path, name));
  for (Padding p : kPaddings) {
    if (name == PaddingName(p)) {
      out = p;
      return Status::Ok();
    }
  }
  return Fail(path, "unknown padding \"" + name + "\"");
}

Status ReadOptions(const json& v, const std::string& path, OpOptions& o) {
  if (!v.is_object()) return Fail(path, "expected an object");
  for (auto it = v.begin(); it != v.end(); ++it) {
    // Not structured bindings: clang 14 (the fuzz build) cannot capture those in a lambda.
    const std::string& key = it.key();
    const json& value = it.value();
    bool known = false;
    Status status = Status::Ok();
    VisitOptionFields(o, o, [&](const char* name, auto& field, auto&) {
      if (known || key != name) return;
      known = true;
      status = ReadOption(value, path + "." + key, field);
    });
    if (!known) return Fail(path + "." + key, "unknown option");
    TFA_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

Status ReadQuantization(const json& v, const std::string& path, Quantization& q) {
  if (!v.is_object()) return Fail(path, "expected an object");
  for (const auto& [key, value] : v.items()) {
    const std::string member = path + "." + key;
    if (key == "quantized_dimension") {
      TFA_RETURN_IF_ERROR(ReadOption(value, member, q.quantized_dimension));
      continue;
    }
    // Blockwise quantization: any of its members makes the tensor blockwise.
    if (key == "block_size" || key == "block_scales" || key == "block_zero_points") {
      q.blockwise = true;
      int32_t& field = key == "block_size"     ? q.block_size
                       : key == "block_scales" ? q.block_scales
                                               : q.block_zero_points;
      TFA_RETURN_IF_ERROR(ReadOption(value, member, field));
      continue;
    }
    if (key != "scale" && key != "zero_point") return Fail(member, "unknown member");
    if (!value.is_array()) return Fail(member, "expected an array");
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string element = member + "[" + std::to_string(i) + "]";
      if (key == "scale") {
        TFA_RETURN_IF_ERROR(JsonFloat(value[i], element, q.scale.emplace_back()));
      } else {
        auto zero_point = JsonInt(value[i], element, std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max());
        if (!zero_point.ok()) return zero_point.status();
        q.zero_point.push_back(*zero_point);
      }
    }
  }
  return Status::Ok();
}

// The values of a small int32 / int64 constant: as the .tflite loader keeps them, one per
// element of the shape, at most kMaxConstantIntValues.
Status ReadIntValues(const json& v, const std::string& path, Tensor& t) {
  if (!v.is_array()) return Fail(path, "expected an array");
  const bool is_int32 = t.type == TensorType::kInt32;
  if (!is_int32 && t.type != TensorType::kInt64) {
    return Fail(path, "only int32 and int64 tensors carry values");
  }
  if (!t.is_constant()) return Fail(path, "only constant (mmap_ro) tensors carry values");
  uint64_t elements = 1;
  for (int32_t d : t.shape) {
    elements =
        d < 0 ? kMaxConstantIntValues + 1
              : std::min<uint64_t>(elements * static_cast<uint64_t>(d), kMaxConstantIntValues + 1);
  }
  if (elements > kMaxConstantIntValues) {
    return Fail(path, "only tensors of at most " + std::to_string(kMaxConstantIntValues) +
                          " elements carry values");
  }
  if (v.size() != elements) {
    return Fail(path, std::to_string(v.size()) + " values, the shape holds " +
                          std::to_string(elements) + " elements");
  }
  const int64_t min =
      is_int32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
  const int64_t max =
      is_int32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  std::vector<int64_t> values;
  for (size_t i = 0; i < v.size(); ++i) {
    auto value = JsonInt(v[i], path + "[" + std::to_string(i) + "]", min, max);
    if (!value.ok()) return value.status();
    values.push_back(*value);
  }
  t.int_values = std::move(values);
  return Status::Ok();
}

Status ReadMetadataNames(const json& v, std::vector<std::string>& names) {
  if (!v.is_array()) return Fail("metadata_names", "expected an array");
  for (size_t i = 0; i < v.size(); ++i) {
    TFA_RETURN_IF_ERROR(
        JsonString(v[i], "metadata_names[" + std::to_string(i) + "]", names.emplace_back()));
  }
  return Status::Ok();
}

Status ReadSignatures(const json& v, Model& model) {
  if (!v.is_array()) return Fail("signatures", "expected an array");
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string path = "signatures[" + std::to_string(i) + "]";
    const json& s = v[i];
    if (!s.is_object()) return Fail(path, "expected an object");
    SignatureDef& def = model.signatures.emplace_back();
    if (s.contains("key")) TFA_RETURN_IF_ERROR(JsonString(s["key"], path + ".key", def.key));
    if (s.contains("subgraph")) {
      auto index = JsonInt(s["subgraph"], path + ".subgraph", 0,
                           static_cast<int64_t>(model.subgraphs.size()) - 1);
      if (!index.ok()) return index.status();
      def.subgraph_index = static_cast<int32_t>(*index);
    }
    const int64_t tensors = static_cast<int64_t>(
        model.subgraphs[static_cast<size_t>(def.subgraph_index)].tensors.size());
    for (const char* list : {"inputs", "outputs"}) {
      if (!s.contains(list)) continue;
      const std::string list_path = path + "." + list;
      const json& entries = s[list];
      if (!entries.is_array()) return Fail(list_path, "expected an array");
      auto& out = std::string_view(list) == "inputs" ? def.inputs : def.outputs;
      for (size_t k = 0; k < entries.size(); ++k) {
        const std::string entry_path = list_path + "[" + std::to_string(k) + "]";
        const json& entry = entries[k];
        if (!entry.is_object()) return Fail(entry_path, "expected an object");
        auto& [name, tensor] = out.emplace_back();
        if (entry.contains("name")) {
          TFA_RETURN_IF_ERROR(JsonString(entry["name"], entry_path + ".name", name));
        }
        if (!entry.contains("tensor")) return Fail(entry_path, "missing \"tensor\"");
        auto index = JsonInt(entry["tensor"], entry_path + ".tensor", 0, tensors - 1);
        if (!index.ok()) return index.status();
        tensor = static_cast<int32_t>(*index);
      }
    }
  }
  return Status::Ok();
}

// The members of one tensor object, kept until its end because checks run in a fixed order
// whatever the key order (a repeated key keeps its last value, as a JSON object does).
struct TensorMembers {
  Value name, bytes, alloc, type, variable, buffer, constant_bytes, sparse, sparse_ledger_bytes;
  IntListValue shape, shape_signature;
  CollectedValue quantization, int_values;
};

// Fills `t` (a default Tensor) from the members; built in place, as a Tensor is not small.
Status ReadTensor(TensorMembers& m, const std::string& path, Tensor& t) {
  if (m.name.present()) {
    if (m.name.kind != Value::Kind::kString) return Fail(path + ".name", "expected a string");
    t.name = std::move(m.name.text);
  }
  if (!m.bytes.present()) return Fail(path, "missing \"bytes\"");
  if (m.bytes.kind != Value::Kind::kNull) {
    auto bytes = Int(m.bytes, path, ".bytes", 0, std::numeric_limits<int64_t>::max());
    if (!bytes.ok()) return bytes.status();
    t.bytes = static_cast<uint64_t>(*bytes);
  }
  if (m.alloc.present()) {
    if (m.alloc.kind != Value::Kind::kString) return Fail(path + ".alloc", "expected a string");
    auto alloc = AllocationTypeFromName(m.alloc.text);
    if (!alloc) return Fail(path + ".alloc", "unknown allocation \"" + m.alloc.text + "\"");
    t.allocation = *alloc;
  }
  if (m.type.present()) {
    if (m.type.kind != Value::Kind::kString) return Fail(path + ".type", "expected a string");
    auto type = TensorTypeFromName(m.type.text);
    if (!type) return Fail(path + ".type", "unknown type \"" + m.type.text + "\"");
    t.type = *type;
  }
  auto shape = IntList(m.shape, "shape", path, -1, std::numeric_limits<int32_t>::max(), false);
  if (!shape.ok()) return shape.status();
  t.shape.assign(shape->begin(), shape->end());
  auto sig = IntList(m.shape_signature, "shape_signature", path, -1,
                     std::numeric_limits<int32_t>::max(), false);
  if (!sig.ok()) return sig.status();
  t.shape_signature = std::vector<int32_t>(sig->begin(), sig->end());
  if (m.variable.kind == Value::Kind::kBool) t.is_variable = m.variable.boolean;
  if (m.buffer.present()) {
    auto buffer = Int(m.buffer, path, ".buffer", 0, std::numeric_limits<int32_t>::max());
    if (!buffer.ok()) return buffer.status();
    t.buffer = static_cast<int32_t>(*buffer);
  }
  if (m.constant_bytes.present()) {
    auto bytes =
        Int(m.constant_bytes, path, ".constant_bytes", 0, std::numeric_limits<int64_t>::max());
    if (!bytes.ok()) return bytes.status();
    t.constant_bytes = static_cast<uint64_t>(*bytes);
  }
  if (m.sparse.present()) {
    if (m.sparse.kind != Value::Kind::kBool) return Fail(path + ".sparse", "expected a boolean");
    t.is_sparse = m.sparse.boolean;
  }
  if (m.sparse_ledger_bytes.present()) {
    auto bytes = Int(m.sparse_ledger_bytes, path, ".sparse_ledger_bytes", 0,
                     std::numeric_limits<int64_t>::max());
    if (!bytes.ok()) return bytes.status();
    t.sparse_ledger_bytes = static_cast<uint64_t>(*bytes);
  }
  if (m.quantization) {
    Quantization quantization;
    TFA_RETURN_IF_ERROR(ReadQuantization(*m.quantization, path + ".quantization", quantization));
    t.quantization = std::move(quantization);
  }
  if (m.int_values) TFA_RETURN_IF_ERROR(ReadIntValues(*m.int_values, path + ".int_values", t));
  return Status::Ok();
}

struct NodeMembers {
  Value op, inplace, version, side_effect, builtin_code;
  IntListValue inputs, outputs, temporaries, intermediates;
  CollectedValue options;
};

// Fills `n` (a default Node) from the members; built in place, as a Node is not small.
Status ReadNode(NodeMembers& m, const std::string& path, int64_t tensors, Node& n) {
  if (m.op.kind != Value::Kind::kString) return Fail(path, "missing string \"op\"");
  n.op = std::move(m.op.text);
  n.builtin_code = BuiltinCodeFromName(n.op).value_or(kBuiltinCustom);
  if (m.builtin_code.present()) {
    auto code = Int(m.builtin_code, path, ".builtin_code", 0, std::numeric_limits<int32_t>::max());
    if (!code.ok()) return code.status();
    n.builtin_code = static_cast<int32_t>(*code);
    // A builtin node's op is the builtin's name, as the .tflite loader gives it; any name may be
    // a custom op's code.
    if (n.builtin_code != kBuiltinCustom) {
      const char* name = BuiltinName(n.builtin_code);
      const std::string expected = name ? name : "BUILTIN_" + std::to_string(n.builtin_code);
      if (n.op != expected) {
        return Fail(path + ".builtin_code", "builtin code " + std::to_string(n.builtin_code) +
                                                " is " + expected + ", not \"" + n.op + "\"");
      }
    }
  }
  n.kind = n.builtin_code == kBuiltinCustom ? NodeKind::kCustom : NodeKind::kBuiltin;
  auto inputs = IntList(m.inputs, "inputs", path, -1, tensors - 1, true);
  if (!inputs.ok()) return inputs.status();
  n.inputs.assign(inputs->begin(), inputs->end());
  auto outputs = IntList(m.outputs, "outputs", path, 0, tensors - 1, true);
  if (!outputs.ok()) return outputs.status();
  n.outputs.assign(outputs->begin(), outputs->end());
  auto temps = IntList(m.temporaries, "temporaries", path, 0, tensors - 1, false);
  if (!temps.ok()) return temps.status();
  n.temporaries.assign(temps->begin(), temps->end());
  auto inter = IntList(m.intermediates, "intermediates", path, 0, tensors - 1, false);
  if (!inter.ok()) return inter.status();
  n.intermediates.assign(inter->begin(), inter->end());
  if (m.inplace.present()) {
    auto v = Int(m.inplace, path, ".inplace", 0, 0xFFFF);
    if (!v.ok()) return v.status();
    n.inplace = static_cast<uint32_t>(*v);
  }
  if (m.version.present()) {
    auto v = Int(m.version, path, ".version", 1, 1000);
    if (!v.ok()) return v.status();
    n.version = static_cast<int32_t>(*v);
  }
  if (m.side_effect.present()) {
    if (m.side_effect.kind != Value::Kind::kBool) {
      return Fail(path + ".side_effect", "expected a boolean");
    }
    n.side_effect = m.side_effect.boolean;
  }
  if (m.options) {
    OpOptions options;
    TFA_RETURN_IF_ERROR(ReadOptions(*m.options, path + ".options", options));
    n.options = std::move(options);
  }
  return Status::Ok();
}

// The fewest bytes of JSON a tensor or node of a real graph takes ({"name":"t0","bytes":4,...},
// {"op":"ADD","inputs":[0],"outputs":[1]}): the bound of a list's reservation.
constexpr size_t kMinTensorJsonBytes = 40;
constexpr size_t kMinNodeJsonBytes = 30;

// Members this reader looks at; every other key is skipped with its value.
enum class Member : uint8_t {
  kOther,
  kFormat,
  kKernelPrepare,
  kSchemaVersion,
  kDescription,
  kMetadataNames,
  kSignatures,
  kSubgraphs,
  kTensors,
  kNodes,
  kInputs,
  kOutputs,
  kVariables,
  kName,
  kBytes,
  kAlloc,
  kType,
  kShape,
  kShapeSignature,
  kVariable,
  kBuffer,
  kConstantBytes,
  kSparse,
  kSparseLedgerBytes,
  kQuantization,
  kIntValues,
  kOp,
  kBuiltinCode,
  kInplace,
  kVersion,
  kSideEffect,
  kTemporaries,
  kIntermediates,
  kOptions,
};

// Members of the top-level object (a subgraph object takes the subgraph ones among them). Keys
// are matched as string_views: a length check before any byte compare, since every key of a
// million-node file goes through these.
Member TopMember(std::string_view key) {
  if (key == "format") return Member::kFormat;
  if (key == "kernel_prepare") return Member::kKernelPrepare;
  if (key == "schema_version") return Member::kSchemaVersion;
  if (key == "description") return Member::kDescription;
  if (key == "metadata_names") return Member::kMetadataNames;
  if (key == "signatures") return Member::kSignatures;
  if (key == "subgraphs") return Member::kSubgraphs;
  if (key == "name") return Member::kName;
  if (key == "tensors") return Member::kTensors;
  if (key == "nodes") return Member::kNodes;
  if (key == "inputs") return Member::kInputs;
  if (key == "outputs") return Member::kOutputs;
  if (key == "variables") return Member::kVariables;
  return Member::kOther;
}

Member TensorMember(std::string_view key) {
  if (key == "name") return Member::kName;
  if (key == "bytes") return Member::kBytes;
  if (key == "alloc") return Member::kAlloc;
  if (key == "type") return Member::kType;
  if (key == "shape") return Member::kShape;
  if (key == "shape_signature") return Member::kShapeSignature;
  if (key == "variable") return Member::kVariable;
  if (key == "buffer") return Member::kBuffer;
  if (key == "constant_bytes") return Member::kConstantBytes;
  if (key == "sparse") return Member::kSparse;
  if (key == "sparse_ledger_bytes") return Member::kSparseLedgerBytes;
  if (key == "quantization") return Member::kQuantization;
  if (key == "int_values") return Member::kIntValues;
  return Member::kOther;
}

Member NodeMember(std::string_view key) {
  if (key == "op") return Member::kOp;
  if (key == "builtin_code") return Member::kBuiltinCode;
  if (key == "inputs") return Member::kInputs;
  if (key == "outputs") return Member::kOutputs;
  if (key == "temporaries") return Member::kTemporaries;
  if (key == "intermediates") return Member::kIntermediates;
  if (key == "inplace") return Member::kInplace;
  if (key == "version") return Member::kVersion;
  if (key == "side_effect") return Member::kSideEffect;
  if (key == "options") return Member::kOptions;
  return Member::kOther;
}

// Counts the elements of each subgraph's (last) "tensors" array: at 0 the top level's, at k the
// k-th object of the (last) "subgraphs" array. Node indices are checked against it, and a file
// may list its nodes before its tensors.
class TensorCounter {
 public:
  const std::vector<size_t>& counts() const { return counts_; }

  bool null() { return Scalar(); }
  bool boolean(bool) { return Scalar(); }
  bool number_integer(int64_t) { return Scalar(); }
  bool number_unsigned(uint64_t) { return Scalar(); }
  bool number_float(double, const std::string&) { return Scalar(); }
  bool string(std::string&) { return Scalar(); }
  bool binary(json::binary_t&) { return Scalar(); }
  bool start_object(size_t) { return Open(false); }
  bool start_array(size_t) { return Open(true); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& key) {
    if (depth_ == 1) {
      top_key_ = TopMember(key);
    } else if (depth_ == 3 && in_subgraph_) {
      subgraph_tensors_key_ = std::string_view(key) == "tensors";
    }
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  // Whether the value starting now is a subgraph's "tensors" member.
  bool AtTensors() const {
    return (depth_ == 1 && top_key_ == Member::kTensors) ||
           (depth_ == 3 && in_subgraph_ && subgraph_tensors_key_);
  }
  size_t Current() const { return depth_ == 1 ? 0 : counts_.size() - 1; }

  bool Scalar() {
    if (AtTensors()) {
      counts_[Current()] = 0;
    } else if (counting_ && depth_ == counting_depth_) {
      ++counts_[counting_index_];
    }
    return true;
  }
  bool Open(bool is_array) {
    if (AtTensors()) {
      counts_[Current()] = 0;
      counting_ = is_array;
      counting_depth_ = depth_ + 1;
      counting_index_ = Current();
    } else if (counting_ && depth_ == counting_depth_) {
      ++counts_[counting_index_];
    } else if (depth_ == 1 && top_key_ == Member::kSubgraphs && is_array) {
      in_subgraphs_ = true;
      counts_.resize(1);
    } else if (depth_ == 2 && in_subgraphs_ && !is_array) {
      counts_.push_back(0);
      in_subgraph_ = true;
      subgraph_tensors_key_ = false;
    }
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    if (counting_ && depth_ + 1 == counting_depth_) counting_ = false;
    if (depth_ == 2) in_subgraph_ = false;
    if (depth_ == 1) in_subgraphs_ = false;
    return true;
  }

  int depth_ = 0;
  Member top_key_ = Member::kOther;
  bool in_subgraphs_ = false;
  bool in_subgraph_ = false;
  bool subgraph_tensors_key_ = false;
  bool counting_ = false;
  int counting_depth_ = 0;
  size_t counting_index_ = 0;
  std::vector<size_t> counts_ = {0};
};

// One subgraph as its members stream in: the top level's (subgraph 0) or one of "subgraphs".
struct SubgraphMembers {
  std::string path;  // prefix of error paths: "" at the top level, else "subgraphs[k]."
  std::optional<size_t> tensor_count;
  Value name;
  Value::Kind tensors_kind = Value::Kind::kAbsent;
  Value::Kind nodes_kind = Value::Kind::kAbsent;
  bool tensors_done = false;
  bool nodes_started = false;
  size_t tensor_count_seen = 0;
  size_t node_count_seen = 0;
  Status tensor_error = Status::Ok();
  Status node_error = Status::Ok();
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;
  IntListValue inputs, outputs, variables;
};

// One run of a subgraph's tensor (or node) list, read on its own: the elements numbered from
// `first` go to `tensors` (or `nodes`), in place; nodes are checked against `tensor_count`.
struct ListPart {
  std::string path;  // the subgraph's prefix of error paths
  size_t first = 0;
  size_t tensor_count = 0;
  std::span<Tensor> tensors;
  std::span<Node> nodes;
};

// Builds the model as the SAX events arrive, never holding the document. Errors are kept, not
// returned at once, so that the one reported is the one a whole-document check would name first:
// syntax, then the document's shape, the format, then each subgraph (each tensor in order, each
// node, the graph's lists), then the model's own members.
class GraphJsonReader {
 public:
  GraphJsonReader(size_t text_size, size_t object_count,
                  std::optional<std::vector<size_t>> tensor_counts)
      : text_size_(text_size),
        object_count_(object_count),
        tensor_counts_(std::move(tensor_counts)) {
    AddSubgraph("");
  }

  // A reader of one part of a list, given as a JSON array of its own.
  explicit GraphJsonReader(const ListPart& part)
      : text_size_(0), object_count_(0), tensor_counts_(std::nullopt), part_(&part) {
    AddSubgraph(part.path);
  }

  // Whether a part reader read its part whole, each element accepted.
  bool ReadPartWhole() const {
    const SubgraphMembers& s = subgraphs_[0];
    const size_t size = part_->tensors.empty() ? part_->nodes.size() : part_->tensors.size();
    const size_t seen = part_->tensors.empty() ? s.node_count_seen : s.tensor_count_seen;
    return syntax_error_.empty() && s.tensor_error.ok() && s.node_error.ok() &&
           seen == part_->first + size;
  }

  // Gives subgraph `subgraph` the list its parts were read into, after the rest of the text was
  // read with that list left out (empty). False when the text holds no such subgraph.
  template <typename T>
  bool PlaceList(size_t subgraph, std::vector<T>&& elements) {
    if (subgraph >= subgraphs_.size()) return false;
    SubgraphMembers& s = subgraphs_[subgraph];
    if constexpr (std::is_same_v<T, Tensor>) {
      s.tensor_count_seen = elements.size();
      s.tensors = std::move(elements);
    } else {
      s.node_count_seen = elements.size();
      s.nodes = std::move(elements);
    }
    return true;
  }

  // Set when some subgraph's nodes came before its tensors: read again, with the tensors
  // counted first.
  bool needs_tensor_count() const { return needs_tensor_count_; }

  Result<Model> Finish(const std::string& source_name) {
    auto fail = [&](const Status& s) { return s.WithContext(source_name); };
    if (!syntax_error_.empty()) {
      return Status::Error(source_name + ": not valid JSON: " + syntax_error_);
    }
    if (!is_object_) return fail(Fail("document", "expected a JSON object"));
    if (format_.kind != Value::Kind::kString || format_.text != kGraphJsonFormat) {
      return fail(Fail("format", "expected \"" + std::string(kGraphJsonFormat) + "\""));
    }
    for (size_t k = 0; k < subgraphs_.size(); ++k) {
      if (k == 1 && !subgraphs_error_.ok()) break;
      if (Status s = FinishSubgraph(subgraphs_[k], k); !s.ok()) return fail(s);
    }
    if (!subgraphs_error_.ok()) return fail(subgraphs_error_);
    if (Status s = FinishModel(); !s.ok()) return fail(s);
    model_.path = source_name;
    model_.format = "graph-json";
    return std::move(model_);
  }

  bool null() { return Scalar(Value{Value::Kind::kNull}); }
  bool boolean(bool b) {
    Value v{Value::Kind::kBool};
    v.boolean = b;
    return Scalar(std::move(v));
  }
  bool number_integer(int64_t i) {
    Value v{Value::Kind::kInt};
    v.integer = i;
    return Scalar(std::move(v));
  }
  bool number_unsigned(uint64_t u) {
    Value v{Value::Kind::kUnsigned};
    v.unsigned_integer = u;
    return Scalar(std::move(v));
  }
  bool number_float(double d, const std::string&) {
    Value v{Value::Kind::kFloat};
    v.number = d;
    return Scalar(std::move(v));
  }
  bool string(std::string& s) {
    Value v{Value::Kind::kString};
    v.text = std::move(s);
    return Scalar(std::move(v));
  }
  bool binary(json::binary_t&) { return Scalar(Value{Value::Kind::kObject}); }
  bool start_object(size_t) { return Open(Value::Kind::kObject); }
  bool start_array(size_t) { return Open(Value::Kind::kArray); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& key) {
    switch (frames_.back()) {
      case Frame::kTop:
      case Frame::kSubgraph:
        member_ = TopMember(key);
        break;
      case Frame::kTensor:
        member_ = TensorMember(key);
        break;
      case Frame::kNode:
        member_ = NodeMember(key);
        break;
      case Frame::kCollect:
        collector_.Key(key);
        break;
      default:
        break;
    }
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
    syntax_error_ = e.what();
    return false;
  }

 private:
  enum class Frame : uint8_t {
    kTop,
    kSubgraphs,
    kSubgraph,
    kTensors,
    kTensor,
    kNodes,
    kNode,
    kList,
    kCollect,
    kSkipped
  };

  SubgraphMembers& Current() { return subgraphs_[current_]; }
  bool InSubgraphObject() const {
    return frames_.back() == Frame::kTop || frames_.back() == Frame::kSubgraph;
  }

  void AddSubgraph(std::string path) {
    const size_t index = subgraphs_.size();
    SubgraphMembers& s = subgraphs_.emplace_back();
    s.path = std::move(path);
    if (tensor_counts_) {
      s.tensor_count = index < tensor_counts_->size() ? (*tensor_counts_)[index] : 0;
    }
  }

  Status FinishSubgraph(SubgraphMembers& m, size_t index) {
    const std::string lists_path =
        m.path.empty() ? std::string("graph") : m.path.substr(0, m.path.size() - 1);
    if (m.tensors_kind != Value::Kind::kArray) return Fail(m.path + "tensors", "missing array");
    if (m.nodes_kind != Value::Kind::kArray) return Fail(m.path + "nodes", "missing array");
    TFA_RETURN_IF_ERROR(m.tensor_error);
    TFA_RETURN_IF_ERROR(m.node_error);
    Subgraph& sg = model_.subgraphs.emplace_back();
    if (m.name.present()) {
      if (m.name.kind != Value::Kind::kString) return Fail(m.path + "name", "expected a string");
      sg.name = std::move(m.name.text);
    }
    sg.tensors = std::move(m.tensors);
    sg.nodes = std::move(m.nodes);
    const int64_t n_tensors = static_cast<int64_t>(sg.tensors.size());
    auto inputs = IntList(m.inputs, "inputs", lists_path, 0, n_tensors - 1, false);
    if (!inputs.ok()) return inputs.status();
    sg.inputs.assign(inputs->begin(), inputs->end());
    auto outputs = IntList(m.outputs, "outputs", lists_path, 0, n_tensors - 1, false);
    if (!outputs.ok()) return outputs.status();
    sg.outputs.assign(outputs->begin(), outputs->end());
    auto variables = IntList(m.variables, "variables", lists_path, 0, n_tensors - 1, false);
    if (!variables.ok()) return variables.status();
    sg.variables.assign(variables->begin(), variables->end());
    for (int32_t v : sg.variables) sg.tensors[static_cast<size_t>(v)].is_variable = true;
    sg.execution_plan = IdentityExecutionPlan(sg);
    return ValidateSubgraph(sg, static_cast<int>(index));
  }

  Status FinishModel() {
    if (kernel_prepare_.present()) {
      if (kernel_prepare_.kind != Value::Kind::kBool) {
        return Fail("kernel_prepare", "expected a boolean");
      }
      model_.kernel_prepare = kernel_prepare_.boolean;
    }
    // The Prepare replay adds the kernels' temporaries; stated ones would count twice.
    for (size_t k = 0; model_.kernel_prepare && k < model_.subgraphs.size(); ++k) {
      const SharedList<Node>& nodes = model_.subgraphs[k].nodes;
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].temporaries.empty()) continue;
        return Fail(subgraphs_[k].path + "nodes[" + std::to_string(i) + "].temporaries",
                    "a kernel_prepare model leaves temporaries to the kernels' Prepare");
      }
    }
    if (schema_version_.present()) {
      auto v = Int(schema_version_, "schema_version", "", 0, std::numeric_limits<uint32_t>::max());
      if (!v.ok()) return v.status();
      model_.schema_version = static_cast<uint32_t>(*v);
    }
    if (description_.present()) {
      if (description_.kind != Value::Kind::kString) {
        return Fail("description", "expected a string");
      }
      model_.description = std::move(description_.text);
    }
    if (metadata_names_)
      TFA_RETURN_IF_ERROR(ReadMetadataNames(*metadata_names_, model_.metadata_names));
    if (signatures_) TFA_RETURN_IF_ERROR(ReadSignatures(*signatures_, model_));
    TFA_RETURN_IF_ERROR(ValidateSubgraphCalls(model_));
    // Tensors that name one weight buffer (several signatures sharing weights) count it once, as
    // the .tflite loader does; planner-level constants without a buffer count their bytes.
    std::unordered_set<int32_t> counted_buffers;
    for (const Subgraph& sg : model_.subgraphs) {
      for (const Tensor& t : sg.tensors) {
        model_.has_sparse_tensors |= t.is_sparse;
        uint64_t bytes = 0;
        if (t.constant_bytes > 0) {
          if (t.buffer == 0 || counted_buffers.insert(t.buffer).second) bytes = t.constant_bytes;
        } else if (t.is_constant()) {
          bytes = t.bytes_or_zero();
        }
        auto sum = CheckedAdd(model_.constant_bytes, bytes);
        if (!sum) return Fail("tensors", "constant bytes overflow 64 bits");
        model_.constant_bytes = *sum;
      }
    }
    return Status::Ok();
  }

  // Where a scalar value of the current member of a subgraph, tensor or node object goes.
  Value* ScalarSlot() {
    switch (frames_.back()) {
      case Frame::kTop:
      case Frame::kSubgraph: {
        const bool top = frames_.back() == Frame::kTop;
        switch (member_) {
          case Member::kName:
            return &Current().name;
          case Member::kFormat:
            return top ? &format_ : nullptr;
          case Member::kKernelPrepare:
            return top ? &kernel_prepare_ : nullptr;
          case Member::kSchemaVersion:
            return top ? &schema_version_ : nullptr;
          case Member::kDescription:
            return top ? &description_ : nullptr;
          default:
            return nullptr;
        }
      }
      case Frame::kTensor:
        switch (member_) {
          case Member::kName:
            return &tensor_.name;
          case Member::kBytes:
            return &tensor_.bytes;
          case Member::kAlloc:
            return &tensor_.alloc;
          case Member::kType:
            return &tensor_.type;
          case Member::kVariable:
            return &tensor_.variable;
          case Member::kBuffer:
            return &tensor_.buffer;
          case Member::kConstantBytes:
            return &tensor_.constant_bytes;
          case Member::kSparse:
            return &tensor_.sparse;
          case Member::kSparseLedgerBytes:
            return &tensor_.sparse_ledger_bytes;
          default:
            return nullptr;
        }
      case Frame::kNode:
        switch (member_) {
          case Member::kOp:
            return &node_.op;
          case Member::kBuiltinCode:
            return &node_.builtin_code;
          case Member::kInplace:
            return &node_.inplace;
          case Member::kVersion:
            return &node_.version;
          case Member::kSideEffect:
            return &node_.side_effect;
          default:
            return nullptr;
        }
      default:
        return nullptr;
    }
  }

  IntListValue* ListSlot() {
    switch (frames_.back()) {
      case Frame::kTop:
      case Frame::kSubgraph:
        if (member_ == Member::kInputs) return &Current().inputs;
        if (member_ == Member::kOutputs) return &Current().outputs;
        if (member_ == Member::kVariables) return &Current().variables;
        return nullptr;
      case Frame::kTensor:
        if (member_ == Member::kShape) return &tensor_.shape;
        if (member_ == Member::kShapeSignature) return &tensor_.shape_signature;
        return nullptr;
      case Frame::kNode:
        if (member_ == Member::kInputs) return &node_.inputs;
        if (member_ == Member::kOutputs) return &node_.outputs;
        if (member_ == Member::kTemporaries) return &node_.temporaries;
        if (member_ == Member::kIntermediates) return &node_.intermediates;
        return nullptr;
      default:
        return nullptr;
    }
  }

  // Where a member taken whole goes.
  CollectedValue* CollectSlot() {
    switch (frames_.back()) {
      case Frame::kTop:
        if (member_ == Member::kMetadataNames) return &metadata_names_;
        if (member_ == Member::kSignatures) return &signatures_;
        return nullptr;
      case Frame::kTensor:
        if (member_ == Member::kQuantization) return &tensor_.quantization;
        if (member_ == Member::kIntValues) return &tensor_.int_values;
        return nullptr;
      case Frame::kNode:
        return member_ == Member::kOptions ? &node_.options : nullptr;
      default:
        return nullptr;
    }
  }

  // A value that is a member of the current object (or, in a list frame, an element).
  bool Scalar(Value&& v) {
    if (frames_.empty()) return true;  // a document that is not an object
    switch (frames_.back()) {
      case Frame::kSkipped:
        return true;
      case Frame::kList:
        list_->Add(std::move(v));
        return true;
      case Frame::kCollect:
        collector_.Add(std::move(v));
        return true;
      case Frame::kSubgraphs:
        NotAnObject("subgraphs", subgraph_count_seen_++, subgraphs_error_);
        return true;
      case Frame::kTensors:
        NotAnObject(Current().path + "tensors", Current().tensor_count_seen++,
                    Current().tensor_error);
        return true;
      case Frame::kNodes:
        NotAnObject(Current().path + "nodes", Current().node_count_seen++, Current().node_error);
        return true;
      default:
        break;
    }
    if (InSubgraphObject()) {
      if (member_ == Member::kTensors) StartTensors(v.kind);
      if (member_ == Member::kNodes) Current().nodes_kind = v.kind;
      if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) NotAnArray();
    }
    const Value::Kind kind = v.kind;
    if (IntListValue* list = ListSlot()) list->Reset(kind);
    if (CollectedValue* slot = CollectSlot()) *slot = ToJson(std::move(v));
    if (Value* slot = ScalarSlot()) *slot = std::move(v);
    return true;
  }

  bool Open(Value::Kind kind) {
    objects_opened_ += kind == Value::Kind::kObject;
    if (frames_.empty() && part_) {
      SubgraphMembers& s = Current();
      const bool nodes = part_->tensors.empty();
      s.tensor_count = part_->tensor_count;
      (nodes ? s.nodes_kind : s.tensors_kind) = kind;
      (nodes ? s.node_count_seen : s.tensor_count_seen) = part_->first;
      frames_.push_back(kind != Value::Kind::kArray ? Frame::kSkipped
                        : nodes                     ? Frame::kNodes
                                                    : Frame::kTensors);
      return true;
    }
    if (frames_.empty()) {
      is_object_ = kind == Value::Kind::kObject;
      frames_.push_back(is_object_ ? Frame::kTop : Frame::kSkipped);
      return true;
    }
    switch (frames_.back()) {
      case Frame::kSkipped:
        frames_.push_back(Frame::kSkipped);
        return true;
      case Frame::kList:
        list_->Add(Value{kind});
        frames_.push_back(Frame::kSkipped);
        return true;
      case Frame::kCollect:
        collector_.Open(kind);
        frames_.push_back(Frame::kCollect);
        return true;
      case Frame::kSubgraphs:
        if (kind == Value::Kind::kObject) {
          AddSubgraph("subgraphs[" + std::to_string(subgraph_count_seen_++) + "].");
          current_ = subgraphs_.size() - 1;
          frames_.push_back(Frame::kSubgraph);
        } else {
          NotAnObject("subgraphs", subgraph_count_seen_++, subgraphs_error_);
          frames_.push_back(Frame::kSkipped);
        }
        return true;
      case Frame::kTensors:
        if (kind == Value::Kind::kObject) {
          tensor_ = TensorMembers{};
          frames_.push_back(Frame::kTensor);
        } else {
          NotAnObject(Current().path + "tensors", Current().tensor_count_seen++,
                      Current().tensor_error);
          frames_.push_back(Frame::kSkipped);
        }
        return true;
      case Frame::kNodes:
        if (kind == Value::Kind::kObject) {
          node_ = NodeMembers{};
          frames_.push_back(Frame::kNode);
        } else {
          NotAnObject(Current().path + "nodes", Current().node_count_seen++, Current().node_error);
          frames_.push_back(Frame::kSkipped);
        }
        return true;
      default:
        break;
    }
    if (InSubgraphObject() && kind == Value::Kind::kArray) {
      SubgraphMembers& s = Current();
      if (member_ == Member::kTensors) {
        if (s.nodes_started && !s.tensor_count) return NeedTensorCount();
        StartTensors(kind);
        s.tensors.reserve(ListCapacity(kMinTensorJsonBytes));
        frames_.push_back(Frame::kTensors);
        return true;
      }
      if (member_ == Member::kNodes) {
        if (!s.tensor_count && !s.tensors_done) return NeedTensorCount();
        s.nodes_kind = kind;
        s.nodes_started = true;
        s.nodes.clear();
        s.nodes.reserve(ListCapacity(kMinNodeJsonBytes));
        s.node_error = Status::Ok();
        s.node_count_seen = 0;
        frames_.push_back(Frame::kNodes);
        return true;
      }
      if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) {
        // A repeated key keeps its last value.
        subgraphs_.resize(1);
        subgraphs_error_ = Status::Ok();
        subgraph_count_seen_ = 0;
        frames_.push_back(Frame::kSubgraphs);
        return true;
      }
    }
    if (InSubgraphObject()) {
      if (member_ == Member::kTensors) StartTensors(kind);
      if (member_ == Member::kNodes) Current().nodes_kind = kind;
      if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) NotAnArray();
    }
    if (Value* slot = ScalarSlot()) *slot = Value{kind};
    if (CollectedValue* slot = CollectSlot()) {
      collector_.Start(slot->emplace(), kind);
      frames_.push_back(Frame::kCollect);
      return true;
    }
    if (IntListValue* list = ListSlot()) {
      list->Reset(kind);
      if (kind == Value::Kind::kArray) {
        list_ = list;
        frames_.push_back(Frame::kList);
        return true;
      }
    }
    frames_.push_back(Frame::kSkipped);
    return true;
  }

  bool Close() {
    const Frame closed = frames_.back();
    frames_.pop_back();
    switch (closed) {
      case Frame::kTensor:
        FinishTensor();
        break;
      case Frame::kNode:
        FinishNode();
        break;
      case Frame::kTensors:
        Current().tensors_done = true;
        break;
      case Frame::kSubgraph:
        current_ = 0;
        break;
      case Frame::kCollect:
        collector_.Close();
        break;
      default:
        break;
    }
    return true;
  }

  // What a tensor or node list opening now can hold: no more elements than objects left in the
  // text, nor than the text holds at the fewest bytes a real element takes. Reserved once, the
  // list is written in place; grown by doubling, it would touch twice its size and peak at one
  // and a half. A reservation beyond the elements is address space, never touched.
  size_t ListCapacity(size_t min_element_bytes) const {
    return std::min(object_count_ - std::min(object_count_, objects_opened_),
                    text_size_ / min_element_bytes);
  }

  bool NeedTensorCount() {
    needs_tensor_count_ = true;
    return false;
  }

  void NotAnArray() {
    subgraphs_.resize(1);
    subgraph_count_seen_ = 0;
    subgraphs_error_ = Fail("subgraphs", "expected an array");
  }

  void StartTensors(Value::Kind kind) {
    SubgraphMembers& s = Current();
    s.tensors_kind = kind;
    s.tensors.clear();
    s.tensor_error = Status::Ok();
    s.tensor_count_seen = 0;
  }

  static void NotAnObject(const std::string& what, size_t index, Status& first_error) {
    if (first_error.ok()) {
      first_error = Fail(what + "[" + std::to_string(index) + "]", "expected an object");
    }
  }

  void FinishTensor() {
    SubgraphMembers& s = Current();
    const size_t index = s.tensor_count_seen++;
    if (!s.tensor_error.ok()) return;
    Tensor* t =
        part_ ? PartElement(part_->tensors, index, s.tensor_error) : &s.tensors.emplace_back();
    if (!t) return;
    s.tensor_error = ReadTensor(tensor_, s.path + "tensors[" + std::to_string(index) + "]", *t);
    if (!s.tensor_error.ok() && !part_) s.tensors.pop_back();
  }

  void FinishNode() {
    SubgraphMembers& s = Current();
    const size_t index = s.node_count_seen++;
    if (!s.node_error.ok()) return;
    const int64_t tensors =
        static_cast<int64_t>(s.tensor_count ? *s.tensor_count : s.tensor_count_seen);
    Node* n = part_ ? PartElement(part_->nodes, index, s.node_error) : &s.nodes.emplace_back();
    if (!n) return;
    s.node_error = ReadNode(node_, s.path + "nodes[" + std::to_string(index) + "]", tensors, *n);
    if (!s.node_error.ok() && !part_) s.nodes.pop_back();
  }

  // Where element `index` of a part goes; null, with `error` set, past the part's end.
  template <typename T>
  T* PartElement(std::span<T> part, size_t index, Status& error) const {
    const size_t at = index - part_->first;
    if (at < part.size()) return &part[at];
    error = Status::Error("more elements than the layout scan found");
    return nullptr;
  }

  const size_t text_size_;
  const size_t object_count_;
  size_t objects_opened_ = 0;
  const std::optional<std::vector<size_t>> tensor_counts_;
  bool needs_tensor_count_ = false;
  std::string syntax_error_;
  bool is_object_ = false;
  std::vector<Frame> frames_;
  Member member_ = Member::kOther;
  IntListValue* list_ = nullptr;
  JsonCollector collector_;

  Value format_, kernel_prepare_, schema_version_, description_;
  CollectedValue metadata_names_, signatures_;
  std::vector<SubgraphMembers> subgraphs_;
  size_t current_ = 0;
  Status subgraphs_error_ = Status::Ok();
  size_t subgraph_count_seen_ = 0;
  TensorMembers tensor_;
  NodeMembers node_;
  Model model_;
  const ListPart* part_ = nullptr;  // set for a reader of one part of a list
};

using ordered_json = nlohmann::ordered_json;

ordered_json TensorJson(const Tensor& t) {
  ordered_json jt;
  jt["name"] = t.name;
  jt["bytes"] = t.bytes ? ordered_json(*t.bytes) : ordered_json(nullptr);
  jt["alloc"] = AllocationTypeName(t.allocation);
  jt["type"] = TensorTypeName(t.type);
  jt["shape"] = t.shape;
  if (!t.shape_signature->empty()) jt["shape_signature"] = *t.shape_signature;
  if (t.is_variable) jt["variable"] = true;
  if (t.buffer != 0) jt["buffer"] = t.buffer;
  if (t.constant_bytes != 0) jt["constant_bytes"] = t.constant_bytes;
  if (t.is_sparse) jt["sparse"] = true;
  if (t.sparse_ledger_bytes) jt["sparse_ledger_bytes"] = *t.sparse_ledger_bytes;
  const Quantization& q = t.quantization;
  if (!q.empty() || q.quantized_dimension != 0) {
    ordered_json jq;
    jq["scale"] = q.scale;
    jq["zero_point"] = q.zero_point;
    jq["quantized_dimension"] = q.quantized_dimension;
    if (q.blockwise) {
      jq["block_size"] = q.block_size;
      jq["block_scales"] = q.block_scales;
      jq["block_zero_points"] = q.block_zero_points;
    }
    jt["quantization"] = std::move(jq);
  }
  if (!t.int_values->empty()) jt["int_values"] = *t.int_values;
  return jt;
}

ordered_json OptionJson(Activation a) { return ActivationName(a); }
ordered_json OptionJson(Padding p) { return PaddingName(p); }
template <typename T>
ordered_json OptionJson(const T& value) {
  return value;
}

ordered_json NodeJson(const Node& n) {
  ordered_json jn;
  jn["op"] = n.op;
  if (n.builtin_code != BuiltinCodeFromName(n.op).value_or(kBuiltinCustom)) {
    jn["builtin_code"] = n.builtin_code;
  }
  jn["version"] = n.version;
  jn["inputs"] = n.inputs;
  jn["outputs"] = n.outputs;
  jn["temporaries"] = n.temporaries;
  if (!n.intermediates.empty()) jn["intermediates"] = n.intermediates;
  jn["inplace"] = n.inplace;
  jn["side_effect"] = n.side_effect;
  const OpOptions defaults;
  ordered_json options = ordered_json::object();
  VisitOptionFields(*n.options, defaults,
                    [&](const char* name, const auto& value, const auto& default_value) {
                      if (!(value == default_value)) options[name] = OptionJson(value);
                    });
  if (!options.empty()) jn["options"] = std::move(options);
  return jn;
}

void AddSubgraphMembers(const Subgraph& sg, ordered_json& doc) {
  if (!sg.name.empty()) doc["name"] = sg.name;
  ordered_json tensors = ordered_json::array();
  for (const Tensor& t : sg.tensors) tensors.push_back(TensorJson(t));
  ordered_json nodes = ordered_json::array();
  for (const Node& n : sg.nodes) nodes.push_back(NodeJson(n));
  doc["tensors"] = std::move(tensors);
  doc["nodes"] = std::move(nodes);
  doc["inputs"] = sg.inputs;
  doc["outputs"] = sg.outputs;
  doc["variables"] = sg.variables;
}

std::string Dump(const ordered_json& doc, int indent) {
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// JSON has no NaN or infinity: a model holding one cannot be carried.
Status CheckFloatsAreFinite(const Model& model) {
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraphs[s];
    const std::string where = "subgraph " + std::to_string(s) + ": ";
    for (size_t i = 0; i < sg.tensors.size(); ++i) {
      for (float scale : sg.tensors[i].quantization->scale) {
        if (!std::isfinite(scale)) {
          return Status::Error(where + "tensor " + std::to_string(i) +
                               ": a quantization scale is not finite, which JSON cannot hold");
        }
      }
    }
    for (size_t i = 0; i < sg.nodes.size(); ++i) {
      const OpOptions& o = sg.nodes[i].options;
      const bool boundaries_finite = std::all_of(o.boundaries.begin(), o.boundaries.end(),
                                                 [](float b) { return std::isfinite(b); });
      if (!std::isfinite(o.beta) || !std::isfinite(o.alpha) || !std::isfinite(o.bias) ||
          !boundaries_finite) {
        return Status::Error(where + "node " + std::to_string(i) + " (" + sg.nodes[i].op +
                             "): an option is not finite, which JSON cannot hold");
      }
    }
  }
  return Status::Ok();
}

// The text with some lists left out: from each one's '[' straight to its ']'.
class TextWithoutListsIterator : public CharIterator<TextWithoutListsIterator> {
 public:
  TextWithoutListsIterator() = default;
  TextWithoutListsIterator(std::string_view text, size_t offset,
                           std::span<const GraphJsonList> left_out)
      : CharIterator(text.data() + offset), text_(text.data()), left_out_(left_out) {}

  TextWithoutListsIterator& operator++() {
    ++position_;
    if (!left_out_.empty() && position_ == text_ + left_out_.front().open + 1) {
      position_ = text_ + left_out_.front().close;
      left_out_ = left_out_.subspan(1);
    }
    return *this;
  }

 private:
  const char* text_ = nullptr;
  std::span<const GraphJsonList> left_out_;  // in text order, those not yet passed
};

// A part of one list: elements [first, first + count) of layout list `list`, whose bytes are
// text[begin, end).
struct PartRange {
  size_t list = 0;
  size_t first = 0;
  size_t count = 0;
  size_t begin = 0;
  size_t end = 0;
};

// The shortest valid tensor and node (each list element takes at least that, and a ',').
constexpr size_t kLeastValidTensorJsonBytes = std::string_view(R"({"bytes":0})").size();
constexpr size_t kLeastValidNodeJsonBytes =
    std::string_view(R"({"op":"","inputs":[],"outputs":[]})").size();

// The most text one run of a list holds: its pages stay resident until the run is read.
constexpr size_t kMaxRunBytes = 16 << 20;

// Cuts each list into runs of about `part_bytes`, at element starts the layout recorded.
std::vector<PartRange> CutLists(const GraphJsonLayout& layout, size_t part_bytes) {
  std::vector<PartRange> parts;
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    if (list.count == 0) continue;
    // Element starts, by index into `starts`, where a run begins: the first at or past each
    // multiple of `part_bytes`.
    std::vector<size_t> cuts = {0};
    for (size_t s = 1; s < list.starts.size(); ++s) {
      if (list.starts[s] - list.starts[cuts.back()] >= part_bytes) cuts.push_back(s);
    }
    for (size_t c = 0; c < cuts.size(); ++c) {
      PartRange part;
      part.list = l;
      part.first = cuts[c] * layout.step;
      part.begin = list.starts[cuts[c]];
      const bool last = c + 1 == cuts.size();
      part.count = (last ? list.count : cuts[c + 1] * layout.step) - part.first;
      part.end = last ? list.close : list.starts[cuts[c + 1]] - 1;  // before the ','
      parts.push_back(part);
    }
  }
  return parts;
}

size_t ReadingThreads(const GraphJsonReading& reading) {
  return reading.threads != 0 ? reading.threads : std::max(1u, std::thread::hardware_concurrency());
}

// The structure pass. The first to read a mapped file, it has another core read a byte of each
// page ahead of it (ReadEveryPage) when the text may be read in parts: 0.27 -> 0.14 s for 200 MB.
Result<GraphJsonLayout> ScanLayout(std::string_view text, const GraphJsonReading& reading) {
  if (reading.memory != TextMemory::kFileMapping || ReadingThreads(reading) < 2 ||
      text.size() < reading.split_bytes) {
    return ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step);
  }
  std::optional<Result<GraphJsonLayout>> layout;
  ParallelMap(2, [&](size_t task) {
    if (task == 0) {
      layout.emplace(ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step));
    } else {
      ReadEveryPage(text);
    }
    return true;
  });
  return std::move(*layout);
}

// The model read in parts on all cores (GraphJsonReading), or nullopt when the text has an error
// (the reference then names it) or no list worth the threads.
std::optional<Model> ReadInParts(std::string_view text, const std::string& source_name,
                                 const GraphJsonLayout& layout, const GraphJsonReading& reading) {
  const size_t threads = ReadingThreads(reading);
  size_t list_bytes = 0;
  for (const GraphJsonList& list : layout.lists) list_bytes += list.close - list.open;
  if (threads < 2 || layout.lists.empty() || list_bytes < reading.split_bytes) return std::nullopt;
  // The lists are allocated before any element is read: a count no valid text of that size holds
  // (a list of commas) must not size an allocation.
  for (const GraphJsonList& list : layout.lists) {
    const size_t least = list.nodes ? kLeastValidNodeJsonBytes : kLeastValidTensorJsonBytes;
    if (list.count > (list.close - list.open) / (least + 1)) return std::nullopt;
  }
  const bool give_back = reading.memory == TextMemory::kFileMapping;

  // Each list is read into its place: its elements are built once, where they stay. The page
  // faults of building them, most of the time of it, are taken on every core first.
  std::vector<size_t> tensor_counts;
  std::vector<std::vector<Tensor>> tensors(layout.lists.size());
  std::vector<std::vector<Node>> nodes(layout.lists.size());
  std::vector<PageRange> storage;
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    if (list.nodes) {
      nodes[l].reserve(list.count);
      storage.push_back({nodes[l].data(), list.count * sizeof(Node)});
      continue;
    }
    tensors[l].reserve(list.count);
    storage.push_back({tensors[l].data(), list.count * sizeof(Tensor)});
    if (tensor_counts.size() <= list.subgraph) tensor_counts.resize(list.subgraph + 1);
    tensor_counts[list.subgraph] = list.count;
  }
  PrefaultPages(storage);
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    if (layout.lists[l].nodes) {
      nodes[l].resize(layout.lists[l].count);
    } else {
      tensors[l].resize(layout.lists[l].count);
    }
  }
  // A few runs per thread, so that the threads finish together; a run's pages of a mapped file
  // go back once it is read.
  const std::vector<PartRange> ranges =
      CutLists(layout, std::clamp<size_t>(list_bytes / (threads * 4), 1, kMaxRunBytes));
  std::vector<ListPart> parts(ranges.size());
  for (size_t p = 0; p < ranges.size(); ++p) {
    const PartRange& r = ranges[p];
    const GraphJsonList& list = layout.lists[r.list];
    ListPart& part = parts[p];
    part.path = list.subgraph == 0 ? "" : "subgraphs[" + std::to_string(list.subgraph - 1) + "].";
    part.first = r.first;
    part.tensor_count = list.subgraph < tensor_counts.size() ? tensor_counts[list.subgraph] : 0;
    if (list.nodes) {
      part.nodes = std::span<Node>(nodes[r.list]).subspan(r.first, r.count);
    } else {
      part.tensors = std::span<Tensor>(tensors[r.list]).subspan(r.first, r.count);
    }
  }

  // Task 0 reads the text around the lists; task p + 1 reads part p.
  GraphJsonReader rest(text.size(), layout.objects, tensor_counts);
  const std::vector<bool> read = ParallelMap(parts.size() + 1, [&](size_t task) {
    if (task == 0) {
      json::sax_parse(TextWithoutListsIterator(text, 0, layout.lists),
                      TextWithoutListsIterator(text, text.size(), {}), &rest);
      return true;
    }
    const std::string_view run =
        text.substr(ranges[task - 1].begin, ranges[task - 1].end - ranges[task - 1].begin);
    GraphJsonReader reader(parts[task - 1]);
    const bool read_whole = ReadJsonRun(run, reader) && reader.ReadPartWhole();
    if (give_back) GiveBackMappedPages(run);
    return read_whole;
  });
  if (std::find(read.begin(), read.end(), false) != read.end() || rest.needs_tensor_count()) {
    return std::nullopt;
  }
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    const bool placed = list.nodes ? rest.PlaceList(list.subgraph, std::move(nodes[l]))
                                   : rest.PlaceList(list.subgraph, std::move(tensors[l]));
    if (!placed) return std::nullopt;
  }
  auto model = rest.Finish(source_name);
  if (!model.ok()) return std::nullopt;
  return std::move(model).value();
}

}  // namespace

std::optional<Model> ReadGraphJsonInParts(std::string_view text, const std::string& source_name,
                                          const GraphJsonReading& reading) {
  const auto layout = ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step);
  if (!layout.ok()) return std::nullopt;
  return ReadInParts(text, source_name, *layout, reading);
}

Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name,
                             const GraphJsonReading& reading) {
  const bool give_back = reading.memory == TextMemory::kFileMapping;
  const auto layout = ScanLayout(text, reading);
  if (give_back) GiveBackMappedPages(text);
  if (!layout.ok()) return layout.status().WithContext(source_name);
  if (auto model = ReadInParts(text, source_name, *layout, reading)) return std::move(*model);
  // Each pass reads the text once, front to back: what it has read goes back as it goes.
  const auto parse = [&](auto& handler) {
    json::sax_parse(PageReleasingIterator(text, 0, give_back),
                    PageReleasingIterator(text, text.size(), false), &handler);
  };
  GraphJsonReader reader(text.size(), layout->objects, std::nullopt);
  parse(reader);
  if (!reader.needs_tensor_count()) return reader.Finish(source_name);
  TensorCounter counter;
  parse(counter);
  GraphJsonReader second(text.size(), layout->objects, counter.counts());
  parse(second);
  return second.Finish(source_name);
}

std::string SubgraphToGraphJson(const Subgraph& sg, int indent) {
  ordered_json doc;
  doc["format"] = kGraphJsonFormat;
  AddSubgraphMembers(sg, doc);
  return Dump(doc, indent);
}

namespace {

std::string ModelText(const Model& model, int indent) {
  ordered_json doc;
  doc["format"] = kGraphJsonFormat;
  if (model.format == "tflite" || model.kernel_prepare) doc["kernel_prepare"] = true;
  if (model.schema_version != 0) doc["schema_version"] = model.schema_version;
  if (!model.description.empty()) doc["description"] = model.description;
  if (!model.metadata_names.empty()) doc["metadata_names"] = model.metadata_names;
  AddSubgraphMembers(model.subgraphs[0], doc);
  if (model.subgraphs.size() > 1) {
    ordered_json subgraphs = ordered_json::array();
    for (size_t s = 1; s < model.subgraphs.size(); ++s) {
      ordered_json sg;
      AddSubgraphMembers(model.subgraphs[s], sg);
      subgraphs.push_back(std::move(sg));
    }
    doc["subgraphs"] = std::move(subgraphs);
  }
  if (!model.signatures.empty()) {
    ordered_json signatures = ordered_json::array();
    for (const SignatureDef& def : model.signatures) {
      ordered_json js;
      js["key"] = def.key;
      js["subgraph"] = def.subgraph_index;
      for (const char* list : {"inputs", "outputs"}) {
        ordered_json entries = ordered_json::array();
        for (const auto& [name, tensor] :
             std::string_view(list) == "inputs" ? def.inputs : def.outputs) {
          entries.push_back(ordered_json{{"name", name}, {"tensor", tensor}});
        }
        js[list] = std::move(entries);
      }
      signatures.push_back(std::move(js));
    }
    doc["signatures"] = std::move(signatures);
  }
  return Dump(doc, indent);
}

}  // namespace

Result<std::string> ModelToGraphJson(const Model& model, int indent) {
  if (model.subgraphs.empty()) return Status::Error("the model has no subgraph");
  TFA_RETURN_IF_ERROR(CheckFloatsAreFinite(model));
  std::string text = ModelText(model, indent);
  // The file must read back as this model: a value the reader refuses (an op version above its
  // range) or that JSON changes (a name that is not UTF-8) is refused here, not found later.
  auto again = ParseGraphJson(text, "Graph JSON");
  if (!again.ok()) return Status::Error("cannot be carried: " + again.status().message());
  const std::string again_text = ModelText(*again, indent);
  if (again_text != text) {
    const auto at =
        std::mismatch(text.begin(), text.end(), again_text.begin(), again_text.end()).first;
    return Status::Error("cannot be carried: Graph JSON reads back differently from byte " +
                         std::to_string(at - text.begin()));
  }
  return text;
}

}  // namespace tfa
