// OccupancyTree against upstream's best-fit loop, and the closed form of upstream's tie rule
// that a faster search could rely on: the offset is that of the smallest aligned gap holding the
// tensor; among equal ones, the first whose start is aligned, otherwise the last.
#include "libanalysis/arena/occupancy_tree.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace tfa {
namespace {

constexpr uint64_t kAlignment = 64;

uint64_t AlignUp(uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

struct Placed {
  uint64_t offset;
  uint64_t size;
  int32_t first;
  int32_t last;
};

// SimpleMemoryArena::Allocate's loop (tflite/simple_memory_arena.cc) over `placed`, which is in
// offset order.
uint64_t UpstreamBestFit(const std::vector<Placed>& placed, int32_t first, int32_t last,
                         uint64_t size) {
  bool found = false;
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  uint64_t current = 0;
  for (const Placed& p : placed) {
    if (p.last < first || p.first > last) continue;
    const uint64_t aligned = AlignUp(current);
    if (aligned + size <= p.offset && p.offset - aligned < best_gap) {
      found = true;
      best_offset = aligned;
      best_gap = p.offset - current;
    }
    current = std::max(current, p.offset + p.size);
  }
  return found ? best_offset : AlignUp(current);
}

// The closed form over the gaps of the occupied union.
uint64_t ClosedFormBestFit(const std::vector<Placed>& placed, int32_t first, int32_t last,
                           uint64_t size) {
  bool found = false;
  uint64_t best_size = 0;
  uint64_t best_offset = 0;
  bool best_start_aligned = false;
  uint64_t current = 0;
  for (const Placed& p : placed) {
    if (p.last < first || p.first > last) continue;
    const uint64_t aligned = AlignUp(current);
    if (p.offset >= aligned + size) {
      const uint64_t gap = p.offset - aligned;
      const bool start_aligned = aligned == current;
      const bool replaces = !found || gap < best_size || (gap == best_size && !best_start_aligned);
      if (replaces) {
        found = true;
        best_size = gap;
        best_offset = aligned;
        best_start_aligned = start_aligned;
      }
    }
    current = std::max(current, p.offset + p.size);
  }
  return found ? best_offset : AlignUp(current);
}

void Insert(std::vector<Placed>& placed, const Placed& block) {
  auto position =
      std::upper_bound(placed.begin(), placed.end(), block.offset,
                       [](uint64_t offset, const Placed& p) { return offset < p.offset; });
  placed.insert(position, block);
}

// Random blocks against upstream's loop; `live_to_end_percent` of them live to the last step
// (the skyline), the others get random lifetimes. Sizes leave gaps of equal aligned size with
// aligned and unaligned starts.
// With `announce`, the tree is told the lifetimes first and keeps only the unions they read.
void CheckBestFitAgainstUpstream(int live_to_end_percent, size_t scanned_skyline,
                                 bool announce = false) {
  // Up to 12 steps stays inside one block of the tree; up to 150 spans several, with lifetimes
  // of every length against block boundaries.
  const int32_t steps = *rc::gen::element(*rc::gen::inRange(1, 12), *rc::gen::inRange(1, 150));
  const size_t count = *rc::gen::inRange<size_t>(1, 80);
  std::vector<std::pair<int32_t, int32_t>> lifetimes;
  for (size_t i = 0; i < count; ++i) {
    const int32_t first = *rc::gen::inRange(0, steps);
    const int32_t span = *rc::gen::element(3, 20, 40, steps);
    lifetimes.emplace_back(first, *rc::gen::inRange(0, 100) < live_to_end_percent
                                      ? steps - 1
                                      : *rc::gen::inRange(first, std::min(steps, first + span)));
  }
  OccupancyTree tree(steps, kAlignment, scanned_skyline);
  if (announce) tree.KeepOnlyUnionsReadBy(lifetimes);
  std::vector<Placed> placed;
  for (const auto& [first, last] : lifetimes) {
    const uint64_t size = *rc::gen::element<uint64_t>(1, 63, 64, 65, 100, 128, 129, 192, 256);
    const uint64_t upstream = UpstreamBestFit(placed, first, last, size);
    RC_ASSERT(ClosedFormBestFit(placed, first, last, size) == upstream);
    RC_ASSERT(tree.BestFitOffset(first, last, size) == upstream);
    // Some blocks go elsewhere (above everything), as the order of placement would put them,
    // so that gaps of every kind exist under later windows.
    uint64_t offset = upstream;
    if (*rc::gen::inRange(0, 4) == 0) {
      uint64_t top = 0;
      for (const Placed& p : placed) top = std::max(top, p.offset + p.size);
      offset = AlignUp(top) + kAlignment * *rc::gen::inRange<uint64_t>(0, 3);
    }
    tree.Insert(first, last, offset, size);
    Insert(placed, {offset, size, first, last});
  }
}

RC_GTEST_PROP(OccupancyTreeProperty, BestFitMatchesUpstreamAndTheClosedForm, ()) {
  CheckBestFitAgainstUpstream(0, OccupancyTree::kScannedSkyline);
}

// Most blocks alive to the last step, as graph outputs are: the skyline's holes (buffers placed
// at later steps) and the tree's short-lived blocks inside them make the gaps.
RC_GTEST_PROP(OccupancyTreeProperty, BestFitMatchesUpstreamWithBuffersLiveToTheEnd, ()) {
  CheckBestFitAgainstUpstream(60, OccupancyTree::kScannedSkyline);
}

// The same with the skyline's holes indexed from its first buffer (SkylineHoles), as large
// skylines are.
RC_GTEST_PROP(OccupancyTreeProperty, BestFitMatchesUpstreamWithIndexedSkyline, ()) {
  CheckBestFitAgainstUpstream(*rc::gen::element(20, 60, 90), 0);
}

// The same with the lifetimes announced: the unions no query reads are not kept, and the ones
// queries reaching the last step read leave out what the skyline holds.
RC_GTEST_PROP(OccupancyTreeProperty, BestFitMatchesUpstreamWithAnnouncedLifetimes, ()) {
  const int live_to_end_percent = *rc::gen::element(0, 30, 60);
  CheckBestFitAgainstUpstream(live_to_end_percent,
                              *rc::gen::element<size_t>(0, OccupancyTree::kScannedSkyline), true);
}

// A buffer live to the end but placed at a later step leaves a hole for earlier lifetimes only;
// a short-lived block inside the hole splits it.
TEST(OccupancyTreeTest, BufferPlacedLaterLeavesAHoleForEarlierLifetimes) {
  OccupancyTree tree(4, kAlignment);
  std::vector<Placed> placed = {{0, 128, 0, 3}, {128, 192, 2, 3}, {320, 64, 0, 3}, {128, 64, 1, 1}};
  for (const Placed& p : placed) tree.Insert(p.first, p.last, p.offset, p.size);
  std::sort(placed.begin(), placed.end(),
            [](const Placed& a, const Placed& b) { return a.offset < b.offset; });
  EXPECT_EQ(UpstreamBestFit(placed, 0, 0, 128), 128u);
  EXPECT_EQ(tree.BestFitOffset(0, 0, 128), 128u);
  EXPECT_EQ(UpstreamBestFit(placed, 0, 1, 128), 192u);
  EXPECT_EQ(tree.BestFitOffset(0, 1, 128), 192u);
  EXPECT_EQ(UpstreamBestFit(placed, 1, 3, 64), 384u);
  EXPECT_EQ(tree.BestFitOffset(1, 3, 64), 384u);
}

// Two gaps of aligned size 128 above blocks ending unaligned: upstream takes the last one.
TEST(OccupancyTreeTest, EqualGapsWithUnalignedStartsTakeTheLast) {
  OccupancyTree tree(1, kAlignment);
  std::vector<Placed> placed = {{0, 100, 0, 0}, {256, 64, 0, 0}, {320, 100, 0, 0}, {576, 64, 0, 0}};
  for (const Placed& p : placed) tree.Insert(p.first, p.last, p.offset, p.size);
  EXPECT_EQ(UpstreamBestFit(placed, 0, 0, 128), 448u);
  EXPECT_EQ(tree.BestFitOffset(0, 0, 128), 448u);
}

// An aligned-start gap of the same aligned size stops the search: the first one wins.
TEST(OccupancyTreeTest, EqualGapWithAlignedStartTakesTheFirstAligned) {
  OccupancyTree tree(1, kAlignment);
  std::vector<Placed> placed = {{0, 100, 0, 0},   {256, 64, 0, 0}, {448, 64, 0, 0},
                                {512, 128, 0, 0}, {768, 64, 0, 0}, {832, 100, 0, 0},
                                {1088, 64, 0, 0}};
  for (const Placed& p : placed) tree.Insert(p.first, p.last, p.offset, p.size);
  // Gaps of aligned size 128 start at 128 (unaligned start 100), 320 (aligned), 640
  // (aligned) and 960 (unaligned start 932).
  EXPECT_EQ(UpstreamBestFit(placed, 0, 0, 128), 320u);
  EXPECT_EQ(tree.BestFitOffset(0, 0, 128), 320u);
}

// A smaller gap later beats an earlier larger one; a gap that only fits before alignment is
// skipped.
TEST(OccupancyTreeTest, SmallestAlignedGapWins) {
  OccupancyTree tree(1, kAlignment);
  std::vector<Placed> placed = {{0, 64, 0, 0}, {384, 1, 0, 0}, {512, 64, 0, 0}, {640, 64, 0, 0}};
  for (const Placed& p : placed) tree.Insert(p.first, p.last, p.offset, p.size);
  // Gaps: [64, 384) of 320, [385 -> 448, 512) of 64 aligned (65 unaligned), [576, 640) of 64.
  EXPECT_EQ(UpstreamBestFit(placed, 0, 0, 64), 576u);
  EXPECT_EQ(tree.BestFitOffset(0, 0, 64), 576u);
  EXPECT_EQ(UpstreamBestFit(placed, 0, 0, 65), 64u);
  EXPECT_EQ(tree.BestFitOffset(0, 0, 65), 64u);
}

}  // namespace
}  // namespace tfa
