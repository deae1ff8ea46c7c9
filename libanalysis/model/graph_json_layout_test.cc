#include "libanalysis/model/graph_json_layout.h"

#include <gtest/gtest.h>

#include <string>

namespace tfa {
namespace {

constexpr int kDepth = 64;

TEST(GraphJsonLayout, FindsTheTopLevelListsAndTheirElements) {
  const std::string text =
      R"({"format":"x","tensors":[ {"bytes":4}, {"bytes":4,"shape":[1,2]},{"bytes":8} ],)"
      R"("name":"tensors","nodes":[],"inputs":[0]})";
  auto layout = ScanGraphJsonLayout(text, kDepth, 2);
  ASSERT_TRUE(layout.ok()) << layout.status().message();
  EXPECT_EQ(layout->objects, 4u);
  EXPECT_EQ(layout->step, 2u);
  ASSERT_EQ(layout->lists.size(), 2u);
  const GraphJsonList& tensors = layout->lists[0];
  EXPECT_FALSE(tensors.nodes);
  EXPECT_EQ(tensors.subgraph, 0u);
  EXPECT_EQ(text[tensors.open], '[');
  EXPECT_EQ(text[tensors.close], ']');
  EXPECT_EQ(tensors.count, 3u);
  // Elements 0 and 2 start right after the '[' and the second ','.
  ASSERT_EQ(tensors.starts.size(), 2u);
  EXPECT_EQ(tensors.starts[0], tensors.open + 1);
  EXPECT_EQ(text.substr(tensors.starts[1], 10), R"({"bytes":8)");
  const GraphJsonList& nodes = layout->lists[1];
  EXPECT_TRUE(nodes.nodes);
  EXPECT_EQ(nodes.count, 0u);
  EXPECT_EQ(nodes.close, nodes.open + 1);
}

TEST(GraphJsonLayout, NumbersTheListsOfEachSubgraphObject) {
  const std::string text =
      R"({"tensors":[{}],"subgraphs":[{"nodes":[{},{}],"tensors":[ ]},7,{"tensors":[{}]}],)"
      R"("signatures":[{"tensors":[{}]}]})";
  auto layout = ScanGraphJsonLayout(text, kDepth, 1);
  ASSERT_TRUE(layout.ok());
  ASSERT_EQ(layout->lists.size(), 4u);
  EXPECT_EQ(layout->lists[0].subgraph, 0u);
  EXPECT_EQ(layout->lists[1].subgraph, 1u);
  EXPECT_TRUE(layout->lists[1].nodes);
  EXPECT_EQ(layout->lists[1].count, 2u);
  EXPECT_EQ(layout->lists[2].subgraph, 1u);
  EXPECT_EQ(layout->lists[2].count, 0u);
  // The 7 is no subgraph object: the next object is the second one read.
  EXPECT_EQ(layout->lists[3].subgraph, 2u);
  EXPECT_EQ(layout->lists[3].count, 1u);
}

TEST(GraphJsonLayout, StringsHideStructure) {
  const std::string text = R"({"tensors":[{"name":"a,]\"[{,"},{"name":"\\"}],"nodes":[]})";
  auto layout = ScanGraphJsonLayout(text, kDepth, 1);
  ASSERT_TRUE(layout.ok());
  ASSERT_EQ(layout->lists.size(), 2u);
  EXPECT_EQ(layout->lists[0].count, 2u);
  EXPECT_EQ(layout->objects, 3u);
}

TEST(GraphJsonLayout, GivesNoListsWhereASplitWouldBeUnsafe) {
  for (const std::string text : {
           R"({"tensors":[],"tensors":[]})",                  // a repeated list
           R"({"tensor\u0073":[],"tensors":[]})",             // an escaped key
           R"({"subgraphs":[],"subgraphs":[{"nodes":[]}]})",  // "subgraphs" twice
           R"({"subgraphs":[{"nodes":[],"nodes":[]}]})",      // a subgraph repeats a list
           R"({"tensors":[{}})",                              // a list never closed
           R"([{"tensors":[]}])",                             // no top-level object
       }) {
    auto layout = ScanGraphJsonLayout(text, kDepth, 1);
    ASSERT_TRUE(layout.ok()) << text;
    EXPECT_TRUE(layout->lists.empty()) << text;
  }
}

TEST(GraphJsonLayout, RefusesDeepNestingAsTheOtherReadersDo) {
  auto layout = ScanGraphJsonLayout(std::string(100, '['), 64, 1);
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.status().message(), "JSON nested deeper than 64 levels (at byte 64)");
}

}  // namespace
}  // namespace tfa
