#include "libanalysis/report/resident_memory.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

TEST(TouchedPageBytesTest, EachPageOnceWhateverTouchesIt) {
  EXPECT_EQ(TouchedPageBytes({}), 0u);
  EXPECT_EQ(TouchedPageBytes({{0, 1}}), 4096u);
  // Two ranges on page 0, one across pages 0 and 1, an empty one, one on page 3.
  EXPECT_EQ(TouchedPageBytes({{0, 64}, {100, 200}, {4000, 4097}, {9000, 9000}, {12288, 16384}}),
            3u * 4096u);
  // Nested and unsorted.
  EXPECT_EQ(TouchedPageBytes({{8192, 8193}, {0, 20000}}), 5u * 4096u);
}

}  // namespace
}  // namespace tfa
