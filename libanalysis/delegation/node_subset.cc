#include "libanalysis/delegation/node_subset.h"

namespace tfa {
namespace {

void AppendList(const char* label, const SubsetIds& items, std::string& out) {
  out += label;
  out += " [";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += ',';
    out += std::to_string(items[i]);
  }
  out += ']';
}

}  // namespace

std::string DescribeSubsets(const std::vector<NodeSubset>& subsets) {
  std::string out;
  for (const NodeSubset& subset : subsets) {
    out += subset.type == SubsetType::kDelegate ? "delegate" : "cpu";
    AppendList(" nodes", subset.nodes, out);
    AppendList(" inputs", subset.inputs, out);
    AppendList(" outputs", subset.outputs, out);
    out += '\n';
  }
  return out;
}

}  // namespace tfa
