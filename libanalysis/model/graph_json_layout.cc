#include "libanalysis/model/graph_json_layout.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "libanalysis/core/json_nesting.h"
#include "libanalysis/core/json_structure_blocks.h"

namespace tfa {
namespace {

// The nesting, as WalkJsonStructure counts it, of the top-level object's members and of the
// members of a "subgraphs" object; a list's elements sit one deeper than the list's key.
constexpr int kTopMembers = 1;
constexpr int kSubgraphMembers = 3;

// Follows keys at the two depths where lists are named, and each list from its '[' to its ']'.
class LayoutScanner {
 public:
  LayoutScanner(std::string_view text, size_t step) : text_(text), step_(step) {}

  // Nothing deeper than a list's elements matters (inside "subgraphs", two levels deeper).
  int Deepest() const { return in_subgraphs_ ? kSubgraphMembers + 1 : kTopMembers + 1; }

  void Structure(char c, size_t offset, int depth) {
    switch (c) {
      case '{':
      case '[':
        Open(c == '{', offset, depth);
        break;
      case ',':
        if (depth == kTopMembers || (depth == kSubgraphMembers && in_subgraph_)) {
          expect_key_[depth] = true;
        } else if (list_ && depth == list_depth_) {
          GraphJsonList& list = lists_[*list_];
          if (++list.count % step_ == 0) list.starts.push_back(offset + 1);
        }
        break;
      case ']':
      case '}':
        Close(c == ']', offset, depth);
        break;
      default:
        break;
    }
  }

  void String(size_t begin, size_t end, bool escaped, int depth) {
    if (!(depth == kTopMembers && top_is_object_) && !(depth == kSubgraphMembers && in_subgraph_)) {
      return;
    }
    if (!expect_key_[depth]) return;
    expect_key_[depth] = false;
    // An escaped key may spell "tensors" too; such a file is read front to back.
    if (escaped) splittable_ = false;
    const std::string_view key = text_.substr(begin, end - begin);
    key_[depth] = key == "tensors"     ? Key::kTensors
                  : key == "nodes"     ? Key::kNodes
                  : key == "subgraphs" ? Key::kSubgraphs
                                       : Key::kOther;
  }

  GraphJsonLayout Take(size_t objects) && {
    if (list_) splittable_ = false;  // a list never closed: the parser will say why
    GraphJsonLayout layout;
    layout.objects = objects;
    layout.step = step_;
    if (splittable_) layout.lists = std::move(lists_);
    return layout;
  }

 private:
  enum class Key : uint8_t { kOther, kTensors, kNodes, kSubgraphs };

  void Open(bool object, size_t offset, int depth) {
    if (depth == kTopMembers) {
      top_is_object_ = object;
      expect_key_[kTopMembers] = object;
    } else if (depth == kTopMembers + 1 && top_is_object_ && !object) {
      if (key_[kTopMembers] == Key::kSubgraphs) {
        if (seen_subgraphs_) splittable_ = false;  // a repeated key keeps its last value
        seen_subgraphs_ = true;
        in_subgraphs_ = true;
      } else {
        StartList(0, key_[kTopMembers], offset, depth);
      }
    } else if (depth == kSubgraphMembers && in_subgraphs_ && object) {
      in_subgraph_ = true;
      ++subgraph_objects_;
      expect_key_[kSubgraphMembers] = true;
      key_[kSubgraphMembers] = Key::kOther;
    } else if (depth == kSubgraphMembers + 1 && in_subgraph_ && !object) {
      StartList(subgraph_objects_, key_[kSubgraphMembers], offset, depth);
    }
  }

  void Close(bool array, size_t offset, int depth) {
    if (list_ && depth + 1 == list_depth_) {
      if (array) {
        lists_[*list_].close = offset;
        lists_[*list_].count += has_elements_;
      } else {
        splittable_ = false;  // not JSON: the parser will say why
      }
      list_.reset();
    } else if (depth == kSubgraphMembers - 1 && in_subgraph_) {
      in_subgraph_ = false;
    } else if (depth == kTopMembers && in_subgraphs_) {
      in_subgraphs_ = false;
    }
  }

  void StartList(size_t subgraph, Key key, size_t offset, int depth) {
    if (key != Key::kTensors && key != Key::kNodes) return;
    const bool nodes = key == Key::kNodes;
    for (const GraphJsonList& l : lists_) {
      if (l.subgraph == subgraph && l.nodes == nodes) splittable_ = false;
    }
    GraphJsonList& list = lists_.emplace_back();
    list.subgraph = subgraph;
    list.nodes = nodes;
    list.open = offset;
    list.starts.push_back(offset + 1);
    const size_t first = text_.find_first_not_of(" \t\r\n", offset + 1);
    has_elements_ = first != std::string_view::npos && text_[first] != ']';
    list_ = lists_.size() - 1;
    list_depth_ = depth;
  }

  std::string_view text_;
  size_t step_;
  bool splittable_ = true;
  bool top_is_object_ = false;
  bool seen_subgraphs_ = false;
  bool in_subgraphs_ = false;  // inside the top level's "subgraphs" array
  bool in_subgraph_ = false;   // inside one of its objects
  size_t subgraph_objects_ = 0;
  bool expect_key_[kSubgraphMembers + 1] = {};
  Key key_[kSubgraphMembers + 1] = {};
  std::vector<GraphJsonList> lists_;
  std::optional<size_t> list_;  // the list being scanned; lists do not nest
  int list_depth_ = 0;
  bool has_elements_ = false;
};

}  // namespace

Result<GraphJsonLayout> ScanGraphJsonLayout(std::string_view text, int max_depth, size_t step) {
  LayoutScanner scanner(text, std::max<size_t>(step, 1));
  std::optional<Result<size_t>> objects = WalkJsonStructureInBlocks(text, max_depth, scanner);
  // A backslash outside strings (not JSON: the parser will say so) is walked byte by byte.
  if (!objects) return ScanGraphJsonLayoutReference(text, max_depth, step);
  if (!objects->ok()) return objects->status();
  return std::move(scanner).Take(**objects);
}

Result<GraphJsonLayout> ScanGraphJsonLayoutReference(std::string_view text, int max_depth,
                                                     size_t step) {
  LayoutScanner scanner(text, std::max<size_t>(step, 1));
  auto objects = WalkJsonStructure(text, max_depth, scanner);
  if (!objects.ok()) return objects.status();
  return std::move(scanner).Take(*objects);
}

}  // namespace tfa
