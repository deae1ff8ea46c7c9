// SkylineHoles against upstream's best-fit loop (tflite/simple_memory_arena.cc) over the same
// allocations: skyline buffers placed at random steps, in random order, with short-lived
// obstacles over, between and inside them.
#include "libanalysis/arena/skyline_holes.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace tfa {
namespace {

constexpr uint64_t kAlignment = 64;

uint64_t AlignUp(uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

struct Buffer {
  uint64_t offset;
  uint64_t size;
  int32_t first;  // skyline buffers: the step they are placed at
};

// Upstream's loop over the buffers a lifetime ending at `last` meets, in offset order.
uint64_t UpstreamBestFit(std::vector<Buffer> met, uint64_t size) {
  std::stable_sort(met.begin(), met.end(),
                   [](const Buffer& a, const Buffer& b) { return a.offset < b.offset; });
  bool found = false;
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  uint64_t current = 0;
  for (const Buffer& buffer : met) {
    const uint64_t aligned = AlignUp(current);
    if (aligned + size <= buffer.offset && buffer.offset - aligned < best_gap) {
      found = true;
      best_offset = aligned;
      best_gap = buffer.offset - current;
    }
    current = std::max(current, buffer.offset + buffer.size);
  }
  return found ? best_offset : AlignUp(current);
}

OccupiedRange RangeOf(const Buffer& buffer) {
  return {buffer.offset, AlignUp(buffer.offset + buffer.size), buffer.offset + buffer.size};
}

uint64_t Fit(const SkylineHoles& holes, const std::vector<Buffer>& skyline, int32_t last,
             const std::vector<Buffer>& obstacles, uint64_t size) {
  std::vector<OccupiedRange> ranges;
  for (const Buffer& obstacle : obstacles) ranges.push_back(RangeOf(obstacle));
  MergeIntoUnion(ranges);
  std::vector<Buffer> met = obstacles;
  for (const Buffer& buffer : skyline) {
    if (buffer.first <= last) met.push_back(buffer);
  }
  const uint64_t upstream = UpstreamBestFit(met, size);
  const auto fast = holes.BestFitOffset(last, size, ranges);
  RC_ASSERT(fast.has_value());
  RC_ASSERT(*fast == upstream);
  return *fast;
}

RC_GTEST_PROP(SkylineHolesProperty, BestFitMatchesUpstream, ()) {
  const int32_t last_step = *rc::gen::inRange(1, 40);
  const size_t count = *rc::gen::inRange<size_t>(1, 60);
  // Byte-disjoint buffers (all live at the last step), with gaps of every kind between them.
  std::vector<Buffer> skyline;
  uint64_t top = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t offset = AlignUp(top) + kAlignment * *rc::gen::element<uint64_t>(0, 0, 1, 2);
    const uint64_t size = *rc::gen::element<uint64_t>(1, 63, 64, 65, 100, 128, 129, 192);
    skyline.push_back({offset, size, *rc::gen::inRange(0, last_step + 1)});
    top = offset + size;
  }
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  for (size_t i = count; i > 1; --i) {
    std::swap(order[i - 1], order[*rc::gen::inRange<size_t>(0, i)]);
  }
  // Blocks of a step or a few put holes through both the index's tree and its block lists.
  SkylineHoles holes(last_step, kAlignment, *rc::gen::element(1, 2, 3, 8, 32));
  std::vector<Buffer> placed;
  for (size_t i : order) {
    holes.Insert(skyline[i].first, RangeOf(skyline[i]));
    placed.push_back(skyline[i]);
    // A few queries after each placement, with obstacles anywhere below the top.
    for (int query = 0; query < 3; ++query) {
      std::vector<Buffer> obstacles;
      const size_t obstacle_count = *rc::gen::element<size_t>(0, 0, 1, 2, 5);
      for (size_t j = 0; j < obstacle_count; ++j) {
        obstacles.push_back({kAlignment * *rc::gen::inRange<uint64_t>(0, top / kAlignment + 2),
                             *rc::gen::element<uint64_t>(1, 64, 65, 200), 0});
      }
      const int32_t last = *rc::gen::inRange(0, last_step);
      Fit(holes, placed, last, obstacles, *rc::gen::element<uint64_t>(1, 64, 65, 128, 129));
    }
  }
}

// A buffer placed at step 2 between two placed at step 0 leaves a hole for lifetimes ending at
// steps 0 and 1 only.
TEST(SkylineHolesTest, HoleClosesWhenABufferBetweenAppears) {
  SkylineHoles holes(4, kAlignment);
  holes.Insert(0, {0, 64, 64});
  holes.Insert(0, {256, 320, 320});
  holes.Insert(2, {64, 256, 256});
  EXPECT_EQ(holes.BestFitOffset(1, 128, {}), 64u);
  EXPECT_EQ(holes.BestFitOffset(2, 128, {}), 320u);
}

// An obstacle inside a hole splits it: the tensor goes into the part that holds it best.
TEST(SkylineHolesTest, ObstacleSplitsAHole) {
  SkylineHoles holes(4, kAlignment);
  holes.Insert(0, {0, 64, 64});
  holes.Insert(0, {512, 576, 576});
  holes.Insert(3, {64, 512, 512});
  // The hole [64, 512) at step 1, with an obstacle at [128, 320): gaps of 64 and 192.
  EXPECT_EQ(holes.BestFitOffset(1, 64, {{128, 320, 320}}), 64u);
  EXPECT_EQ(holes.BestFitOffset(1, 100, {{128, 320, 320}}), 320u);
  EXPECT_EQ(holes.BestFitOffset(1, 300, {{128, 320, 320}}), 576u);
}

// Two holes of aligned size 128 above buffers ending unaligned: upstream takes the last one.
TEST(SkylineHolesTest, EqualHolesWithUnalignedStartsTakeTheLast) {
  SkylineHoles holes(2, kAlignment);
  holes.Insert(0, {0, 128, 100});
  holes.Insert(0, {256, 320, 320});
  holes.Insert(0, {320, 448, 420});
  holes.Insert(0, {576, 640, 640});
  EXPECT_EQ(holes.BestFitOffset(0, 128, {}), 448u);
}

}  // namespace
}  // namespace tfa
