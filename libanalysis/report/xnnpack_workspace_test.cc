#include "libanalysis/report/xnnpack_workspace.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/profiles/delegate_selection.h"
#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

using testing::RuleTestGraph;

constexpr TensorType kF32 = TensorType::kFloat32;

// XNNPACK's memory planner tests (test/memory-planner-test.cc) rebuilt as TFLite graphs: a
// 1x3x3x3 float tensor is 108 bytes, 112 rounded to 16; a runtime needs 32 bytes more.
class XnnpackWorkspaceTest : public ::testing::Test {
 protected:
  int32_t Activation() { return g.Tensor(kF32, {1, 3, 3, 3}); }
  // A VALID 3x3 convolution of a 1x5x5x3 input (made here, a graph input) or of `input`.
  int32_t Conv(int32_t input = -1, Padding padding = Padding::kValid) {
    if (input < 0) input = g.Tensor(kF32, {1, 5, 5, 3});
    const int32_t out = Activation();
    Node& conv =
        g.Op("CONV_2D", {{input, g.Constant(kF32, {3, 3, 3, 3}), g.Constant(kF32, {3})}, {out}});
    conv.options.Mutable().padding = padding;
    return out;
  }
  int32_t Unary(const std::string& op, int32_t input) {
    const int32_t out = Activation();
    g.Op(op, {{input}, {out}}).options.Mutable().alpha = 0.5f;  // LEAKY_RELU's slope
    return out;
  }
  XnnpackWorkspace Plan(const XnnpackPlannerRules& rules = {}) {
    auto profile = ResolveDelegateProfile("xnnpack");
    EXPECT_TRUE(profile.ok());
    auto selection = SelectDelegateNodes(g.subgraph(), *profile);
    EXPECT_TRUE(selection.ok());
    auto delegated = ApplyDelegateSelection(g.subgraph(), *profile, *selection);
    EXPECT_TRUE(delegated.ok());
    auto workspace = PlanXnnpackWorkspace(delegated->subgraph, "xnnpack", rules);
    EXPECT_TRUE(workspace.ok()) << workspace.status().message();
    return workspace.ok() ? *workspace : XnnpackWorkspace{};
  }

  RuleTestGraph g;
};

TEST_F(XnnpackWorkspaceTest, LeakyReluInPlaceAfterConv) {
  Unary("RELU", Unary("LEAKY_RELU", Conv()));
  const XnnpackWorkspace w = Plan();
  ASSERT_EQ(w.runtimes.size(), 1u);
  EXPECT_EQ(w.runtimes[0].planned_values, 2u);
  EXPECT_EQ(w.runtimes[0].in_place_values, 1u);
  EXPECT_EQ(w.runtimes[0].arena_bytes, 112u);
  EXPECT_EQ(w.bytes, 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, LeakyReluWithTwoConsumersCannotBeInPlace) {
  const int32_t leaky = Unary("LEAKY_RELU", Conv());
  Unary("RELU", leaky);
  Unary("RELU6", leaky);
  EXPECT_EQ(Plan().bytes, 112u + 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, ExternalInputsCannotBeInPlace) {
  Unary("RELU", Unary("LEAKY_RELU", Activation()));
  EXPECT_EQ(Plan().bytes, 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, AClampAfterAConvolutionIsFused) {
  Conv(Unary("RELU6", Conv()));
  const XnnpackWorkspace w = Plan();
  ASSERT_EQ(w.runtimes.size(), 1u);
  EXPECT_EQ(w.runtimes[0].fused_nodes, 1u);
  EXPECT_EQ(w.runtimes[0].planned_values, 1u);
  EXPECT_EQ(w.bytes, 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, ASpatialZeroPadIsFusedIntoAValidConvolutionOnly) {
  for (Padding padding : {Padding::kValid, Padding::kSame}) {
    g = RuleTestGraph();
    const int32_t first = Conv(g.Tensor(kF32, {1, 3, 3, 3}), Padding::kSame);
    const int32_t padded = g.Tensor(kF32, {1, 5, 5, 3});  // 300 bytes, 304 rounded
    g.Op("PAD",
         {{first, g.Values(TensorType::kInt32, {4, 2}, {0, 0, 1, 1, 1, 1, 0, 0})}, {padded}});
    Conv(padded, padding);
    const XnnpackWorkspace w = Plan();
    ASSERT_EQ(w.runtimes.size(), 1u);
    EXPECT_EQ(w.runtimes[0].fused_nodes, padding == Padding::kValid ? 1u : 0u);
    EXPECT_EQ(w.bytes, (padding == Padding::kValid ? 112u : 112u + 304u) + 32u);
  }
}

TEST_F(XnnpackWorkspaceTest, PartitionsShareOneWorkspaceOfTheLargestNeed) {
  // A custom op XNNPACK does not take splits the graph in two partitions: one with two internal
  // values alive together, one with one.
  const int32_t a = Conv();
  const int32_t b = Unary("LEAKY_RELU", a);
  const int32_t sum = Activation();
  g.Op("ADD", {{a, b}, {sum}});
  const int32_t custom = Activation();
  g.Custom("NotForXnnpack", {{sum}, {custom}});
  Unary("RELU", Unary("LEAKY_RELU", Conv(custom)));
  const XnnpackWorkspace w = Plan();
  ASSERT_EQ(w.runtimes.size(), 2u);
  EXPECT_EQ(w.runtimes[0].workspace_bytes, 112u + 112u + 32u);
  EXPECT_EQ(w.runtimes[1].workspace_bytes, 112u + 32u);
  EXPECT_EQ(w.bytes, 112u + 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, AChainOfUnaryNodesAsDebiansXnnpackAllocatesIt) {
  // Six ABS nodes over 1x100x100x10 floats (400000 bytes): five internal values in a chain. Each
  // overlaps only its neighbours, yet never goes below the one live block it overlaps, so
  // without in-place outputs the arena grows by one value per node. Measured on Debian's
  // libXNNPACK 0.0~git20220216 with a counting xnn_allocator: a 2000016-byte workspace.
  int32_t value = g.Tensor(kF32, {1, 100, 100, 10});
  for (int i = 0; i < 6; ++i) {
    const int32_t next = g.Tensor(kF32, {1, 100, 100, 10});
    g.Op("ABS", {{value}, {next}});
    value = next;
  }
  EXPECT_EQ(Plan(kXnnpackDebian2022Rules).bytes, 2000016u);
  // Today's XNNPACK writes each ABS over its input: one value.
  EXPECT_EQ(Plan().bytes, 400000u + 32u);
}

// call_once_mul's variable subgraph: the delegate takes VAR_HANDLE with the ASSIGN_VARIABLE of its
// resource. The resource tensor between them is a handle, no workspace value; the value assigned
// is one.
TEST_F(XnnpackWorkspaceTest, AResourceTensorTakesNoWorkspace) {
  const int32_t resource = g.Tensor(TensorType::kResource, {});
  g.Op("VAR_HANDLE", {{}, {resource}});
  g.Op("ASSIGN_VARIABLE", {{resource, Unary("ABS", Activation())}, {}});
  const XnnpackWorkspace w = Plan();
  ASSERT_EQ(w.runtimes.size(), 1u);
  EXPECT_EQ(w.runtimes[0].planned_values, 1u);
  EXPECT_EQ(w.bytes, 112u + 32u);
}

TEST_F(XnnpackWorkspaceTest, APartitionWithoutInternalValuesNeedsNone) {
  Conv();
  EXPECT_EQ(Plan().bytes, 0u);
}

}  // namespace
}  // namespace tfa
