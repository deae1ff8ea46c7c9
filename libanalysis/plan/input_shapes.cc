#include "libanalysis/plan/input_shapes.h"

#include <algorithm>
#include <charconv>
#include <span>

#include "libanalysis/plan/input_names.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "libanalysis/prepare/shape_inference.h"

namespace tfa {
namespace {

std::string ShapeText(std::span<const int32_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

const SignatureDef* FindSignature(const Model& model, const std::string& key) {
  for (const SignatureDef& s : model.signatures) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

// The subgraph's inputs as the report names them: (name, tensor), in order.
std::vector<std::pair<std::string, int32_t>> NamedInputs(const Model& model, int32_t subgraph,
                                                         const SignatureDef* signature) {
  if (signature != nullptr) return signature->inputs;
  std::vector<std::pair<std::string, int32_t>> named;
  const Subgraph& g = model.subgraphs[static_cast<size_t>(subgraph)];
  for (int32_t t : g.inputs) {
    if (t >= 0 && static_cast<size_t>(t) < g.tensors.size()) {
      named.emplace_back(g.tensors[static_cast<size_t>(t)].name, t);
    }
  }
  return named;
}

// ResizeInputTensorStrict (tflite/core/subgraph.cc): same rank, and only the dimensions the
// model's shape_signature leaves at -1 may change (without a signature, none may).
Status CheckResize(const Tensor& tensor, const std::string& name,
                   const std::vector<int32_t>& shape) {
  const std::string input = "input \"" + name + "\" " + ShapeText(tensor.shape);
  if (shape.size() != tensor.shape.size()) {
    return Status::Error(input + ": " + std::to_string(shape.size()) +
                         " dimensions given, it has " + std::to_string(tensor.shape.size()));
  }
  const std::span<const int32_t> signature = tensor.shape_signature->size() == tensor.shape.size()
                                                 ? std::span<const int32_t>(*tensor.shape_signature)
                                                 : std::span<const int32_t>(tensor.shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 1) {
      return Status::Error(input + ": dimension " + std::to_string(d) + " given as " +
                           std::to_string(shape[d]) + "; dimensions are at least 1");
    }
    if (signature[d] != -1 && signature[d] != shape[d]) {
      return Status::Error(input + ": dimension " + std::to_string(d) + " is fixed at " +
                           std::to_string(signature[d]) + " by the model (shape_signature " +
                           ShapeText(signature) +
                           "); ResizeInputTensorStrict changes only -1 dimensions");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<InputShapeRequest> ParseInputShapeRequest(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return Status::Error("--input-shape \"" + std::string(text) + "\": " + why +
                         " (expected NAME_OR_INDEX=D1,D2,...)");
  };
  const size_t equals = text.rfind('=');
  if (equals == std::string_view::npos || equals == 0) return bad("no NAME=");
  InputShapeRequest request{std::string(text.substr(0, equals)), {}};
  std::string_view dims = text.substr(equals + 1);
  while (!dims.empty()) {
    const size_t comma = dims.find(',');
    const std::string_view item = dims.substr(0, comma);
    int32_t value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || error != std::errc() || end != item.data() + item.size()) {
      return bad(std::string("\"").append(item).append("\" is not a dimension"));
    }
    request.shape.push_back(value);
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
    if (dims.empty()) return bad("a trailing comma");
  }
  return request;
}

Result<ResizedInputs> ResizeInputs(Model& model, const std::vector<InputShapeRequest>& requests,
                                   const std::string& signature_key) {
  const SignatureDef* signature = nullptr;
  if (!signature_key.empty()) {
    signature = FindSignature(model, signature_key);
    if (signature == nullptr) {
      return Status::Error(model.path + ": no signature \"" + signature_key + "\"");
    }
  }
  const int32_t subgraph_index = signature != nullptr ? signature->subgraph_index : 0;
  if (subgraph_index < 0 || static_cast<size_t>(subgraph_index) >= model.subgraphs.size()) {
    return Status::Error(model.path + ": no subgraph " + std::to_string(subgraph_index));
  }
  Subgraph& subgraph = model.subgraphs[static_cast<size_t>(subgraph_index)];
  const std::vector<const SignatureDef*> signatures =
      SignaturesNamingInputs(model, subgraph_index, signature_key);
  ResizedInputs resized;
  resized.subgraph = subgraph_index;
  for (const InputShapeRequest& request : requests) {
    auto input = FindNamedInput(subgraph, signatures, request.input);
    if (!input.ok()) return input.status().WithContext(model.path + ": --input-shape");
    const int32_t t = input->tensor;
    if (std::count(resized.tensors.begin(), resized.tensors.end(), t) > 0) {
      return Status::Error(model.path + ": --input-shape gives input \"" + input->name +
                           "\" twice");
    }
    Tensor& tensor = subgraph.tensors[static_cast<size_t>(t)];
    TFA_RETURN_IF_ERROR(CheckResize(tensor, input->name, request.shape).WithContext(model.path));
    tensor.shape = request.shape;
    tensor.bytes = ShapeBytes(tensor.type, tensor.shape);
    resized.tensors.push_back(t);
    resized.names.push_back(input->name);
  }
  auto eval_sized = PropagateResizedShapes(subgraph, resized.tensors);
  if (!eval_sized.ok()) {
    return eval_sized.status().WithContext(model.path + ": subgraph " +
                                           std::to_string(subgraph_index));
  }
  resized.eval_sized_nodes = std::move(eval_sized).value();
  return resized;
}

std::vector<AssumedDimension> AssumedDimensions(const Model& model,
                                                const std::vector<int32_t>& resized,
                                                const std::string& signature_key) {
  std::vector<int32_t> entries;
  const SignatureDef* only = signature_key.empty() ? nullptr : FindSignature(model, signature_key);
  if (only != nullptr) {
    entries.push_back(only->subgraph_index);
  } else {
    if (!model.subgraphs.empty()) entries.push_back(0);
    for (const SignatureDef& s : model.signatures) {
      if (std::count(entries.begin(), entries.end(), s.subgraph_index) == 0) {
        entries.push_back(s.subgraph_index);
      }
    }
  }
  const int32_t resized_subgraph = only != nullptr ? only->subgraph_index : 0;
  std::vector<AssumedDimension> assumed;
  for (int32_t s : entries) {
    if (s < 0 || static_cast<size_t>(s) >= model.subgraphs.size()) continue;
    const SignatureDef* signature = only;
    for (const SignatureDef& d : model.signatures) {
      if (signature == nullptr && d.subgraph_index == s) signature = &d;
    }
    for (const auto& [name, t] : NamedInputs(model, s, signature)) {
      if (s == resized_subgraph && std::count(resized.begin(), resized.end(), t) > 0) continue;
      const Subgraph& g = model.subgraphs[static_cast<size_t>(s)];
      if (t < 0 || static_cast<size_t>(t) >= g.tensors.size()) continue;
      const Tensor& tensor = g.tensors[static_cast<size_t>(t)];
      if (tensor.shape_signature->size() != tensor.shape.size()) continue;
      for (size_t d = 0; d < tensor.shape.size(); ++d) {
        if ((*tensor.shape_signature)[d] != -1) continue;
        assumed.push_back({s, t, name, static_cast<int32_t>(d), tensor.shape[d]});
      }
    }
  }
  return assumed;
}

}  // namespace tfa
