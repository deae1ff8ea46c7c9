// A small C++ face on Graphviz's cgraph + gvc: owns the graph, takes std::string where the C API
// takes `char*`, collects Graphviz's error messages instead of letting them reach stderr, and lays
// out / renders in-process (no `dot` executable).
//
// Graphviz keeps process-wide state (the error handler, plugin lists, layout globals), so every
// call that touches Graphviz holds one process-wide lock: renderings from several threads are
// serialized, never interleaved.
#ifndef VISUALIZERS_GRAPHVIZ_GRAPH_H_
#define VISUALIZERS_GRAPHVIZ_GRAPH_H_

#include <graphviz/cgraph.h>

#include <string>

#include "libanalysis/core/status.h"

namespace tfa::viz {

class GraphvizGraph {
 public:
  // A directed, non-strict graph (two tensors between the same nodes are two edges).
  explicit GraphvizGraph(const std::string& name);
  ~GraphvizGraph();
  GraphvizGraph(const GraphvizGraph&) = delete;
  GraphvizGraph& operator=(const GraphvizGraph&) = delete;

  // Declares an attribute with its default, for the root graph and its clusters (AGRAPH), nodes
  // (AGNODE) or edges (AGEDGE). Set() works only on declared attributes.
  void Declare(int kind, const std::string& attribute, const std::string& default_value);

  Agraph_t* root() { return graph_; }
  // A cluster (Graphviz draws subgraphs named "cluster…" as boxes around their nodes).
  Agraph_t* AddSubgraph(Agraph_t* parent, const std::string& name);
  // Creates `name` in the root graph and, when `parent` is a subgraph, in it as well.
  Agnode_t* AddNode(Agraph_t* parent, const std::string& name);
  Agedge_t* AddEdge(Agnode_t* tail, Agnode_t* head);
  void Set(void* object, const std::string& attribute, const std::string& value);

  // The graph in DOT, unlaid-out (agwrite).
  Result<std::string> WriteDot();
  // Lays the graph out with `engine` ("dot") and renders it in `format` ("svg", "png").
  Result<std::string> Render(const std::string& engine, const std::string& format);

 private:
  Agraph_t* graph_ = nullptr;
};

}  // namespace tfa::viz

#endif  // VISUALIZERS_GRAPHVIZ_GRAPH_H_
