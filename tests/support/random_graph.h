// Random subgraphs for property tests: seeded, so a failing case is reproduced from its seed.
//
// A graph is built in a hidden topological order: graph inputs, then nodes that read graph
// inputs, constants, variables and earlier nodes' outputs (recent ones more often, so that long
// chains and wide fan-outs both occur). Options add what upstream must cope with: optional (-1)
// inputs and outputs, temporaries, in-place flags, side-effecting nodes, graph inputs that are
// also outputs, dynamic and zero-byte tensors, an execution plan that is not in dependency order
// or leaves nodes out, and back edges that may make nodes unschedulable.
#ifndef TESTS_SUPPORT_RANDOM_GRAPH_H_
#define TESTS_SUPPORT_RANDOM_GRAPH_H_

#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include "libanalysis/model/graph.h"

namespace tfa::testing {

struct RandomGraphOptions {
  int max_nodes = 40;
  int max_graph_inputs = 3;
  int max_variables = 2;
  int max_inputs_per_node = 3;
  int max_outputs_per_node = 2;
  int max_temporaries_per_node = 2;
  double optional_input_probability = 0.05;
  double optional_output_probability = 0.02;
  double constant_input_probability = 0.15;
  double variable_input_probability = 0.05;
  double graph_output_probability = 0.15;      // per node output
  double input_as_output_probability = 0.1;    // per graph: a graph input is also an output
  double dynamic_tensor_probability = 0.03;
  double side_effect_probability = 0.1;
  double shuffled_plan_probability = 0.0;      // per graph: plan in random order
  double unplanned_node_probability = 0.0;     // per node: left out of the execution plan
  double back_edge_probability = 0.0;          // per input: read a later node's output
};

// The same seed, node count and options always give the same subgraph. Tensor and node indices
// are dense; the execution plan is the identity unless the options say otherwise.
Subgraph BuildRandomSubgraph(uint64_t seed, int node_count, const RandomGraphOptions& options);

// Original node indices of the planned nodes, each picked with `probability`.
std::vector<int32_t> RandomNodeSelection(uint64_t seed, const Subgraph& subgraph,
                                         double probability);

// rapidcheck generator of BuildRandomSubgraph graphs with 1..options.max_nodes nodes.
rc::Gen<Subgraph> GenRandomSubgraph(const RandomGraphOptions& options);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_RANDOM_GRAPH_H_
