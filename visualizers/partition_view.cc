#include "visualizers/partition_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace tfa::viz {
namespace {

bool IsModelNode(const Node& node) { return node.kind != NodeKind::kDelegateKernel; }

// The node producing each tensor, -1 for tensors no model node produces.
std::vector<int32_t> ProducerOfTensor(const Subgraph& subgraph) {
  std::vector<int32_t> producer(subgraph.tensors.size(), -1);
  for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
    if (!IsModelNode(subgraph.nodes[n])) continue;
    for (int32_t t : subgraph.nodes[n].outputs) {
      if (t >= 0 && static_cast<size_t>(t) < producer.size()) producer[t] = static_cast<int32_t>(n);
    }
  }
  return producer;
}

Result<std::vector<int32_t>> AssignPartitions(const Subgraph& subgraph,
                                              const SubgraphReport& report) {
  std::vector<int32_t> partition_of(subgraph.nodes.size(), kOutsidePartitions);
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    for (int32_t node : report.partitions[p].nodes) {
      if (node < 0 || static_cast<size_t>(node) >= subgraph.nodes.size()) {
        return Status::Error(
            fmt::format("subgraph {}: partition {}: node {} is out of range ({} nodes)",
                        report.index, p, node, subgraph.nodes.size()));
      }
      if (partition_of[node] != kOutsidePartitions) {
        return Status::Error(fmt::format("subgraph {}: node {} is in partitions {} and {}",
                                         report.index, node, partition_of[node], p));
      }
      partition_of[node] = static_cast<int32_t>(p);
    }
  }
  return partition_of;
}

// Nodes that read only constants, or tensors made from constants only (weight DEQUANTIZE and
// DENSIFY): their outputs are made once, like weights, so they are drawn as weights are: not at
// all. Followed in execution order, so chains of them fold too.
std::vector<bool> ConstantOnlyNodes(const Subgraph& subgraph) {
  std::vector<bool> made_once(subgraph.tensors.size(), false);
  for (size_t t = 0; t < subgraph.tensors.size(); ++t)
    made_once[t] = subgraph.tensors[t].is_constant();
  std::vector<bool> constant_only(subgraph.nodes.size(), false);
  const std::vector<int32_t> plan =
      subgraph.execution_plan.empty() ? IdentityExecutionPlan(subgraph) : subgraph.execution_plan;
  for (int32_t n : plan) {
    if (n < 0 || static_cast<size_t>(n) >= subgraph.nodes.size()) continue;
    const Node& node = subgraph.nodes[static_cast<size_t>(n)];
    if (!IsModelNode(node) || node.side_effect) continue;
    bool reads_any = false;
    bool only_made_once = true;
    for (int32_t t : node.inputs) {
      if (t < 0 || static_cast<size_t>(t) >= made_once.size()) continue;
      reads_any = true;
      only_made_once = only_made_once && made_once[static_cast<size_t>(t)];
    }
    if (!reads_any || !only_made_once) continue;
    constant_only[static_cast<size_t>(n)] = true;
    for (int32_t t : node.outputs) {
      if (t >= 0 && static_cast<size_t>(t) < made_once.size())
        made_once[static_cast<size_t>(t)] = true;
    }
  }
  return constant_only;
}

}  // namespace

std::string SummarizeOps(const Subgraph& subgraph, const std::vector<int32_t>& nodes,
                         size_t max_kinds) {
  std::map<std::string, size_t> counts;
  for (int32_t n : nodes) {
    if (n >= 0 && static_cast<size_t>(n) < subgraph.nodes.size()) ++counts[subgraph.nodes[n].op];
  }
  std::vector<std::pair<std::string, size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string summary;
  for (size_t i = 0; i < sorted.size() && i < max_kinds; ++i) {
    if (!summary.empty()) summary += ", ";
    summary += fmt::format("{}×{}", sorted[i].first, sorted[i].second);
  }
  if (sorted.size() > max_kinds) summary += ", …";
  return summary;
}

Result<PartitionView> BuildPartitionView(const Subgraph& subgraph, const SubgraphReport& report) {
  Result<std::vector<int32_t>> assigned = AssignPartitions(subgraph, report);
  if (!assigned.ok()) return assigned.status();
  PartitionView view;
  view.partition_of_node = std::move(assigned).value();
  view.constant_only_node = ConstantOnlyNodes(subgraph);
  const std::vector<int32_t> producer = ProducerOfTensor(subgraph);
  const std::set<int32_t> graph_inputs(subgraph.inputs.begin(), subgraph.inputs.end());
  auto moves_at_run_time = [&](int32_t t) {
    if (t < 0 || static_cast<size_t>(t) >= subgraph.tensors.size()) return false;
    if (subgraph.tensors[t].is_constant()) return false;
    if (producer[t] >= 0 && view.constant_only_node[static_cast<size_t>(producer[t])]) return false;
    return producer[t] >= 0 || graph_inputs.count(t) > 0;
  };
  auto partition_of = [&](int32_t node) {
    return node < 0 ? kOutsidePartitions : view.partition_of_node[node];
  };

  // A delegate kernel reads exactly its inputs: with the GPU delegate's fp16 helper, a node of
  // the partition whose model input is a CPU DEQUANTIZE output reads the fp16 constant instead
  // (delegation rewires it), so that edge carries nothing at run time. A report that does not
  // list a kernel's inputs draws every edge.
  auto delegate_reads = [&](int32_t partition, int32_t t) {
    if (partition == kOutsidePartitions) return true;
    const PartitionReport& p = report.partitions[static_cast<size_t>(partition)];
    if (p.kind != PartitionReport::Kind::kDelegate || p.inputs.empty()) return true;
    return std::find(p.inputs.begin(), p.inputs.end(), t) != p.inputs.end();
  };

  // The report's copies: a delegate partition that copies moves its inputs in and its outputs
  // out on every inference (docs/copy-costs.md).
  auto copies = [&](int32_t partition) {
    if (partition == kOutsidePartitions) return false;
    const PartitionReport& p = report.partitions[static_cast<size_t>(partition)];
    return p.kind == PartitionReport::Kind::kDelegate && !p.in_place;
  };
  auto listed = [](const SubsetIds& tensors, int32_t t) {
    return std::find(tensors.begin(), tensors.end(), t) != tensors.end();
  };
  auto copied = [&](int32_t t, int32_t from, int32_t to) {
    if (from == to) return false;
    if (copies(from) && listed(report.partitions[static_cast<size_t>(from)].outputs, t))
      return true;
    return copies(to) && listed(report.partitions[static_cast<size_t>(to)].inputs, t);
  };

  for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
    const Node& node = subgraph.nodes[n];
    if (!IsModelNode(node)) continue;
    std::set<int32_t> seen;
    for (int32_t t : node.inputs) {
      if (!moves_at_run_time(t) || !seen.insert(t).second) continue;
      const int32_t to = static_cast<int32_t>(n);
      const int32_t from_partition = partition_of(producer[t]);
      const int32_t to_partition = partition_of(to);
      if (from_partition != to_partition && !delegate_reads(to_partition, t)) continue;
      view.edges.push_back({t, producer[t], to, from_partition, to_partition,
                            subgraph.tensors[t].bytes_or_zero(),
                            copied(t, from_partition, to_partition)});
    }
  }
  for (int32_t t : subgraph.outputs) {
    if (!moves_at_run_time(t) || producer[t] < 0) continue;
    const int32_t from_partition = partition_of(producer[t]);
    view.edges.push_back({t, producer[t], -1, from_partition, kOutsidePartitions,
                          subgraph.tensors[t].bytes_or_zero(),
                          copied(t, from_partition, kOutsidePartitions)});
  }

  std::set<int32_t> unsupported;
  for (const UnsupportedNode& u : report.unsupported) unsupported.insert(u.node);
  view.partitions.resize(report.partitions.size());
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const SubsetIds& nodes = report.partitions[p].nodes;
    PartitionSummary& summary = view.partitions[p];
    summary.node_count = nodes.size();
    if (!nodes.empty()) {
      summary.first_node = *std::min_element(nodes.begin(), nodes.end());
      summary.last_node = *std::max_element(nodes.begin(), nodes.end());
    }
    summary.op_summary = SummarizeOps(subgraph, std::vector<int32_t>(nodes.begin(), nodes.end()));
    summary.weight_nodes = static_cast<size_t>(std::count_if(
        nodes.begin(), nodes.end(), [&](int32_t n) { return view.constant_only_node[n]; }));
    // A node one delegate rejects may be taken by the next: only the CPU's count.
    if (report.partitions[p].kind == PartitionReport::Kind::kCpu) {
      summary.unsupported_nodes = static_cast<size_t>(std::count_if(
          nodes.begin(), nodes.end(), [&](int32_t n) { return unsupported.count(n) > 0; }));
    }
  }
  // A tensor crossing into (or out of) a partition counts once per partition, as it is copied once.
  std::vector<std::set<int32_t>> read_from_outside(report.partitions.size());
  std::vector<std::set<int32_t>> read_outside(report.partitions.size());
  for (const TensorEdge& edge : view.edges) {
    if (!edge.crosses_boundary()) continue;
    if (edge.to_partition != kOutsidePartitions)
      read_from_outside[edge.to_partition].insert(edge.tensor);
    if (edge.from_partition != kOutsidePartitions)
      read_outside[edge.from_partition].insert(edge.tensor);
  }
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    for (int32_t t : read_from_outside[p]) {
      view.partitions[p].boundary_in_bytes += subgraph.tensors[t].bytes_or_zero();
    }
    for (int32_t t : read_outside[p]) {
      view.partitions[p].boundary_out_bytes += subgraph.tensors[t].bytes_or_zero();
    }
  }
  return view;
}

}  // namespace tfa::viz
