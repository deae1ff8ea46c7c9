#include "libanalysis/report/model_explorer_ids.h"

namespace tfa {

std::string ModelExplorerGraphId(int32_t subgraph, std::string_view name,
                                 const std::vector<SignatureDef>& signatures) {
  if (!name.empty()) return std::string(name);
  // Only the first signature of the subgraph is asked; an empty key falls through to the
  // default name (GetSubgraphName upstream).
  for (const SignatureDef& signature : signatures) {
    if (signature.subgraph_index != subgraph) continue;
    if (!signature.key.empty()) return signature.key;
    break;
  }
  return subgraph == 0 ? "main" : "subgraph_" + std::to_string(subgraph);
}

std::string ModelExplorerNodeId(int32_t node) { return std::to_string(node); }

}  // namespace tfa
