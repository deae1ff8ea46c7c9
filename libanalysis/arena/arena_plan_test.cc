#include "libanalysis/arena/arena_plan.h"

#include <gtest/gtest.h>

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

TEST(LowerBoundTest, EmptyPlanIsZero) {
  EXPECT_EQ(LowerBound({}, 0), ArenaLowerBound{});
}

}  // namespace
}  // namespace tfa
