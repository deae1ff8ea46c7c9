#include "runtime/kernels/cpu/flexbuffer_map.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

namespace tfa::runtime {
namespace {

std::vector<uint8_t> SampleOptions() {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("count", 7);
    fbb.UInt("unsigned", 9);
    fbb.Int("huge", int64_t{1} << 40);
    fbb.Float("ratio", 0.25f);
    fbb.String("mode", "bilinear");
    fbb.TypedVector("typed", [&] {
      for (int i : {1, 2, 3, 4, 5}) fbb.Int(i);
    });
    const int32_t pair[2] = {8, 9};
    fbb.FixedTypedVector("fixed", pair, 2);
    fbb.Vector("untyped", [&] {
      fbb.Int(-1);
      fbb.UInt(2);
    });
    fbb.Vector("mixed", [&] {
      fbb.Int(1);
      fbb.Float(2.5f);
    });
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

TEST(FlexbufferMapTest, ReadsIntegersNumbersAndIntegerVectors) {
  const std::vector<uint8_t> bytes = SampleOptions();
  auto map = FlexbufferMap::Read(bytes);
  ASSERT_TRUE(map.ok()) << map.status().message();
  EXPECT_TRUE(map->Has("count"));
  EXPECT_FALSE(map->Has("absent"));
  EXPECT_EQ(*map->Int("count"), 7);
  EXPECT_EQ(*map->Int("unsigned"), 9);
  EXPECT_EQ(*map->Float("ratio"), 0.25f);
  EXPECT_EQ(*map->Float("count"), 7.0f);  // integers read as numbers, as upstream's AsFloat
  EXPECT_EQ(*map->IntVector("typed"), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(*map->IntVector("fixed"), (std::vector<int32_t>{8, 9}));
  EXPECT_EQ(*map->IntVector("untyped"), (std::vector<int32_t>{-1, 2}));
}

TEST(FlexbufferMapTest, WrongOrMissingValuesAreErrorsNamingTheKey) {
  const std::vector<uint8_t> bytes = SampleOptions();
  auto map = FlexbufferMap::Read(bytes);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->Int("absent").status().message(), "custom option 'absent' is missing");
  EXPECT_EQ(map->Int("huge").status().message(), "custom option 'huge' does not fit int32");
  EXPECT_EQ(map->Int("ratio").status().message(), "custom option 'ratio' is not an integer");
  EXPECT_EQ(map->Float("mode").status().message(), "custom option 'mode' is not a number");
  EXPECT_EQ(map->IntVector("count").status().message(), "custom option 'count' is not a vector");
  EXPECT_EQ(map->IntVector("mixed").status().message(),
            "custom option 'mixed' element 1 is not an integer");
}

// Upstream's AsInt64, as AudioSpectrogram and Mfcc read their options: absent is 0, a float
// truncates toward zero, a string is not a number here.
TEST(FlexbufferMapTest, AsInt64ReadsAnyNumberAsUpstreamDoes) {
  const std::vector<uint8_t> bytes = SampleOptions();
  auto map = FlexbufferMap::Read(bytes);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(*map->AsInt64("absent"), 0);
  EXPECT_EQ(*map->AsInt64("count"), 7);
  EXPECT_EQ(*map->AsInt64("unsigned"), 9);
  EXPECT_EQ(*map->AsInt64("ratio"), 0);
  EXPECT_EQ(*map->AsInt64("huge"), int64_t{1} << 40);
  EXPECT_EQ(map->AsInt64("mode").status().message(), "custom option 'mode' is not a number");
}

TEST(FlexbufferMapTest, RejectsEmptyCorruptAndNonMapBuffers) {
  EXPECT_EQ(FlexbufferMap::Read({}).status().message(),
            "custom options are empty, expected a flexbuffer map");
  std::vector<uint8_t> bytes = SampleOptions();
  bytes.back() = 3;  // a root byte width flexbuffers does not have
  EXPECT_EQ(FlexbufferMap::Read(bytes).status().message(),
            "custom options are not a well-formed flexbuffer");
  // Every truncation of a valid buffer is rejected or still verifies; none crashes.
  const std::vector<uint8_t> valid = SampleOptions();
  for (size_t n = 1; n < valid.size(); ++n) {
    auto map = FlexbufferMap::Read(std::span<const uint8_t>(valid.data(), n));
    if (map.ok()) (void)map->Int("count");
  }
  flexbuffers::Builder fbb;
  fbb.Int(5);
  fbb.Finish();
  EXPECT_EQ(FlexbufferMap::Read(fbb.GetBuffer()).status().message(),
            "custom options are a flexbuffer but not a map");
}

}  // namespace
}  // namespace tfa::runtime
