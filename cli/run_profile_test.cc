#include "cli/run_profile.h"

#include <gtest/gtest.h>

namespace tfa::cli {
namespace {

const std::vector<runtime::NodeTiming> kTimings = {
    {0, "CONV_2D", 3000}, {1, "ADD", 500}, {2, "CONV_2D", 1000}, {3, "RESHAPE", 500}};

TEST(RunProfileTest, TextListsNodesSlowestFirstThenOps) {
  EXPECT_EQ(ProfileText(kTimings),
            "\n  profile of one Invoke: 4 nodes, 5.000 ms\n"
            "    node  op                                   ms   share\n"
            "       0  CONV_2D                           3.000   60.0%\n"
            "       2  CONV_2D                           1.000   20.0%\n"
            "       1  ADD                               0.500   10.0%\n"
            "       3  RESHAPE                           0.500   10.0%\n"
            "\n  op                            nodes         ms   share\n"
            "  CONV_2D                           2      4.000   80.0%\n"
            "  ADD                               1      0.500   10.0%\n"
            "  RESHAPE                           1      0.500   10.0%\n");
}

TEST(RunProfileTest, JsonKeepsRunOrderAndShares) {
  const auto j = ProfileJson(kTimings);
  EXPECT_EQ(j["total_ms"], 5.0);
  ASSERT_EQ(j["nodes"].size(), 4u);
  EXPECT_EQ(j["nodes"][1]["node"], 1);
  EXPECT_EQ(j["nodes"][1]["op"], "ADD");
  EXPECT_EQ(j["nodes"][1]["share"], 0.1);
  EXPECT_EQ(j["ops"][0]["op"], "CONV_2D");
  EXPECT_EQ(j["ops"][0]["nodes"], 2);
  EXPECT_EQ(j["ops"][0]["ms"], 4.0);
}

TEST(RunProfileTest, NoNodesHasNoShares) {
  const auto j = ProfileJson({});
  EXPECT_EQ(j["total_ms"], 0.0);
  EXPECT_TRUE(j["nodes"].empty());
}

}  // namespace
}  // namespace tfa::cli
