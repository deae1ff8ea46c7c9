#include "libanalysis/core/closest_name.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

const std::vector<std::string_view> kOps = {"ADD", "CONV_2D", "DEPTHWISE_CONV_2D", "PRELU",
                                            "RESHAPE"};

TEST(ClosestName, IgnoresCaseUnderscoresAndDashes) {
  EXPECT_EQ(ClosestName("CONV2D", kOps), "CONV_2D");
  EXPECT_EQ(ClosestName("conv-2d", kOps), "CONV_2D");
  EXPECT_EQ(ClosestName("DepthwiseConv2D", kOps), "DEPTHWISE_CONV_2D");
}

TEST(ClosestName, TakesTheNearestWithinAThirdOfTheName) {
  EXPECT_EQ(ClosestName("PRELLU", kOps), "PRELU");
  EXPECT_EQ(ClosestName("RESAHPE", kOps), "RESHAPE");
  EXPECT_EQ(ClosestName("reprot", {"info", "report", "arena"}), "report");
}

TEST(ClosestName, SuggestsNothingFarAway) {
  EXPECT_EQ(ClosestName("bogus", {"info", "report", "arena", "dot", "run"}), std::nullopt);
  EXPECT_EQ(ClosestName("SOFTMAX", kOps), std::nullopt);
  EXPECT_EQ(DidYouMean("SOFTMAX", kOps), "");
  EXPECT_EQ(DidYouMean("CONV2D", kOps), " (did you mean CONV_2D?)");
}

}  // namespace
}  // namespace tfa
