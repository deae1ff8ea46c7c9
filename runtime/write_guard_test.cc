#include "runtime/write_guard.h"

#include <gtest/gtest.h>

#include <vector>

namespace tfa::runtime {
namespace {

TEST(WriteGuardTest, WritesInsideAllowedRangesPass) {
  std::vector<uint8_t> arena(256, 0), persistent(64, 0);
  WriteGuard guard({arena, persistent});
  guard.Snapshot();
  arena[64] = arena[127] = 1;
  persistent[0] = 7;
  EXPECT_EQ(guard.FirstWriteOutside({{1, 0, 8}, {0, 64, 128}}), std::nullopt);
}

TEST(WriteGuardTest, ReportsTheFirstRunOfChangedBytesOutside) {
  std::vector<uint8_t> arena(256, 0);
  WriteGuard guard({arena});
  guard.Snapshot();
  for (int i = 64; i < 132; ++i) arena[static_cast<size_t>(i)] = 1;  // 4 bytes past the output
  arena[200] = 1;
  EXPECT_EQ(guard.FirstWriteOutside({{0, 64, 128}}), (GuardedRange{0, 128, 132}));
  EXPECT_EQ(guard.FirstWriteOutside({{0, 64, 132}, {0, 0, 8}}), (GuardedRange{0, 200, 201}));
  EXPECT_EQ(guard.FirstWriteOutside({{0, 100, 256}, {0, 60, 140}}), std::nullopt);
}

TEST(WriteGuardTest, WritesBeforeTheOutputAndInOtherBuffersAreSeen) {
  std::vector<uint8_t> arena(128, 0), persistent(64, 0);
  WriteGuard guard({arena, persistent});
  guard.Snapshot();
  arena[63] = 9;
  EXPECT_EQ(guard.FirstWriteOutside({{0, 64, 128}}), (GuardedRange{0, 63, 64}));
  arena[63] = 0;
  persistent[10] = 1;
  EXPECT_EQ(guard.FirstWriteOutside({{0, 0, 128}}), (GuardedRange{1, 10, 11}));
  // A new snapshot accepts the current contents.
  guard.Snapshot();
  EXPECT_EQ(guard.FirstWriteOutside({}), std::nullopt);
}

}  // namespace
}  // namespace tfa::runtime
