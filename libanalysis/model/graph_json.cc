#include "libanalysis/model/graph_json.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "libanalysis/core/json_nesting.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_validation.h"

namespace tfa {
namespace {

using json = nlohmann::json;

// Graph JSON is a handful of levels deep; anything beyond this is not a graph.
constexpr int kMaxJsonDepth = 64;

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  Status Fail(const std::string& path, const std::string& reason) const {
    return Status::Error(path + ": " + reason);
  }

  Result<int64_t> Int(const json& j, const std::string& path, int64_t min, int64_t max) const {
    if (!j.is_number_integer()) return Fail(path, "expected an integer");
    int64_t v;
    if (j.is_number_unsigned()) {
      uint64_t u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Fail(path, "integer out of range");
      }
      v = static_cast<int64_t>(u);
    } else {
      v = j.get<int64_t>();
    }
    if (v < min || v > max) {
      return Fail(path, "value " + std::to_string(v) + " out of range [" + std::to_string(min) +
                            ", " + std::to_string(max) + "]");
    }
    return v;
  }

  Result<std::vector<int32_t>> IntList(const json& obj, const char* key, const std::string& path,
                                       int64_t min, int64_t max, bool required) const {
    std::vector<int32_t> out;
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) return Fail(path, std::string("missing \"") + key + "\"");
      return out;
    }
    if (!it->is_array()) return Fail(path + "." + key, "expected an array");
    out.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) {
      auto v = Int((*it)[i], path + "." + key + "[" + std::to_string(i) + "]", min, max);
      if (!v.ok()) return v.status();
      out.push_back(static_cast<int32_t>(*v));
    }
    return out;
  }

 private:
  std::string where_;
};

Result<Tensor> ReadTensor(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object()) return r.Fail(path, "expected an object");
  Tensor t;
  if (auto it = j.find("name"); it != j.end()) {
    if (!it->is_string()) return r.Fail(path + ".name", "expected a string");
    t.name = it->get<std::string>();
  }
  auto bytes_it = j.find("bytes");
  if (bytes_it == j.end()) return r.Fail(path, "missing \"bytes\"");
  if (!bytes_it->is_null()) {
    auto bytes = r.Int(*bytes_it, path + ".bytes", 0, std::numeric_limits<int64_t>::max());
    if (!bytes.ok()) return bytes.status();
    t.bytes = static_cast<uint64_t>(*bytes);
  }
  if (auto it = j.find("alloc"); it != j.end()) {
    if (!it->is_string()) return r.Fail(path + ".alloc", "expected a string");
    auto alloc = AllocationTypeFromName(it->get<std::string>());
    if (!alloc)
      return r.Fail(path + ".alloc", "unknown allocation \"" + it->get<std::string>() + "\"");
    t.allocation = *alloc;
  }
  if (auto it = j.find("type"); it != j.end()) {
    if (!it->is_string()) return r.Fail(path + ".type", "expected a string");
    auto type = TensorTypeFromName(it->get<std::string>());
    if (!type) return r.Fail(path + ".type", "unknown type \"" + it->get<std::string>() + "\"");
    t.type = *type;
  }
  auto shape = r.IntList(j, "shape", path, -1, std::numeric_limits<int32_t>::max(), false);
  if (!shape.ok()) return shape.status();
  t.shape = std::move(*shape);
  auto sig = r.IntList(j, "shape_signature", path, -1, std::numeric_limits<int32_t>::max(), false);
  if (!sig.ok()) return sig.status();
  t.shape_signature = std::move(*sig);
  if (auto it = j.find("variable"); it != j.end() && it->is_boolean())
    t.is_variable = it->get<bool>();
  return t;
}

Result<Node> ReadNode(const Reader& r, const json& j, const std::string& path, int64_t tensors) {
  if (!j.is_object()) return r.Fail(path, "expected an object");
  Node n;
  auto op = j.find("op");
  if (op == j.end() || !op->is_string()) return r.Fail(path, "missing string \"op\"");
  n.op = op->get<std::string>();
  auto code = BuiltinCodeFromName(n.op);
  n.builtin_code = code.value_or(kBuiltinCustom);
  n.kind = code ? NodeKind::kBuiltin : NodeKind::kCustom;
  auto inputs = r.IntList(j, "inputs", path, -1, tensors - 1, true);
  if (!inputs.ok()) return inputs.status();
  n.inputs = std::move(*inputs);
  auto outputs = r.IntList(j, "outputs", path, 0, tensors - 1, true);
  if (!outputs.ok()) return outputs.status();
  n.outputs = std::move(*outputs);
  auto temps = r.IntList(j, "temporaries", path, 0, tensors - 1, false);
  if (!temps.ok()) return temps.status();
  n.temporaries = std::move(*temps);
  auto inter = r.IntList(j, "intermediates", path, 0, tensors - 1, false);
  if (!inter.ok()) return inter.status();
  n.intermediates = std::move(*inter);
  if (auto it = j.find("inplace"); it != j.end()) {
    auto v = r.Int(*it, path + ".inplace", 0, 0xFFFF);
    if (!v.ok()) return v.status();
    n.inplace = static_cast<uint32_t>(*v);
  }
  if (auto it = j.find("version"); it != j.end()) {
    auto v = r.Int(*it, path + ".version", 1, 1000);
    if (!v.ok()) return v.status();
    n.version = static_cast<int32_t>(*v);
  }
  if (auto it = j.find("side_effect"); it != j.end()) {
    if (!it->is_boolean()) return r.Fail(path + ".side_effect", "expected a boolean");
    n.side_effect = it->get<bool>();
  }
  return n;
}

}  // namespace

Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name) {
  if (Status depth = CheckJsonNesting(text, kMaxJsonDepth); !depth.ok())
    return depth.WithContext(source_name);
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    return Status::Error(source_name + ": not valid JSON: " + e.what());
  }
  Reader r(source_name);
  auto fail = [&](const Status& s) { return s.WithContext(source_name); };
  if (!doc.is_object()) return fail(r.Fail("document", "expected a JSON object"));
  auto fmt = doc.find("format");
  if (fmt == doc.end() || !fmt->is_string() || fmt->get<std::string>() != kGraphJsonFormat) {
    return fail(r.Fail("format", "expected \"" + std::string(kGraphJsonFormat) + "\""));
  }
  auto tensors_it = doc.find("tensors");
  auto nodes_it = doc.find("nodes");
  if (tensors_it == doc.end() || !tensors_it->is_array()) {
    return fail(r.Fail("tensors", "missing array"));
  }
  if (nodes_it == doc.end() || !nodes_it->is_array()) return fail(r.Fail("nodes", "missing array"));

  Model model;
  model.path = source_name;
  model.format = "graph-json";
  Subgraph& sg = model.subgraphs.emplace_back();
  sg.tensors.reserve(tensors_it->size());
  for (size_t i = 0; i < tensors_it->size(); ++i) {
    auto t = ReadTensor(r, (*tensors_it)[i], "tensors[" + std::to_string(i) + "]");
    if (!t.ok()) return fail(t.status());
    sg.tensors.push_back(std::move(*t));
  }
  const int64_t n_tensors = static_cast<int64_t>(sg.tensors.size());
  sg.nodes.reserve(nodes_it->size());
  for (size_t i = 0; i < nodes_it->size(); ++i) {
    auto n = ReadNode(r, (*nodes_it)[i], "nodes[" + std::to_string(i) + "]", n_tensors);
    if (!n.ok()) return fail(n.status());
    sg.nodes.push_back(std::move(*n));
  }
  for (const char* key : {"inputs", "outputs", "variables"}) {
    auto list = r.IntList(doc, key, "graph", 0, n_tensors - 1, false);
    if (!list.ok()) return fail(list.status());
    if (std::string(key) == "inputs") sg.inputs = std::move(*list);
    if (std::string(key) == "outputs") sg.outputs = std::move(*list);
    if (std::string(key) == "variables") sg.variables = std::move(*list);
  }
  for (int32_t v : sg.variables) sg.tensors[v].is_variable = true;
  for (const Tensor& t : sg.tensors) {
    if (t.is_constant()) model.constant_bytes += t.bytes_or_zero();
  }
  sg.execution_plan = IdentityExecutionPlan(sg);
  if (Status s = ValidateSubgraph(sg, 0); !s.ok()) return fail(s);
  return model;
}

std::string SubgraphToGraphJson(const Subgraph& sg, int indent) {
  json doc;
  doc["format"] = kGraphJsonFormat;
  json tensors = json::array();
  for (const Tensor& t : sg.tensors) {
    json jt;
    jt["name"] = t.name;
    jt["bytes"] = t.bytes ? json(*t.bytes) : json(nullptr);
    jt["alloc"] = AllocationTypeName(t.allocation);
    jt["type"] = TensorTypeName(t.type);
    jt["shape"] = t.shape;
    if (!t.shape_signature.empty()) jt["shape_signature"] = t.shape_signature;
    tensors.push_back(std::move(jt));
  }
  json nodes = json::array();
  for (const Node& n : sg.nodes) {
    json jn;
    jn["op"] = n.op;
    jn["version"] = n.version;
    jn["inputs"] = n.inputs;
    jn["outputs"] = n.outputs;
    jn["temporaries"] = n.temporaries;
    if (!n.intermediates.empty()) jn["intermediates"] = n.intermediates;
    jn["inplace"] = n.inplace;
    jn["side_effect"] = n.side_effect;
    nodes.push_back(std::move(jn));
  }
  doc["tensors"] = std::move(tensors);
  doc["nodes"] = std::move(nodes);
  doc["inputs"] = sg.inputs;
  doc["outputs"] = sg.outputs;
  doc["variables"] = sg.variables;
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
