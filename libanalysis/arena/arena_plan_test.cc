#include "libanalysis/arena/arena_plan.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

namespace tfa {
namespace {

// Step 1 holds 100, 64 and 10 bytes: rounded 128 + 64 + 64, less the largest rounding (54) that
// the top block does not need.
TEST(LowerBoundTest, SumsRoundedLiveBytesPerStep) {
  const std::vector<ArenaBlock> blocks = {
      {.tensor = 0, .offset = 0, .size = 100, .first_step = 0, .last_step = 1},
      {.tensor = 1, .offset = 128, .size = 64, .first_step = 1, .last_step = 2},
      {.tensor = 2, .offset = 192, .size = 10, .first_step = 1, .last_step = 1},
  };
  const ArenaLowerBound bound = LowerBound(blocks, 3);
  EXPECT_EQ(bound.bytes, 128u + 64u + 64u - 54u);
  EXPECT_EQ(bound.peak_step, 1);
}

TEST(LowerBoundTest, SingleTinyBlockNeedsNoRounding) {
  const std::vector<ArenaBlock> blocks = {
      {.tensor = 0, .offset = 0, .size = 2, .first_step = 0, .last_step = 0}};
  EXPECT_EQ(LowerBound(blocks, 1), (ArenaLowerBound{.bytes = 2, .peak_step = 0}));
}

TEST(LowerBoundTest, EmptyPlanIsZero) { EXPECT_EQ(LowerBound({}, 0), ArenaLowerBound{}); }

// Against the definition, step by step: the live blocks' rounded sizes less their largest
// rounding, the first step with the most.
RC_GTEST_PROP(LowerBoundProperty, MatchesPerStepSums, ()) {
  const int32_t steps = *rc::gen::inRange(1, 12);
  std::vector<ArenaBlock> blocks(*rc::gen::inRange<size_t>(0, 20));
  for (ArenaBlock& block : blocks) {
    block.size = *rc::gen::element<uint64_t>(0, 1, 63, 64, 65, 100, 128);
    block.first_step = *rc::gen::inRange(0, steps);
    block.last_step = *rc::gen::inRange(block.first_step, steps);
  }
  ArenaLowerBound expected;
  for (int32_t step = 0; step < steps; ++step) {
    uint64_t rounded = 0;
    uint64_t max_padding = 0;
    for (const ArenaBlock& block : blocks) {
      if (block.size == 0 || block.first_step > step || block.last_step < step) continue;
      const uint64_t aligned = (block.size + 63) / 64 * 64;
      rounded += aligned;
      max_padding = std::max(max_padding, aligned - block.size);
    }
    const uint64_t bytes = rounded == 0 ? 0 : rounded - max_padding;
    if (bytes > expected.bytes) expected = {bytes, step};
  }
  RC_ASSERT(LowerBound(blocks, steps) == expected);
}

}  // namespace
}  // namespace tfa
