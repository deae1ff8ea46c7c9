// Model -> Graph JSON: every tensor, node (its options through graph_json_options.h), subgraph
// and signature, checked to read back as the same model.

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/graph_json_options.h"

namespace tfa {
namespace {

using graph_json::OptionJson;
using graph_json::ordered_json;
using graph_json::VisitOptionFields;

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

}  // namespace

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
