#include "libanalysis/prepare/constant_folding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/prepare/kernel_prepare.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

// Token ids folded through GATHER then MUL (as in an LLM with constant ids), then a MEAN whose
// input is now known at Prepare, and a SHAPE, which always folds.
TEST(ConstantFoldingTest, FoldedOutputsChainAndLeaveTheArena) {
  Subgraph g;
  const int32_t table = AddConstant(g, TensorType::kFloat32, {16, 8});
  const int32_t ids = AddConstant(g, TensorType::kInt32, {4});
  const int32_t embedded = AddTensor(g, TensorType::kFloat32, {4, 8});
  const int32_t scale = AddConstant(g, TensorType::kFloat32, {1});
  const int32_t scaled = AddTensor(g, TensorType::kFloat32, {4, 8});
  const int32_t axis = AddConstant(g, TensorType::kInt32, {1});
  const int32_t mean = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t shape = AddTensor(g, TensorType::kInt32, {1});
  AddNode(g, "GATHER", {table, ids}, {embedded});
  AddNode(g, "MUL", {embedded, scale}, {scaled});
  AddNode(g, "MEAN", {scaled, axis}, {mean});
  AddNode(g, "SHAPE", {mean}, {shape});
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
  const int32_t a = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t b = AddConstant(g, TensorType::kFloat32, {4});
  const int32_t c = AddTensor(g, TensorType::kFloat32, {8});
  AddNode(g, "CONCATENATION", {a, b}, {c});
  auto effect = PrepareConstantFolding(g, g.nodes[0]);
  ASSERT_TRUE(effect.has_value());
  EXPECT_TRUE(effect->reallocated.empty());
  EXPECT_FALSE(PrepareConstantFolding(g, Node{}).has_value());
}

TEST(ConstantFoldingTest, RangeWithUnknownBoundsIsSizedAtEval) {
  Subgraph g;
  const int32_t start = AddConstant(g, TensorType::kInt32, {});
  const int32_t limit = AddTensor(g, TensorType::kInt32, {});
  const int32_t delta = AddConstant(g, TensorType::kInt32, {});
  const int32_t out = AddTensor(g, TensorType::kInt32, {4});
  AddNode(g, "RANGE", {start, limit, delta}, {out});
  auto effect = PrepareConstantFolding(g, g.nodes[0]);
  ASSERT_TRUE(effect.has_value());
  EXPECT_EQ(effect->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

}  // namespace
}  // namespace tfa
