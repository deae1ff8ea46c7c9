#include "libanalysis/report/cpu_nodes.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace tfa {

namespace {

bool Refused(const SubgraphReport& report, const std::string& delegate) {
  return std::any_of(report.refused_delegates.begin(), report.refused_delegates.end(),
                     [&](const DelegateRefusalReport& r) { return r.delegate == delegate; });
}

}  // namespace

std::vector<CpuNode> NodesLeftOnCpu(const SubgraphReport& report, const Subgraph& subgraph,
                                    const std::vector<std::string>& delegates) {
  if (delegates.empty()) return {};
  std::map<std::pair<int32_t, std::string>, const std::string*> rejections;
  for (const UnsupportedNode& u : report.unsupported) {
    rejections.emplace(std::make_pair(u.node, u.delegate.str()), &u.reason.str());
  }
  std::vector<CpuNode> out;
  for (const PartitionReport& p : report.partitions) {
    if (p.kind != PartitionReport::Kind::kCpu) continue;
    for (int32_t n : p.nodes) {
      CpuNode node{n, subgraph.nodes[static_cast<size_t>(n)].op, ""};
      for (const std::string& delegate : delegates) {
        if (!node.reason.empty()) node.reason += "; ";
        if (delegates.size() > 1) node.reason += delegate + ": ";
        auto it = rejections.find({n, delegate});
        if (it != rejections.end()) {
          node.reason += *it->second;
        } else if (Refused(report, delegate)) {
          node.reason += "the interpreter refused the delegate (dynamic-sized tensors)";
        } else {
          node.reason += "supported, but its partition was not kept";
        }
      }
      out.push_back(std::move(node));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CpuNode& a, const CpuNode& b) { return a.node < b.node; });
  return out;
}

namespace {

// A reason without the node and tensor it was logged for: upstream's XNNPACK logs name them
// ("unsupported input-to-output scale in ADD node #116", "unsupported type INT8 in tensor #11"),
// which would make every node a group of its own. Drops " in node #N", " in tensor #N" and
// " node #N"; other text stays as logged.
std::string ReasonWithoutIndices(const std::string& reason) {
  static constexpr std::string_view kPatterns[] = {" in node #", " in tensor #", " node #"};
  std::string out;
  size_t i = 0;
  while (i < reason.size()) {
    size_t skip = 0;
    for (std::string_view pattern : kPatterns) {
      if (reason.compare(i, pattern.size(), pattern) != 0) continue;
      size_t end = i + pattern.size();
      while (end < reason.size() && reason[end] >= '0' && reason[end] <= '9') ++end;
      if (end > i + pattern.size()) skip = end - i;
      break;
    }
    if (skip > 0) {
      i += skip;
      continue;
    }
    out += reason[i++];
  }
  return out;
}

}  // namespace

std::vector<CpuNodeGroup> GroupCpuNodes(const std::vector<CpuNode>& nodes) {
  std::map<std::pair<std::string, std::string>, std::vector<int32_t>> groups;
  for (const CpuNode& n : nodes) groups[{n.op, ReasonWithoutIndices(n.reason)}].push_back(n.node);
  std::vector<CpuNodeGroup> out;
  for (auto& [key, members] : groups) out.push_back({key.first, key.second, std::move(members)});
  std::stable_sort(out.begin(), out.end(), [](const CpuNodeGroup& a, const CpuNodeGroup& b) {
    return a.nodes.size() > b.nodes.size();
  });
  return out;
}

std::string AbbreviatedNodeList(const std::vector<int32_t>& nodes, size_t shown) {
  std::string out;
  size_t i = 0;
  for (size_t ranges = 0; i < nodes.size() && ranges < shown; ++ranges) {
    size_t last = i;
    while (last + 1 < nodes.size() && nodes[last + 1] == nodes[last] + 1) ++last;
    out += ranges == 0 ? "#" : ", #";
    out += std::to_string(nodes[i]);
    if (last > i) {
      out += "..";
      out += std::to_string(nodes[last]);
    }
    i = last + 1;
  }
  if (i < nodes.size()) {
    out += ", +";
    out += std::to_string(nodes.size() - i);
    out += " more";
  }
  return out;
}

}  // namespace tfa
