// EarliestStepBTree against a scan over every inserted (key, step) pair, its reference, after
// every insertion: with small fanouts, so that leaves and inner nodes split and the root grows.
#include "libanalysis/arena/earliest_step_btree.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace tfa {
namespace {

struct Placed {
  uint64_t key;
  int32_t step;
};

constexpr int32_t kNone = -1;
constexpr int32_t kNever = std::numeric_limits<int32_t>::max();

int32_t ReferencePrevious(const std::vector<Placed>& placed, uint64_t key, int32_t step) {
  int32_t found = kNone;
  for (size_t i = 0; i < placed.size(); ++i) {
    if (placed[i].key < key && placed[i].step <= step &&
        (found == kNone || placed[i].key > placed[static_cast<size_t>(found)].key)) {
      found = static_cast<int32_t>(i);
    }
  }
  return found;
}

int32_t ReferenceNext(const std::vector<Placed>& placed, uint64_t key, int32_t step) {
  int32_t found = kNone;
  for (size_t i = 0; i < placed.size(); ++i) {
    if (placed[i].key >= key && placed[i].step <= step &&
        (found == kNone || placed[i].key < placed[static_cast<size_t>(found)].key)) {
      found = static_cast<int32_t>(i);
    }
  }
  return found;
}

int32_t ReferenceEarliest(const std::vector<Placed>& placed, uint64_t from, uint64_t to) {
  int32_t earliest = kNever;
  for (const Placed& p : placed) {
    if (p.key >= from && p.key <= to) earliest = std::min(earliest, p.step);
  }
  return earliest;
}

template <size_t kFanout>
void RunRandomInsertions() {
  EarliestStepBTree<kFanout> tree;
  std::vector<Placed> placed;
  std::set<uint64_t> used;
  const int insertions = *rc::gen::inRange(0, 120);
  for (int i = 0; i < insertions; ++i) {
    const auto key = static_cast<uint64_t>(*rc::gen::inRange(0, 200));
    if (!used.insert(key).second) continue;
    const int32_t step = *rc::gen::inRange(0, 30);
    tree.Insert(key, step, static_cast<int32_t>(placed.size()));
    placed.push_back({key, step});
    for (int probe = 0; probe < 8; ++probe) {
      const auto at = static_cast<uint64_t>(*rc::gen::inRange(0, 202));
      const int32_t when = *rc::gen::inRange(-1, 31);
      RC_ASSERT(tree.PreviousMet(at, when) == ReferencePrevious(placed, at, when));
      const auto around = tree.MetAround(at, when);
      RC_ASSERT(around.first == ReferencePrevious(placed, at, when));
      RC_ASSERT(around.second == ReferenceNext(placed, at, when));
      const auto to = static_cast<uint64_t>(*rc::gen::inRange(0, 202));
      RC_ASSERT(tree.EarliestIn(at, to) == ReferenceEarliest(placed, at, to));
    }
  }
}

RC_GTEST_PROP(EarliestStepBTreeProperty, MatchesScanWithFanout4, ()) { RunRandomInsertions<4>(); }

RC_GTEST_PROP(EarliestStepBTreeProperty, MatchesScanWithFanout6, ()) { RunRandomInsertions<6>(); }

RC_GTEST_PROP(EarliestStepBTreeProperty, MatchesScanWithDefaultFanout, ()) {
  RunRandomInsertions<32>();
}

TEST(EarliestStepBTreeTest, FindsNeighboursPlacedByAStep) {
  EarliestStepBTree<4> tree;
  // Keys 0, 10, ..., 190; key 10 * k placed at step k % 5.
  for (int32_t k = 0; k < 20; ++k) tree.Insert(static_cast<uint64_t>(10 * k), k % 5, k);
  EXPECT_EQ(tree.PreviousMet(95, 4), 9);
  EXPECT_EQ(tree.PreviousMet(95, 0), 5);
  EXPECT_EQ(tree.MetAround(95, 0), std::pair(5, 10));
  EXPECT_EQ(tree.MetAround(100, 4).second, 10);
  EXPECT_EQ(tree.MetAround(191, 4), std::pair(19, -1));
  EXPECT_EQ(tree.PreviousMet(0, 4), -1);
  EXPECT_EQ(tree.EarliestIn(11, 39), 2);
  EXPECT_EQ(tree.EarliestIn(41, 49), kNever);
}

}  // namespace
}  // namespace tfa
