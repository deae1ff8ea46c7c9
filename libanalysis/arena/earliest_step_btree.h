// EarliestStepBTree: keys (arena offsets in alignment units), each placed at a step, in a B-tree
// whose nodes keep the earliest step below each child, for SkylineHoles (issue 46).
//
// SkylineHoles asks, for a lifetime ending at step s, which skyline allocations nearest an offset
// it meets (those placed at or before s), and at which step the first allocation between two
// offsets appears. A binary trie over offsets answered both with one node per offset bit (27
// levels for a 5 GB arena), each a cache miss once the trie outgrew the cache: at a million nodes
// with half a million partitions those walks were a third of the planning time. Here a node holds
// kFanout keys in one block of memory, so a query reads about log_kFanout(K) blocks.
//
// Keys are unique. Cost: Insert, PreviousMet, MetAround and EarliestIn are O(kFanout * log K).
// The same answers as a scan over every (key, step) pair, which the tests use as the reference.
#ifndef LIBANALYSIS_ARENA_EARLIEST_STEP_BTREE_H_
#define LIBANALYSIS_ARENA_EARLIEST_STEP_BTREE_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace tfa {

template <size_t kFanout = 32>
class EarliestStepBTree {
  static_assert(kFanout >= 4 && kFanout % 2 == 0, "a split leaves two halves of kFanout / 2");

 public:
  static constexpr int32_t kNone = -1;
  static constexpr int32_t kNever = std::numeric_limits<int32_t>::max();

  // Adds `key` (not already present) placed at `step`, with `value` (>= 0) to return for it.
  void Insert(uint64_t key, int32_t step, int32_t value) {
    if (root_ == kNone) root_ = NewNode(true);
    if (nodes_[root_].count == kFanout) {
      const int32_t old_root = root_;
      root_ = NewNode(false);
      Node& root = nodes_[root_];
      root.count = 1;
      root.keys[0] = nodes_[old_root].keys[kFanout - 1];
      root.earliest[0] = EarliestOf(nodes_[old_root]);
      root.link[0] = old_root;
      SplitChild(root_, 0);
    }
    int32_t node = root_;
    while (!nodes_[node].leaf) {
      size_t child = ChildFor(nodes_[node], key);
      if (nodes_[nodes_[node].link[child]].count == kFanout) {
        SplitChild(node, child);
        if (key > nodes_[node].keys[child]) ++child;
      }
      Node& parent = nodes_[node];
      parent.keys[child] = std::max(parent.keys[child], key);
      parent.earliest[child] = std::min(parent.earliest[child], step);
      node = parent.link[child];
    }
    Node& leaf = nodes_[node];
    const size_t at = static_cast<size_t>(
        std::lower_bound(leaf.keys.begin(), leaf.keys.begin() + leaf.count, key) -
        leaf.keys.begin());
    std::copy_backward(leaf.keys.begin() + at, leaf.keys.begin() + leaf.count,
                       leaf.keys.begin() + leaf.count + 1);
    std::copy_backward(leaf.earliest.begin() + at, leaf.earliest.begin() + leaf.count,
                       leaf.earliest.begin() + leaf.count + 1);
    std::copy_backward(leaf.link.begin() + at, leaf.link.begin() + leaf.count,
                       leaf.link.begin() + leaf.count + 1);
    leaf.keys[at] = key;
    leaf.earliest[at] = step;
    leaf.link[at] = value;
    ++leaf.count;
  }

  // The value of the largest key below `key` placed at or before `step`, or kNone.
  int32_t PreviousMet(uint64_t key, int32_t step) const {
    return root_ == kNone ? kNone : Previous(root_, key, step);
  }

  // PreviousMet, and the value of the smallest key at or above `key` placed at or before `step`
  // (or kNone), in one descent: both sides share the path to `key`.
  std::pair<int32_t, int32_t> MetAround(uint64_t key, int32_t step) const {
    return root_ == kNone ? std::pair{kNone, kNone} : Around(root_, key, step);
  }

  // The earliest step among keys in [from, to], or kNever.
  int32_t EarliestIn(uint64_t from, uint64_t to) const {
    if (root_ == kNone || from > to) return kNever;
    return Earliest(root_, 0, from, to);
  }

 private:
  // Leaves hold entries (key, step, value); internal nodes hold, per child, the largest key and
  // the earliest step below it, and the child's index.
  struct Node {
    size_t count = 0;
    bool leaf = true;
    std::array<uint64_t, kFanout> keys;
    std::array<int32_t, kFanout> earliest;
    std::array<int32_t, kFanout> link;
  };

  int32_t NewNode(bool leaf) {
    nodes_.emplace_back();
    nodes_.back().leaf = leaf;
    return static_cast<int32_t>(nodes_.size() - 1);
  }
  static int32_t EarliestOf(const Node& node) {
    return *std::min_element(node.earliest.begin(), node.earliest.begin() + node.count);
  }
  // The child whose keys reach `key`, or the last one when none does.
  static size_t ChildFor(const Node& node, uint64_t key) {
    const auto it = std::lower_bound(node.keys.begin(), node.keys.begin() + node.count, key);
    return std::min(static_cast<size_t>(it - node.keys.begin()), node.count - 1);
  }

  // Moves the upper half of `parent`'s full child at `child` into a new node after it.
  void SplitChild(int32_t parent, size_t child) {
    const int32_t upper = NewNode(nodes_[nodes_[parent].link[child]].leaf);
    Node& from = nodes_[nodes_[parent].link[child]];
    Node& to = nodes_[upper];
    constexpr size_t kHalf = kFanout / 2;
    std::copy(from.keys.begin() + kHalf, from.keys.end(), to.keys.begin());
    std::copy(from.earliest.begin() + kHalf, from.earliest.end(), to.earliest.begin());
    std::copy(from.link.begin() + kHalf, from.link.end(), to.link.begin());
    to.count = kHalf;
    from.count = kHalf;
    Node& p = nodes_[parent];
    std::copy_backward(p.keys.begin() + child + 1, p.keys.begin() + p.count,
                       p.keys.begin() + p.count + 1);
    std::copy_backward(p.earliest.begin() + child + 1, p.earliest.begin() + p.count,
                       p.earliest.begin() + p.count + 1);
    std::copy_backward(p.link.begin() + child + 1, p.link.begin() + p.count,
                       p.link.begin() + p.count + 1);
    ++p.count;
    p.keys[child] = from.keys[kHalf - 1];
    p.earliest[child] = EarliestOf(from);
    p.keys[child + 1] = to.keys[kHalf - 1];
    p.earliest[child + 1] = EarliestOf(to);
    p.link[child + 1] = upper;
  }

  // The value under `node` with the largest (side 1) or smallest (side 0) key placed at or
  // before `step`; one is there.
  int32_t Outermost(int32_t node, int32_t step, int side) const {
    while (true) {
      const Node& n = nodes_[node];
      size_t i = 0;
      if (side == 1) {
        i = n.count - 1;
        while (n.earliest[i] > step) --i;
      } else {
        while (n.earliest[i] > step) ++i;
      }
      if (n.leaf) return n.link[i];
      node = n.link[i];
    }
  }

  int32_t Previous(int32_t node, uint64_t key, int32_t step) const {
    const Node& n = nodes_[node];
    // Entries (children) before `below` lie wholly under `key`.
    size_t below = static_cast<size_t>(
        std::lower_bound(n.keys.begin(), n.keys.begin() + n.count, key) - n.keys.begin());
    if (!n.leaf && below < n.count && n.earliest[below] <= step) {
      const int32_t found = Previous(n.link[below], key, step);
      if (found != kNone) return found;
    }
    for (size_t i = below; i-- > 0;) {
      if (n.earliest[i] > step) continue;
      return n.leaf ? n.link[i] : Outermost(n.link[i], step, 1);
    }
    return kNone;
  }

  std::pair<int32_t, int32_t> Around(int32_t node, uint64_t key, int32_t step) const {
    const Node& n = nodes_[node];
    // Entries (children) before `at` lie wholly under `key`; after `at`, wholly above it.
    const size_t at = static_cast<size_t>(
        std::lower_bound(n.keys.begin(), n.keys.begin() + n.count, key) - n.keys.begin());
    std::pair<int32_t, int32_t> found{kNone, kNone};
    size_t above = at;
    if (!n.leaf && at < n.count) {
      if (n.earliest[at] <= step) found = Around(n.link[at], key, step);
      ++above;
    }
    if (found.first == kNone) {
      for (size_t i = at; i-- > 0;) {
        if (n.earliest[i] > step) continue;
        found.first = n.leaf ? n.link[i] : Outermost(n.link[i], step, 1);
        break;
      }
    }
    if (found.second == kNone) {
      for (size_t i = above; i < n.count; ++i) {
        if (n.earliest[i] > step) continue;
        found.second = n.leaf ? n.link[i] : Outermost(n.link[i], step, 0);
        break;
      }
    }
    return found;
  }

  // The earliest step among the keys under `node` (all at or above `low`) in [from, to].
  int32_t Earliest(int32_t node, uint64_t low, uint64_t from, uint64_t to) const {
    const Node& n = nodes_[node];
    int32_t earliest = kNever;
    for (size_t i = 0; i < n.count; ++i) {
      const uint64_t high = n.keys[i];
      if (n.leaf) {
        if (high >= from && high <= to) earliest = std::min(earliest, n.earliest[i]);
      } else if (high >= from && low <= to) {
        earliest =
            std::min(earliest, low >= from && high <= to ? n.earliest[i]
                                                         : Earliest(n.link[i], low, from, to));
      }
      if (high >= to) break;
      low = high + 1;
    }
    return earliest;
  }

  std::vector<Node> nodes_;
  int32_t root_ = kNone;
};

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_EARLIEST_STEP_BTREE_H_
