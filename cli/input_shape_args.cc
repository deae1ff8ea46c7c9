#include "cli/input_shape_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.h"

namespace tfa::cli {

void InputShapeArgs::AddTo(CLI::App* command) {
  command->add_option("--input-shape", specs_,
                      "NAME_OR_INDEX=D1,D2,...: resize an input as ResizeInputTensorStrict + "
                      "AllocateTensors would (NAME: its tensor name or signature key, as the "
                      "report shows it; INDEX: its position among the inputs; #T: tensor T); "
                      "repeatable");
}

std::vector<InputShapeRequest> InputShapeArgs::Requests() const {
  std::vector<InputShapeRequest> requests;
  for (const std::string& spec : specs_) {
    auto request = ParseInputShapeRequest(spec);
    if (!request.ok()) throw CommandError{request.status().message()};
    requests.push_back(std::move(request).value());
  }
  return requests;
}

InputShapesApplied ApplyInputShapesOrThrow(Model& model,
                                           const std::vector<InputShapeRequest>& requests,
                                           const std::string& signature_key) {
  InputShapesApplied applied;
  applied.requests = requests;
  if (!requests.empty()) {
    auto resized = ResizeInputs(model, requests, signature_key);
    if (!resized.ok()) throw CommandError{resized.status().message()};
    applied.resized = std::move(resized).value();
  }
  applied.assumed = AssumedDimensions(model, applied.resized.tensors, signature_key);
  return applied;
}

namespace {

const Tensor& InputTensor(const Model& model, int32_t subgraph, int32_t tensor) {
  return model.subgraphs[static_cast<size_t>(subgraph)].tensors[static_cast<size_t>(tensor)];
}

}  // namespace

std::string InputShapesText(const InputShapesApplied& applied, const Model& model) {
  std::string out;
  for (size_t i = 0; i < applied.resized.names.size(); ++i) {
    out += fmt::format("input {}: shape [{}] (--input-shape)\n", applied.resized.names[i],
                       fmt::join(applied.requests[i].shape, ","));
  }
  if (!applied.resized.eval_sized_nodes.empty()) {
    out += fmt::format("after the resize, nodes {} size their outputs at Eval (dynamic)\n",
                       fmt::join(applied.resized.eval_sized_nodes, ","));
  }
  for (const AssumedDimension& a : applied.assumed) {
    const Tensor& tensor = InputTensor(model, a.subgraph, a.tensor);
    out += fmt::format(
        "input {}: dimension {} assumed {} (shape_signature [{}], file shape [{}]; give "
        "--input-shape to choose)\n",
        a.input, a.dimension, a.value, fmt::join(*tensor.shape_signature, ","),
        fmt::join(tensor.shape, ","));
  }
  return out.empty() ? out : "\n" + out;
}

nlohmann::ordered_json InputShapesJson(const InputShapesApplied& applied) {
  nlohmann::ordered_json given = nlohmann::ordered_json::array();
  for (size_t i = 0; i < applied.resized.tensors.size(); ++i) {
    given.push_back({{"input", applied.resized.names[i]},
                     {"subgraph", applied.resized.subgraph},
                     {"tensor", applied.resized.tensors[i]},
                     {"shape", applied.requests[i].shape}});
  }
  nlohmann::ordered_json assumed = nlohmann::ordered_json::array();
  for (const AssumedDimension& a : applied.assumed) {
    assumed.push_back({{"input", a.input},
                       {"subgraph", a.subgraph},
                       {"tensor", a.tensor},
                       {"dimension", a.dimension},
                       {"value", a.value}});
  }
  return {{"input_shapes", given},
          {"eval_sized_nodes", applied.resized.eval_sized_nodes},
          {"assumed_dimensions", assumed}};
}

}  // namespace tfa::cli
