#include "libanalysis/report/model_summary.h"

#include <nlohmann/json.hpp>

#include "libanalysis/report/node_macs.h"

namespace tfa {
namespace {

TensorSummary SummarizeTensor(const Subgraph& sg, int32_t index) {
  TensorSummary s;
  s.index = index;
  if (index < 0) return s;
  const Tensor& t = sg.tensors[static_cast<size_t>(index)];
  s.name = t.name;
  s.type = TensorTypeName(t.type);
  s.shape.assign(t.shape.begin(), t.shape.end());
  s.shape_signature = t.shape_signature;
  s.bytes = t.bytes;
  s.scale = t.quantization->scale;
  s.zero_point = t.quantization->zero_point;
  s.quantized_dimension = t.quantization->quantized_dimension;
  return s;
}

BlockwiseTensorSummary SummarizeBlockwise(const Tensor& t, int32_t index) {
  const Quantization& q = t.quantization;
  BlockwiseTensorSummary s;
  s.index = index;
  s.name = t.name;
  s.type = TensorTypeName(t.type);
  s.shape.assign(t.shape.begin(), t.shape.end());
  s.block_size = q.block_size;
  s.quantized_dimension = q.quantized_dimension;
  s.scales = q.block_scales;
  s.zero_points = q.block_zero_points;
  return s;
}

nlohmann::json TensorJson(const TensorSummary& t) {
  nlohmann::json j{{"index", t.index}, {"name", t.name}, {"type", t.type}, {"shape", t.shape}};
  if (!t.shape_signature.empty()) j["shape_signature"] = t.shape_signature;
  j["bytes"] = t.bytes ? nlohmann::json(*t.bytes) : nlohmann::json(nullptr);
  if (!t.scale.empty() || !t.zero_point.empty()) {
    j["quantization"] = {{"scale", t.scale}, {"zero_point", t.zero_point}};
    if (t.scale.size() > 1) j["quantization"]["quantized_dimension"] = t.quantized_dimension;
  }
  return j;
}

nlohmann::json OpVersionsJson(const std::vector<OpVersionRequirement>& ops) {
  nlohmann::json list = nlohmann::json::array();
  for (const OpVersionRequirement& op : ops) {
    list.push_back({{"op", op.op}, {"version", op.version}});
  }
  return list;
}

nlohmann::json RuntimeVersionJson(const RuntimeVersionRequirement& r) {
  return {{"minimum", r.minimum.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.minimum)},
          {"set_by", OpVersionsJson(r.setting_ops)},
          {"unknown", OpVersionsJson(r.unknown)}};
}

}  // namespace

ModelSummary SummarizeModel(const Model& model, const SummaryOptions& options) {
  ModelSummary m;
  m.model = model.path;
  m.format = model.format;
  m.schema_version = model.schema_version;
  m.description = model.description;
  m.metadata_names = model.metadata_names;
  for (const SignatureDef& sig : model.signatures) m.signature_keys.push_back(sig.key);
  m.constant_bytes = model.constant_bytes;
  m.has_sparse_tensors = model.has_sparse_tensors;
  m.runtime_version = MinimumRuntimeVersion(model);
  for (size_t i = 0; i < model.subgraphs.size(); ++i) {
    const Subgraph& sg = model.subgraphs[i];
    SubgraphSummary s;
    s.index = static_cast<int32_t>(i);
    s.name = sg.name;
    s.nodes = sg.nodes.size();
    s.tensors = sg.tensors.size();
    for (const Node& n : sg.nodes) ++s.op_histogram[n.op];
    for (int32_t t : sg.inputs) s.inputs.push_back(SummarizeTensor(sg, t));
    for (int32_t t : sg.outputs) s.outputs.push_back(SummarizeTensor(sg, t));
    for (size_t t_index = 0; t_index < sg.tensors.size(); ++t_index) {
      const Tensor& t = sg.tensors[t_index];
      if (t.quantization->blockwise) {
        s.blockwise_tensors.push_back(SummarizeBlockwise(t, static_cast<int32_t>(t_index)));
      }
      s.constant_bytes += t.constant_bytes;
      if (t.is_variable) ++s.variable_tensors;
      if (t.has_dynamic_shape() || t.allocation == AllocationType::kDynamic) ++s.dynamic_tensors;
    }
    for (size_t n = 0; options.node_table && n < sg.nodes.size(); ++n) {
      const Node& node = sg.nodes[n];
      NodeSummary row{static_cast<int32_t>(n), node.op, {}, {}, NodeMacs(sg, node)};
      for (int32_t t : node.inputs) row.inputs.push_back(SummarizeTensor(sg, t));
      for (int32_t t : node.outputs) row.outputs.push_back(SummarizeTensor(sg, t));
      s.node_table.push_back(std::move(row));
    }
    m.subgraphs.push_back(std::move(s));
  }
  return m;
}

std::string ModelSummaryToJson(const ModelSummary& m, int indent) {
  nlohmann::json j;
  j["model"] = m.model;
  j["format"] = m.format;
  j["schema_version"] = m.schema_version;
  j["description"] = m.description;
  j["metadata"] = m.metadata_names;
  j["metadata_entries"] = nlohmann::json::array();
  for (const MetadataEntry& e : m.metadata) {
    j["metadata_entries"].push_back(
        {{"name", e.name},
         {"buffer", e.buffer},
         {"bytes", e.bytes},
         {"text", e.text ? nlohmann::json(*e.text) : nlohmann::json(nullptr)}});
  }
  j["signatures"] = m.signature_keys;
  j["constant_bytes"] = m.constant_bytes;
  j["sparse_tensors"] = m.has_sparse_tensors;
  j["min_runtime_version"] = RuntimeVersionJson(m.runtime_version);
  j["subgraphs"] = nlohmann::json::array();
  for (const SubgraphSummary& s : m.subgraphs) {
    nlohmann::json js{{"index", s.index},
                      {"name", s.name},
                      {"nodes", s.nodes},
                      {"tensors", s.tensors},
                      {"op_histogram", s.op_histogram},
                      {"constant_bytes", s.constant_bytes},
                      {"variable_tensors", s.variable_tensors},
                      {"dynamic_tensors", s.dynamic_tensors}};
    js["inputs"] = nlohmann::json::array();
    for (const auto& t : s.inputs) js["inputs"].push_back(TensorJson(t));
    js["outputs"] = nlohmann::json::array();
    for (const auto& t : s.outputs) js["outputs"].push_back(TensorJson(t));
    js["blockwise_tensors"] = nlohmann::json::array();
    for (const auto& b : s.blockwise_tensors) {
      js["blockwise_tensors"].push_back({{"index", b.index},
                                         {"name", b.name},
                                         {"type", b.type},
                                         {"shape", b.shape},
                                         {"block_size", b.block_size},
                                         {"quantized_dimension", b.quantized_dimension},
                                         {"scales", b.scales},
                                         {"zero_points", b.zero_points}});
    }
    if (!s.node_table.empty()) {
      js["node_table"] = nlohmann::json::array();
      for (const NodeSummary& n : s.node_table) {
        nlohmann::json jn{{"node", n.node}, {"op", n.op}};
        jn["inputs"] = nlohmann::json::array();
        for (const auto& t : n.inputs) jn["inputs"].push_back(TensorJson(t));
        jn["outputs"] = nlohmann::json::array();
        for (const auto& t : n.outputs) jn["outputs"].push_back(TensorJson(t));
        jn["macs"] = n.macs ? nlohmann::json(*n.macs) : nlohmann::json(nullptr);
        js["node_table"].push_back(std::move(jn));
      }
    }
    j["subgraphs"].push_back(std::move(js));
  }
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
