// SortedChunks against std::set, its reference: the same keys, order, ends and lower bounds after
// every insertion and erasure, with chunks small enough that splits and emptied chunks are common.
#include "libanalysis/arena/sorted_chunks.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <vector>

namespace tfa {
namespace {

template <size_t kChunk>
void CheckSame(const SortedChunks<int, kChunk>& chunks, const std::set<int>& reference) {
  RC_ASSERT(chunks.empty() == reference.empty());
  std::vector<int> keys;
  for (auto it = chunks.lower_bound(-1); it != chunks.end(); ++it) keys.push_back(*it);
  RC_ASSERT(keys == std::vector<int>(reference.begin(), reference.end()));
  if (reference.empty()) return;
  RC_ASSERT(chunks.front() == *reference.begin());
  RC_ASSERT(chunks.back() == *reference.rbegin());
  for (int probe = -1; probe <= 65; probe += 3) {
    const auto it = chunks.lower_bound(probe);
    const auto expected = reference.lower_bound(probe);
    RC_ASSERT((it == chunks.end()) == (expected == reference.end()));
    if (expected != reference.end()) RC_ASSERT(*it == *expected);
  }
}

template <size_t kChunk>
void RunRandomOperations() {
  SortedChunks<int, kChunk> chunks;
  std::set<int> reference;
  const int operations = *rc::gen::inRange(0, 400);
  for (int i = 0; i < operations; ++i) {
    const int key = *rc::gen::inRange(0, 64);
    if (*rc::gen::inRange(0, 3) == 0) {
      chunks.erase(key);
      reference.erase(key);
    } else {
      chunks.insert(key);
      reference.insert(key);
    }
    CheckSame(chunks, reference);
  }
}

RC_GTEST_PROP(SortedChunksProperty, MatchesStdSetWithTinyChunks, ()) { RunRandomOperations<2>(); }

RC_GTEST_PROP(SortedChunksProperty, MatchesStdSetWithSmallChunks, ()) { RunRandomOperations<5>(); }

RC_GTEST_PROP(SortedChunksProperty, MatchesStdSetWithDefaultChunks, ()) {
  RunRandomOperations<128>();
}

TEST(SortedChunksTest, KeysInsertedInOrderSplitIntoChunksAndIterateInOrder) {
  SortedChunks<int, 4> chunks;
  for (int key = 0; key < 20; ++key) chunks.insert(key);
  chunks.insert(7);
  int expected = 0;
  for (auto it = chunks.lower_bound(0); it != chunks.end(); ++it) EXPECT_EQ(*it, expected++);
  EXPECT_EQ(expected, 20);
  for (int key = 0; key < 20; ++key) chunks.erase(key);
  EXPECT_TRUE(chunks.empty());
}

}  // namespace
}  // namespace tfa
