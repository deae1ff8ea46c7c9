// Where the tensor and node lists of a Graph JSON text lie, found by one pass over its structure
// before it is parsed: a large file's lists are then read in parts on all cores (graph_json.cc).
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_LAYOUT_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_LAYOUT_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa {

// One subgraph's "tensors" or "nodes" array.
struct GraphJsonList {
  size_t subgraph = 0;  // 0: the top level's; k: the k-th object of "subgraphs"
  bool nodes = false;   // else tensors
  size_t open = 0;      // the offset of its '['
  size_t close = 0;     // the offset of its ']'
  size_t count = 0;     // elements
  // The offset where element i * step starts (after its '[' or ','), for each i.
  std::vector<size_t> starts;

  bool operator==(const GraphJsonList&) const = default;
};

struct GraphJsonLayout {
  size_t objects = 0;  // '{' outside strings
  size_t step = 1;     // of the lists' `starts`
  // In text order. Empty when the text gives no safe place to split: the top level is not an
  // object, a key that names a list is escaped, or a subgraph repeats a list or "subgraphs".
  std::vector<GraphJsonList> lists;

  bool operator==(const GraphJsonLayout&) const = default;
};

// The layout of `text`, each list's starts `step` elements apart, or the error naming the byte
// where it nests deeper than `max_depth`.
// Not a validator: the offsets are right for text the parser accepts, and nothing is promised for
// text it refuses.
[[nodiscard]] Result<GraphJsonLayout> ScanGraphJsonLayout(std::string_view text, int max_depth,
                                                          size_t step);

// The same, walked byte by byte (WalkJsonStructure): the reference the fast scan (64 bytes at a
// time, WalkJsonStructureInBlocks) is held to, and what it falls back on.
[[nodiscard]] Result<GraphJsonLayout> ScanGraphJsonLayoutReference(std::string_view text,
                                                                   int max_depth, size_t step);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_LAYOUT_H_
