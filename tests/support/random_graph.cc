#include "tests/support/random_graph.h"

#include <algorithm>
#include <random>
#include <string>

namespace tfa::testing {
namespace {

constexpr uint32_t kInplaceChoices[] = {kInplaceNone, 1, 4, 5, 8, 12, 20};
constexpr const char* kOpChoices[] = {"ADD", "MUL", "CONV_2D", "RESHAPE", "CUSTOM", "SIN"};

class GraphBuilder {
 public:
  GraphBuilder(uint64_t seed, const RandomGraphOptions& options)
      : random_(seed), options_(options) {}

  Subgraph Build(int node_count) {
    const int graph_inputs = Uniform(1, std::max(1, options_.max_graph_inputs));
    for (int i = 0; i < graph_inputs; ++i) {
      subgraph_.inputs.push_back(AddTensor(AllocationType::kArenaRw));
      readable_.push_back(subgraph_.inputs.back());
    }
    const int variables = Uniform(0, options_.max_variables);
    for (int i = 0; i < variables; ++i) {
      const int32_t tensor = AddTensor(AllocationType::kArenaRwPersistent);
      subgraph_.tensors[tensor].is_variable = true;
      subgraph_.variables.push_back(tensor);
    }
    // Outputs are created up front so that a back edge can name a later node's output.
    std::vector<std::vector<int32_t>> outputs(node_count);
    for (auto& node_outputs : outputs) {
      const int count = Uniform(1, std::max(1, options_.max_outputs_per_node));
      for (int i = 0; i < count; ++i) {
        node_outputs.push_back(Chance(options_.optional_output_probability)
                                   ? -1
                                   : AddTensor(Chance(options_.dynamic_tensor_probability)
                                                   ? AllocationType::kDynamic
                                                   : AllocationType::kArenaRw));
      }
    }
    for (int n = 0; n < node_count; ++n) {
      Node node;
      node.op = kOpChoices[Uniform(0, std::size(kOpChoices) - 1)];
      const int input_count = Uniform(1, std::max(1, options_.max_inputs_per_node));
      for (int i = 0; i < input_count; ++i) node.inputs.push_back(PickInput(n, outputs));
      node.outputs = outputs[n];
      const int temporaries = Uniform(0, options_.max_temporaries_per_node);
      for (int i = 0; i < temporaries; ++i) {
        node.temporaries.push_back(AddTensor(AllocationType::kArenaRw));
      }
      node.inplace = kInplaceChoices[Uniform(0, std::size(kInplaceChoices) - 1)];
      node.side_effect = Chance(options_.side_effect_probability);
      for (int32_t tensor : node.outputs) {
        if (tensor == -1) continue;
        readable_.push_back(tensor);
        if (Chance(options_.graph_output_probability)) subgraph_.outputs.push_back(tensor);
      }
      subgraph_.nodes.push_back(std::move(node));
    }
    if (Chance(options_.input_as_output_probability)) {
      subgraph_.outputs.push_back(subgraph_.inputs[Uniform(0, subgraph_.inputs.size() - 1)]);
    }
    BuildExecutionPlan();
    return std::move(subgraph_);
  }

 private:
  int Uniform(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }
  bool Chance(double probability) { return std::bernoulli_distribution(probability)(random_); }

  uint64_t RandomBytes() {
    switch (Uniform(0, 5)) {
      case 0:
        return 0;
      case 1:
        return Uniform(1, 4);
      case 2:
        return 64;
      case 3:
        return 1024;
      default:
        return Uniform(65, 200000);
    }
  }

  int32_t AddTensor(AllocationType allocation) {
    Tensor tensor;
    tensor.name = std::string("t").append(std::to_string(subgraph_.tensors.size()));
    tensor.allocation = allocation;
    tensor.bytes = RandomBytes();
    subgraph_.tensors.push_back(std::move(tensor));
    return static_cast<int32_t>(subgraph_.tensors.size() - 1);
  }

  int32_t PickInput(int node, const std::vector<std::vector<int32_t>>& outputs) {
    if (Chance(options_.optional_input_probability)) return -1;
    if (Chance(options_.constant_input_probability)) return AddTensor(AllocationType::kMmapRo);
    if (!subgraph_.variables.empty() && Chance(options_.variable_input_probability)) {
      return subgraph_.variables[Uniform(0, subgraph_.variables.size() - 1)];
    }
    if (node + 1 < static_cast<int>(outputs.size()) && Chance(options_.back_edge_probability)) {
      const auto& later = outputs[Uniform(node + 1, outputs.size() - 1)];
      const int32_t tensor = later[Uniform(0, later.size() - 1)];
      if (tensor != -1) return tensor;
    }
    // Recent tensors are likelier, so that chains are long as well as wide.
    const int count = static_cast<int>(readable_.size());
    const int back = std::min(count - 1, Chance(0.7) ? Uniform(0, 3) : Uniform(0, count - 1));
    return readable_[count - 1 - back];
  }

  void BuildExecutionPlan() {
    for (int32_t n = 0; n < static_cast<int32_t>(subgraph_.nodes.size()); ++n) {
      if (!Chance(options_.unplanned_node_probability)) subgraph_.execution_plan.push_back(n);
    }
    if (Chance(options_.shuffled_plan_probability)) {
      std::shuffle(subgraph_.execution_plan.begin(), subgraph_.execution_plan.end(), random_);
    }
  }

  std::mt19937_64 random_;
  const RandomGraphOptions options_;
  Subgraph subgraph_;
  std::vector<int32_t> readable_;  // graph inputs and outputs of nodes built so far
};

}  // namespace

Subgraph BuildRandomSubgraph(uint64_t seed, int node_count, const RandomGraphOptions& options) {
  return GraphBuilder(seed, options).Build(node_count);
}

std::vector<int32_t> RandomNodeSelection(uint64_t seed, const Subgraph& subgraph,
                                         double probability) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution pick(probability);
  std::vector<int32_t> selected;
  for (int32_t node : subgraph.execution_plan) {
    if (pick(random)) selected.push_back(node);
  }
  return selected;
}

rc::Gen<Subgraph> GenRandomSubgraph(const RandomGraphOptions& options) {
  return rc::gen::map(
      rc::gen::pair(rc::gen::inRange(1, options.max_nodes + 1), rc::gen::arbitrary<uint64_t>()),
      [options](const std::pair<int, uint64_t>& size_and_seed) {
        return BuildRandomSubgraph(size_and_seed.second, size_and_seed.first, options);
      });
}

}  // namespace tfa::testing
