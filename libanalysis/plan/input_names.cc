#include "libanalysis/plan/input_names.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

#include "libanalysis/core/closest_name.h"

namespace tfa {
namespace {

std::optional<size_t> Digits(std::string_view text) {
  size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

const std::string& TensorName(const Subgraph& graph, int32_t t) {
  return graph.tensors[static_cast<size_t>(t)].name;
}

// The subgraph's inputs that name a tensor, in order.
std::vector<int32_t> ValidInputs(const Subgraph& graph) {
  std::vector<int32_t> inputs;
  for (int32_t t : graph.inputs) {
    if (t >= 0 && static_cast<size_t>(t) < graph.tensors.size()) inputs.push_back(t);
  }
  return inputs;
}

std::string ShownName(const Subgraph& graph, const std::vector<const SignatureDef*>& signatures,
                      int32_t t) {
  for (const SignatureDef* signature : signatures) {
    for (const auto& [key, tensor] : signature->inputs) {
      if (tensor == t) return key;
    }
  }
  return TensorName(graph, t);
}

std::string InputList(const Subgraph& graph, const std::vector<const SignatureDef*>& signatures) {
  std::string listed;
  const std::vector<int32_t> inputs = ValidInputs(graph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!listed.empty()) listed += ", ";
    listed += std::to_string(i) + " '" + ShownName(graph, signatures, inputs[i]) + "' (#" +
              std::to_string(inputs[i]) + ")";
  }
  return listed.empty() ? "none" : listed;
}

}  // namespace

std::vector<const SignatureDef*> SignaturesNamingInputs(const Model& model, int32_t subgraph,
                                                        const std::string& signature_key) {
  std::vector<const SignatureDef*> out;
  for (const SignatureDef& s : model.signatures) {
    if (signature_key.empty() ? s.subgraph_index == subgraph : s.key == signature_key)
      out.push_back(&s);
  }
  return out;
}

Result<NamedInput> FindNamedInput(const Subgraph& graph,
                                  const std::vector<const SignatureDef*>& signatures,
                                  std::string_view key) {
  const std::vector<int32_t> inputs = ValidInputs(graph);
  const auto is_input = [&](int32_t t) {
    return std::find(inputs.begin(), inputs.end(), t) != inputs.end();
  };
  const auto found = [&](int32_t t) { return NamedInput{t, ShownName(graph, signatures, t)}; };
  const std::string quoted = "input \"" + std::string(key) + "\"";
  if (!key.empty() && key.front() == '#') {
    const std::optional<size_t> tensor = Digits(key.substr(1));
    if (!tensor) return Status::Error(quoted + ": # takes a tensor index");
    if (*tensor > static_cast<size_t>(INT32_MAX) || !is_input(static_cast<int32_t>(*tensor))) {
      return Status::Error(quoted + ": tensor " + std::string(key.substr(1)) +
                           " is not an input (inputs: " + InputList(graph, signatures) + ")");
    }
    return found(static_cast<int32_t>(*tensor));
  }

  // Every input the key names as a name.
  std::vector<int32_t> by_name;
  for (const SignatureDef* signature : signatures) {
    for (const auto& [name, tensor] : signature->inputs) {
      if (name == key && is_input(tensor)) by_name.push_back(tensor);
    }
  }
  for (int32_t t : inputs) {
    if (TensorName(graph, t) == key) by_name.push_back(t);
  }
  std::sort(by_name.begin(), by_name.end());
  by_name.erase(std::unique(by_name.begin(), by_name.end()), by_name.end());

  if (const std::optional<size_t> position = Digits(key)) {
    if (*position >= inputs.size()) {
      return Status::Error(quoted + ": position " + std::string(key) + " is out of range (" +
                           std::to_string(inputs.size()) +
                           " inputs: " + InputList(graph, signatures) + "; #T names tensor T)");
    }
    const int32_t at = inputs[*position];
    // The older meaning of a number (a tensor index) and a name of that spelling must agree.
    const bool tensor_differs = *position <= static_cast<size_t>(INT32_MAX) &&
                                is_input(static_cast<int32_t>(*position)) &&
                                static_cast<int32_t>(*position) != at;
    const bool name_differs =
        std::any_of(by_name.begin(), by_name.end(), [&](int32_t t) { return t != at; });
    if (tensor_differs || name_differs) {
      return Status::Error(quoted + " is ambiguous: position " + std::string(key) + " is #" +
                           std::to_string(at) + " '" + ShownName(graph, signatures, at) +
                           "', but another input is " +
                           (tensor_differs ? "tensor #" + std::string(key) : "named so") +
                           "; write #T for a tensor index or the input's name (inputs: " +
                           InputList(graph, signatures) + ")");
    }
    return found(at);
  }
  if (by_name.size() > 1) {
    return Status::Error(quoted + " is ambiguous: it names tensors #" + std::to_string(by_name[0]) +
                         " and #" + std::to_string(by_name[1]) +
                         " (a tensor name and a signature key); write #T for the one meant");
  }
  if (by_name.size() == 1) return found(by_name.front());
  std::vector<std::string> names;
  for (int32_t t : inputs) {
    names.push_back(TensorName(graph, t));
    names.push_back(ShownName(graph, signatures, t));
  }
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  return Status::Error("no " + quoted + DidYouMean(key, candidates) +
                       " (inputs: " + InputList(graph, signatures) + ")");
}

}  // namespace tfa
