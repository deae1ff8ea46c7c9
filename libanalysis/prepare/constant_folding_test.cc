#include "libanalysis/prepare/constant_folding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/prepare/kernel_prepare.h"

namespace tfa {
namespace {

int32_t Add(Subgraph& g, TensorType type, std::vector<int32_t> shape,
            AllocationType allocation = AllocationType::kArenaRw) {
  Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  uint64_t elements = 1;
  for (int32_t d : t.shape) elements *= static_cast<uint64_t>(d);
  t.bytes = elements * *ElementSize(type);
  t.allocation = allocation;
  g.tensors.push_back(std::move(t));
  return static_cast<int32_t>(g.tensors.size()) - 1;
}

int32_t Const(Subgraph& g, TensorType type, std::vector<int32_t> shape) {
  return Add(g, type, std::move(shape), AllocationType::kMmapRo);
}

Node& AddOp(Subgraph& g, const std::string& op, std::vector<int32_t> inputs,
            std::vector<int32_t> outputs, NodeKind kind = NodeKind::kBuiltin) {
  Node n;
  n.kind = kind;
  n.op = op;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  g.nodes.push_back(std::move(n));
  g.execution_plan.push_back(static_cast<int32_t>(g.nodes.size()) - 1);
  return g.nodes.back();
}

// Token ids folded through GATHER then MUL (as in an LLM with constant ids), then a MEAN whose
// input is now known at Prepare, and a SHAPE, which always folds.
TEST(ConstantFoldingTest, FoldedOutputsChainAndLeaveTheArena) {
  Subgraph g;
  const int32_t table = Const(g, TensorType::kFloat32, {16, 8});
  const int32_t ids = Const(g, TensorType::kInt32, {4});
  const int32_t embedded = Add(g, TensorType::kFloat32, {4, 8});
  const int32_t scale = Const(g, TensorType::kFloat32, {1});
  const int32_t scaled = Add(g, TensorType::kFloat32, {4, 8});
  const int32_t axis = Const(g, TensorType::kInt32, {1});
  const int32_t mean = Add(g, TensorType::kFloat32, {4});
  const int32_t shape = Add(g, TensorType::kInt32, {1});
  AddOp(g, "GATHER", {table, ids}, {embedded});
  AddOp(g, "MUL", {embedded, scale}, {scaled});
  AddOp(g, "MEAN", {scaled, axis}, {mean});
  AddOp(g, "SHAPE", {mean}, {shape});
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  EXPECT_EQ(p.tensors[static_cast<size_t>(embedded)].allocation, AllocationType::kPersistentRo);
  EXPECT_EQ(p.tensors[static_cast<size_t>(scaled)].allocation, AllocationType::kPersistentRo);
  EXPECT_EQ(p.tensors[static_cast<size_t>(mean)].allocation, AllocationType::kArenaRw);
  EXPECT_EQ(p.tensors[static_cast<size_t>(shape)].allocation, AllocationType::kPersistentRo);
  // MEAN's normalized dims (its fourth temporary) are sized at Prepare for a known input.
  ASSERT_EQ(p.nodes[2].temporaries.size(), 4u);
  EXPECT_EQ(p.tensors[static_cast<size_t>(p.nodes[2].temporaries[3])].allocation,
            AllocationType::kArenaRw);
}

TEST(ConstantFoldingTest, UnknownInputsKeepTheOutputInTheArena) {
  Subgraph g;
  const int32_t a = Add(g, TensorType::kFloat32, {4});
  const int32_t b = Const(g, TensorType::kFloat32, {4});
  const int32_t c = Add(g, TensorType::kFloat32, {8});
  AddOp(g, "CONCATENATION", {a, b}, {c});
  auto effect = PrepareConstantFolding(g, g.nodes[0]);
  ASSERT_TRUE(effect.has_value());
  EXPECT_TRUE(effect->reallocated.empty());
  EXPECT_FALSE(PrepareConstantFolding(g, Node{}).has_value());
}

TEST(ConstantFoldingTest, RangeWithUnknownBoundsIsSizedAtEval) {
  Subgraph g;
  const int32_t start = Const(g, TensorType::kInt32, {});
  const int32_t limit = Add(g, TensorType::kInt32, {});
  const int32_t delta = Const(g, TensorType::kInt32, {});
  const int32_t out = Add(g, TensorType::kInt32, {4});
  AddOp(g, "RANGE", {start, limit, delta}, {out});
  auto effect = PrepareConstantFolding(g, g.nodes[0]);
  ASSERT_TRUE(effect.has_value());
  EXPECT_EQ(effect->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

}  // namespace
}  // namespace tfa
