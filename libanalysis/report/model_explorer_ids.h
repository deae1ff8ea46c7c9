// How Model Explorer's built-in TFLite adapter names the graphs and nodes it draws, so that node
// data we write lands on the right node (google-ai-edge/model-explorer,
// src/builtin-adapter/adapters/litert/direct_flatbuffer_to_json_graph_convert.cc):
// - a subgraph's graph id is its name; a nameless subgraph takes the key of the first signature
//   that runs it (when that key is not empty), else "main" for subgraph 0 and "subgraph_<i>";
// - the subgraph's operator i is node "i". The adapter's own nodes (GraphInputs, one pseudo_const
//   per constant, GraphOutputs) are numbered after the operators; they are no model nodes and
//   carry no node data of ours.
#ifndef LIBANALYSIS_REPORT_MODEL_EXPLORER_IDS_H_
#define LIBANALYSIS_REPORT_MODEL_EXPLORER_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa {

// The graph id of subgraph `subgraph`, named `name` in the model, whose signatures are
// `signatures` (in the file's order).
std::string ModelExplorerGraphId(int32_t subgraph, std::string_view name,
                                 const std::vector<SignatureDef>& signatures);

// The node id of the model's node `node` (its operator index in the subgraph).
std::string ModelExplorerNodeId(int32_t node);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_MODEL_EXPLORER_IDS_H_
