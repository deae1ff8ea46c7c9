#include "libanalysis/tflm/resource_variables.h"

#include <optional>
#include <string>
#include <utility>

namespace tfa::tflm {
namespace {

using F = Field;

struct Variable {
  std::string container;
  std::string shared_name;
  bool allocated = false;
};

// MicroResourceVariables::FindId: a handle without a container matches any container.
std::optional<size_t> FindId(const std::vector<Variable>& variables, const std::string& container,
                             const std::string& shared_name) {
  for (size_t i = 0; i < variables.size(); ++i) {
    if ((container.empty() || container == variables[i].container) &&
        shared_name == variables[i].shared_name) {
      return i;
    }
  }
  return std::nullopt;
}

bool ValidTensor(const Subgraph& subgraph, int32_t id) {
  return id >= 0 && static_cast<size_t>(id) < subgraph.tensors.size();
}

}  // namespace

ResourceVariables PlanResourceVariables(const Model& model, const VarHandleNames& names) {
  ResourceVariables plan;
  std::vector<Variable> variables;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    plan.buffer_bytes.emplace_back(subgraph.nodes.size(), 0);
    plan.handle_outputs.emplace_back(subgraph.tensors.size(), false);
    std::vector<bool>& handles = plan.handle_outputs.back();
    // The resource id a prepared VAR_HANDLE wrote into each of this subgraph's tensors.
    std::vector<std::optional<size_t>> ids(subgraph.tensors.size());
    for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
      const Node& node = subgraph.nodes[n];
      if (node.op == "VAR_HANDLE") {
        ++plan.max_variables;
        const auto named = names.find({static_cast<int32_t>(s), static_cast<int32_t>(n)});
        const std::string container = named == names.end() ? "" : named->second.first;
        const std::string shared_name = named == names.end() ? "" : named->second.second;
        auto id = FindId(variables, container, shared_name);
        if (!id) {
          variables.push_back({container, shared_name, false});
          id = variables.size() - 1;
        }
        if (!node.outputs.empty() && ValidTensor(subgraph, node.outputs[0])) {
          handles[node.outputs[0]] = true;
          ids[node.outputs[0]] = id;
        }
      } else if (node.op == "ASSIGN_VARIABLE" && node.inputs.size() >= 2) {
        // An id from elsewhere (a subgraph input) has no data yet in Prepare: nothing allocated.
        const int32_t handle = node.inputs[0];
        const int32_t value = node.inputs[1];
        if (!ValidTensor(subgraph, handle) || !ids[handle] || !ValidTensor(subgraph, value)) {
          continue;
        }
        Variable& variable = variables[*ids[handle]];
        if (variable.allocated) continue;
        variable.allocated = true;
        plan.buffer_bytes.back()[n] = subgraph.tensors[value].bytes_or_zero();
      }
    }
  }
  return plan;
}

Layout ResourceVariablesObject(const Build& build) {
  // resource_variables_, max_variable_count_, num_resource_variables_.
  return StructLayout(build, {F::kPointer, F::kInt32, F::kInt32});
}

Layout ResourceVariableEntry(const Build& build) {
  // container, shared_name, resource_buffer, bytes, int8_t default_value.
  return StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kSizeT, F::kUint8});
}

}  // namespace tfa::tflm
