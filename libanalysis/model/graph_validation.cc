#include "libanalysis/model/graph_validation.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tfa {
namespace {

std::string NodeName(const Subgraph& sg, size_t node) {
  return "node " + std::to_string(node) + " (" + sg.nodes[node].op + ")";
}

// `where()` names the list's owner in the error; it is called only for one.
template <typename Where>
Status CheckIndices(std::span<const int32_t> list, size_t tensor_count, bool allow_optional,
                    const Where& where, const char* what) {
  for (size_t i = 0; i < list.size(); ++i) {
    const int32_t t = list[i];
    if (t == -1 && allow_optional) continue;
    if (t < 0 || static_cast<size_t>(t) >= tensor_count) {
      return Status::Error(where() + ": " + what + "[" + std::to_string(i) + "] = tensor " +
                           std::to_string(t) + " is out of range (" + std::to_string(tensor_count) +
                           " tensors)");
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateSubgraph(const Subgraph& sg, int subgraph_index) {
  const std::string prefix = "subgraph " + std::to_string(subgraph_index);
  const size_t n = sg.tensors.size();
  const auto graph = [&] { return prefix; };
  TFA_RETURN_IF_ERROR(CheckIndices(sg.inputs, n, false, graph, "inputs"));
  TFA_RETURN_IF_ERROR(CheckIndices(sg.outputs, n, true, graph, "outputs"));
  TFA_RETURN_IF_ERROR(CheckIndices(sg.variables, n, false, graph, "variables"));

  for (size_t i = 0; i < sg.nodes.size(); ++i) {
    const Node& node = sg.nodes[i];
    const auto where = [&] { return prefix + ": " + NodeName(sg, i); };
    TFA_RETURN_IF_ERROR(CheckIndices(node.inputs, n, true, where, "inputs"));
    TFA_RETURN_IF_ERROR(CheckIndices(node.outputs, n, true, where, "outputs"));
    TFA_RETURN_IF_ERROR(CheckIndices(node.intermediates, n, false, where, "intermediates"));
    TFA_RETURN_IF_ERROR(CheckIndices(node.temporaries, n, false, where, "temporaries"));
  }
  for (int32_t node : sg.execution_plan) {
    if (node < 0 || static_cast<size_t>(node) >= sg.nodes.size()) {
      return Status::Error(prefix + ": execution plan names node " + std::to_string(node) + " of " +
                           std::to_string(sg.nodes.size()));
    }
  }

  // Producer of each tensor, by position in the plan; -1 = not produced by a node.
  std::vector<int32_t> produced_at(n, -1);
  std::vector<int32_t> producer_node(n, -1);
  for (size_t step = 0; step < sg.execution_plan.size(); ++step) {
    const size_t i = static_cast<size_t>(sg.execution_plan[step]);
    for (int32_t t : sg.nodes[i].outputs) {
      if (t < 0) continue;
      if (produced_at[t] >= 0) {
        return Status::Error(prefix + ": tensor " + std::to_string(t) + " is produced by both " +
                             NodeName(sg, static_cast<size_t>(producer_node[t])) + " and " +
                             NodeName(sg, i));
      }
      produced_at[t] = static_cast<int32_t>(step);
      producer_node[t] = static_cast<int32_t>(i);
    }
  }
  for (size_t step = 0; step < sg.execution_plan.size(); ++step) {
    const size_t i = static_cast<size_t>(sg.execution_plan[step]);
    for (int32_t t : sg.nodes[i].inputs) {
      if (t < 0 || produced_at[t] < 0) continue;
      if (produced_at[t] == static_cast<int64_t>(step) && sg.allocation_error.empty()) {
        return Status::Error(prefix + ": " + NodeName(sg, i) + " lists tensor " +
                             std::to_string(t) + " as both input and output");
      }
      if (produced_at[t] > static_cast<int64_t>(step)) {
        return Status::Error(prefix + ": " + NodeName(sg, i) + " reads tensor " +
                             std::to_string(t) + " produced later by " +
                             NodeName(sg, static_cast<size_t>(producer_node[t])) +
                             " (cycle or nodes out of order)");
      }
    }
  }
  return Status::Ok();
}

std::string OverlappingNodeError(const Subgraph& sg) {
  for (size_t i = 0; i < sg.nodes.size(); ++i) {
    const Node& node = sg.nodes[i];
    if (node.kind != NodeKind::kBuiltin) continue;
    for (size_t in = 0; in < node.inputs.size(); ++in) {
      for (size_t out = 0; out < node.outputs.size(); ++out) {
        if (node.inputs[in] < 0 || node.inputs[in] != node.outputs[out]) continue;
        return "Tensor " + std::to_string(node.inputs[in]) + " is both input " +
               std::to_string(in) + " and output " + std::to_string(out) + " (" + NodeName(sg, i) +
               "), so AllocateTensors() is called on an inconsistent model";
      }
    }
  }
  return "";
}

Status ValidateSubgraphCalls(const Model& model) {
  const size_t n = model.subgraphs.size();
  std::vector<std::vector<int32_t>> callees(n);
  for (size_t s = 0; s < n; ++s) {
    const Subgraph& sg = model.subgraphs[s];
    for (size_t i = 0; i < sg.nodes.size(); ++i) {
      const OpOptions& o = sg.nodes[i].options;
      for (int32_t callee : {o.then_subgraph, o.else_subgraph, o.cond_subgraph, o.body_subgraph,
                             o.init_subgraph, o.subgraph}) {
        if (callee == -1) continue;
        if (callee < 0 || static_cast<size_t>(callee) >= n) {
          return Status::Error("subgraph " + std::to_string(s) + ": node " + std::to_string(i) +
                               " (" + sg.nodes[i].op + ") names subgraph " +
                               std::to_string(callee) + " of " + std::to_string(n));
        }
        callees[s].push_back(callee);
      }
    }
  }
  // Iterative DFS with colours: a grey callee is a cycle.
  std::vector<uint8_t> colour(n, 0);
  for (size_t root = 0; root < n; ++root) {
    if (colour[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [s, next] = stack.back();
      if (next == callees[s].size()) {
        colour[s] = 2;
        stack.pop_back();
        continue;
      }
      const size_t callee = static_cast<size_t>(callees[s][next++]);
      if (colour[callee] == 1) {
        return Status::Error("subgraph " + std::to_string(s) + " calls subgraph " +
                             std::to_string(callee) +
                             " which is already on the call chain (recursive control flow)");
      }
      if (colour[callee] == 0) {
        colour[callee] = 1;
        stack.emplace_back(callee, 0);
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa
