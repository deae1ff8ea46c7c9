#include "libanalysis/tflm/allocation_lifetimes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tfa::tflm {
namespace {

Node Op(const std::string& op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  Node node;
  node.op = op;
  node.inputs = IdList(inputs);
  node.outputs = IdList(outputs);
  return node;
}

Subgraph Graph(size_t tensors, std::vector<Node> nodes, std::vector<int32_t> inputs,
               std::vector<int32_t> outputs) {
  Subgraph subgraph;
  for (size_t t = 0; t < tensors; ++t) subgraph.tensors.push_back(Tensor{});
  for (Node& node : nodes) subgraph.nodes.push_back(std::move(node));
  subgraph.inputs = std::move(inputs);
  subgraph.outputs = std::move(outputs);
  return subgraph;
}

// subgraph 0: y = IF(cond, x) calling subgraphs 1 (then) and 2 (else), each b = ADD(a, a).
Model IfModel(int32_t else_subgraph = 2) {
  Node if_node = Op("IF", {0, 1}, {2});
  if_node.options.Mutable().then_subgraph = 1;
  if_node.options.Mutable().else_subgraph = else_subgraph;
  Model model;
  model.subgraphs.push_back(Graph(3, {if_node}, {0, 1}, {2}));
  model.subgraphs.push_back(Graph(2, {Op("ADD", {0, 0}, {1})}, {0}, {1}));
  model.subgraphs.push_back(Graph(2, {Op("ADD", {0, 0}, {1})}, {0}, {1}));
  return model;
}

TEST(TflmLifetimes, OneScopePerNodeInASingleSubgraph) {
  Model model;
  model.subgraphs.push_back(Graph(3, {Op("RELU", {0}, {1}), Op("RELU", {1}, {2})}, {0}, {2}));
  auto lifetimes = MarkAllocationLifetimes(model, {{0, 1, 64}});
  ASSERT_TRUE(lifetimes.ok()) << lifetimes.status().message();
  const auto& t = lifetimes.value().tensors[0];
  EXPECT_EQ(t[0].first, 0);
  EXPECT_EQ(t[0].last, 1);
  EXPECT_EQ(t[1].first, 1);
  EXPECT_EQ(t[1].last, 2);
  EXPECT_EQ(t[2].first, 2);
  EXPECT_EQ(t[2].last, 2);
  EXPECT_EQ(lifetimes.value().scratch[0].first, 2);
  EXPECT_EQ(lifetimes.value().scratch[0].last, 2);
}

// The IF node is scope 1; then opens scope 2 (its node: 3), else scope 4 (its node: 5); the IF's
// tensors and scratch buffer span them all.
TEST(TflmLifetimes, CalledSubgraphsLiveInsideTheCallingNode) {
  auto lifetimes = MarkAllocationLifetimes(IfModel(), {{0, 0, 16}});
  ASSERT_TRUE(lifetimes.ok()) << lifetimes.status().message();
  const AllocationLifetimes& l = lifetimes.value();
  EXPECT_EQ(l.tensors[0][1].first, 0);
  EXPECT_EQ(l.tensors[0][1].last, 5);
  EXPECT_EQ(l.tensors[0][2].first, 1);
  EXPECT_EQ(l.tensors[1][0].first, 2);
  EXPECT_EQ(l.tensors[1][1].first, 3);
  EXPECT_EQ(l.tensors[1][1].last, 3);
  EXPECT_EQ(l.tensors[2][0].first, 4);
  EXPECT_EQ(l.tensors[2][1].last, 5);
  EXPECT_EQ(l.scratch[0].first, 1);
  EXPECT_EQ(l.scratch[0].last, 5);
}

TEST(TflmLifetimes, ASubgraphCallingItselfIsRefused) {
  Model model = IfModel();
  Node loop = Op("IF", {0, 0}, {1});
  loop.options.Mutable().then_subgraph = 2;
  loop.options.Mutable().else_subgraph = 2;
  model.subgraphs[2].nodes[0] = loop;
  auto lifetimes = MarkAllocationLifetimes(model, {});
  ASSERT_FALSE(lifetimes.ok());
  EXPECT_NE(lifetimes.status().message().find("subgraph 2 calls itself"), std::string::npos)
      << lifetimes.status().message();
}

TEST(TflmLifetimes, AMissingSubgraphIsRefused) {
  auto lifetimes = MarkAllocationLifetimes(IfModel(7), {});
  ASSERT_FALSE(lifetimes.ok());
  EXPECT_NE(lifetimes.status().message().find("calls subgraph 7, which does not exist"),
            std::string::npos);
}

}  // namespace
}  // namespace tfa::tflm
