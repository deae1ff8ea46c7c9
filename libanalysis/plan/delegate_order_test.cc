#include "libanalysis/plan/delegate_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/plan/delegate_request.h"

namespace tfa {
namespace {

DelegateProfile Profile(const std::string& spec) {
  auto profile = ResolveDelegateSpec(spec);
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  return profile.ok() ? std::move(profile).value() : DelegateProfile{};
}

Model OneNodeModel(NodeKind kind, const std::string& op) {
  Node node;
  node.kind = kind;
  node.op = op;
  Subgraph subgraph;
  subgraph.nodes.push_back(std::move(node));
  Model model;
  model.subgraphs.push_back(std::move(subgraph));
  return model;
}

std::vector<std::string> Names(const DelegateOrder& order) {
  std::vector<std::string> names;
  for (const DelegateProfile& p : order.applied) names.push_back(p.name);
  return names;
}

TEST(DelegateOrderTest, TheUsersDelegatesKeepTheirOrder) {
  const DelegateOrder order = OrderDelegatesAsInterpreter(OneNodeModel(NodeKind::kBuiltin, "ADD"),
                                                          {Profile("xnnpack"), Profile("gpu")});
  EXPECT_EQ(Names(order), (std::vector<std::string>{"xnnpack", "gpu"}));
  EXPECT_TRUE(order.notes.empty());
}

TEST(DelegateOrderTest, TheFlexDelegateGoesFirstWhenTheModelHasAFlexOp) {
  const DelegateOrder order =
      OrderDelegatesAsInterpreter(OneNodeModel(NodeKind::kCustom, "FlexAddV2"),
                                  {Profile("gpu"), Profile("xnnpack"), Profile("flex")});
  EXPECT_EQ(Names(order), (std::vector<std::string>{"flex", "gpu", "xnnpack"}));
  EXPECT_EQ(order.notes, std::vector<std::string>{
                             "flex: applied before gpu: InterpreterBuilder applies it before "
                             "every delegate the user adds"});
}

TEST(DelegateOrderTest, AFlexDelegateAlreadyFirstNeedsNoNote) {
  const DelegateOrder order = OrderDelegatesAsInterpreter(
      OneNodeModel(NodeKind::kCustom, "FlexAddV2"), {Profile("flex"), Profile("gpu")});
  EXPECT_EQ(Names(order), (std::vector<std::string>{"flex", "gpu"}));
  EXPECT_TRUE(order.notes.empty());
}

TEST(DelegateOrderTest, TheFlexDelegateIsLeftOutWithoutFlexOps) {
  const DelegateOrder order = OrderDelegatesAsInterpreter(OneNodeModel(NodeKind::kCustom, "MyOp"),
                                                          {Profile("flex"), Profile("gpu")});
  EXPECT_EQ(Names(order), std::vector<std::string>{"gpu"});
  EXPECT_EQ(order.notes, std::vector<std::string>{
                             "flex: not applied: InterpreterBuilder applies it only to a model "
                             "with an op it takes, and this model has none"});
}

}  // namespace
}  // namespace tfa
