#include "libanalysis/model/graph_json_elements.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json_options.h"

namespace tfa::graph_json {

namespace {

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

}  // namespace

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

void TensorMembers::Clear() {
  for (Value* v : {&name, &bytes, &alloc, &type, &variable, &buffer, &constant_bytes, &sparse,
                   &sparse_ledger_bytes}) {
    *v = Value();
  }
  shape.Reset(Value::Kind::kAbsent);
  shape_signature.Reset(Value::Kind::kAbsent);
  quantization.reset();
  int_values.reset();
}

void NodeMembers::Clear() {
  for (Value* v : {&op, &inplace, &version, &side_effect, &builtin_code}) *v = Value();
  for (IntListValue* list : {&inputs, &outputs, &temporaries, &intermediates}) {
    list->Reset(Value::Kind::kAbsent);
  }
  options.reset();
}

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

}  // namespace tfa::graph_json
