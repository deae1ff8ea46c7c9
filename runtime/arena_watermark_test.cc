#include "runtime/arena_watermark.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tfa::runtime {
namespace {

TEST(ArenaWatermarkTest, NothingWrittenIsZeroAndTheHighestChangedByteCounts) {
  std::vector<uint8_t> arena(4096);
  FillUnwritten(arena);
  EXPECT_EQ(WrittenExtent(arena), 0u);
  arena[100] ^= 1;
  EXPECT_EQ(WrittenExtent(arena), 101u);
  arena[4000] ^= 0x80;
  EXPECT_EQ(WrittenExtent(arena), 4001u);
}

// A byte written with the pattern's own value reads as unwritten: the bytes known to be written
// (a kernel's output) count whatever they hold, and the memory decides above them.
TEST(ArenaWatermarkTest, BytesKnownWrittenCountWhateverTheyHold) {
  std::vector<uint8_t> arena(4096);
  FillUnwritten(arena);
  const std::vector<uint8_t> pattern = arena;
  arena[4095] = pattern[4095];  // the top byte written with the fill value
  EXPECT_EQ(WrittenExtent(arena), 0u);
  EXPECT_EQ(WrittenExtent(arena, 4096), 4096u);
  EXPECT_EQ(WrittenExtent(arena, 5000), 4096u);  // capped at the buffer
  arena[3000] ^= 1;                              // a temporary above the outputs
  EXPECT_EQ(WrittenExtent(arena, 2048), 3001u);
  EXPECT_EQ(WrittenExtent(arena, 3500), 3500u);
}

TEST(ArenaWatermarkTest, UnwrittenWordsReadAsNaN) {
  std::vector<uint8_t> arena(1024);
  FillUnwritten(arena);
  for (size_t i = 0; i < arena.size(); i += 4) {
    float value = 0;
    std::memcpy(&value, &arena[i], sizeof(value));
    ASSERT_TRUE(std::isnan(value)) << "word at " << i;
  }
}

// A zero-filled or constant tensor never looks unwritten: the pattern varies from word to word.
TEST(ArenaWatermarkTest, ThePatternIsNotConstant) {
  std::vector<uint8_t> arena(256);
  FillUnwritten(arena);
  std::vector<uint8_t> low_bytes;
  for (size_t i = 0; i < arena.size(); i += 4) low_bytes.push_back(arena[i]);
  std::sort(low_bytes.begin(), low_bytes.end());
  EXPECT_GT(std::unique(low_bytes.begin(), low_bytes.end()) - low_bytes.begin(), 32);
}

}  // namespace
}  // namespace tfa::runtime
