#include "cli/run_profile.h"

#include <gtest/gtest.h>

#include "tests/support/small_graphs.h"

namespace tfa::cli {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

const std::vector<runtime::NodeTiming> kTimings = {
    {0, "CONV_2D", 3000}, {1, "ADD", 500}, {2, "CONV_2D", 1000}, {3, "RESHAPE", 500}};

// Node 0: an int8 CONV_2D of 64 output pixels (gemmlowp); 1: an int8 ADD (a reference loop);
// 2, 3: float.
Subgraph ProfiledGraph() {
  constexpr TensorType kI8 = TensorType::kInt8, kF32 = TensorType::kFloat32;
  Subgraph g;
  const int32_t q = AddTensor(g, kI8, {1, 8, 8, 4});
  const int32_t q_out = AddTensor(g, kI8, {1, 8, 8, 4});
  AddNode(g, "CONV_2D", {q, AddConstant(g, kI8, {4, 1, 1, 4}), -1}, {q_out});
  AddNode(g, "ADD", {q_out, q_out}, {AddTensor(g, kI8, {1, 8, 8, 4})});
  const int32_t f = AddTensor(g, kF32, {1, 8, 8, 4});
  const int32_t f_out = AddTensor(g, kF32, {1, 8, 8, 4});
  AddNode(g, "CONV_2D", {f, AddConstant(g, kF32, {4, 1, 1, 4}), -1}, {f_out});
  AddNode(g, "RESHAPE", {f_out}, {AddTensor(g, kF32, {256})});
  return g;
}

TEST(RunProfileTest, TextListsNodesSlowestFirstThenOps) {
  EXPECT_EQ(ProfileText(kTimings, ProfiledGraph()),
            "\n  profile of one Invoke: 4 nodes, 5.000 ms\n"
            "    node  op                                   ms   share  kernel (quantized nodes)\n"
            "       0  CONV_2D                           3.000   60.0%  gemmlowp\n"
            "       2  CONV_2D                           1.000   20.0%  \n"
            "       1  ADD                               0.500   10.0%  reference loop\n"
            "       3  RESHAPE                           0.500   10.0%  \n"
            "\n  op                            nodes         ms   share\n"
            "  CONV_2D                           2      4.000   80.0%\n"
            "  ADD                               1      0.500   10.0%\n"
            "  RESHAPE                           1      0.500   10.0%\n");
}

TEST(RunProfileTest, JsonKeepsRunOrderAndShares) {
  const auto j = ProfileJson(kTimings, ProfiledGraph());
  EXPECT_EQ(j["total_ms"], 5.0);
  ASSERT_EQ(j["nodes"].size(), 4u);
  EXPECT_EQ(j["nodes"][1]["node"], 1);
  EXPECT_EQ(j["nodes"][1]["op"], "ADD");
  EXPECT_EQ(j["nodes"][1]["share"], 0.1);
  EXPECT_EQ(j["nodes"][1]["kernel"], "reference loop");
  EXPECT_FALSE(j["nodes"][2].contains("kernel"));
  EXPECT_EQ(j["ops"][0]["op"], "CONV_2D");
  EXPECT_EQ(j["ops"][0]["nodes"], 2);
  EXPECT_EQ(j["ops"][0]["ms"], 4.0);
}

TEST(RunProfileTest, NoNodesHasNoShares) {
  const auto j = ProfileJson({}, Subgraph{});
  EXPECT_EQ(j["total_ms"], 0.0);
  EXPECT_TRUE(j["nodes"].empty());
}

// The kernels the runtime picks for int8 and uint8 nodes (runtime/kernels/cpu).
TEST(QuantizedKernelKind, FollowsTheRuntimesKernelChoice) {
  constexpr TensorType kU8 = TensorType::kUInt8;
  Subgraph g;
  const int32_t x = AddTensor(g, kU8, {1, 16});
  AddNode(g, "FULLY_CONNECTED", {x, AddConstant(g, kU8, {8, 16})}, {AddTensor(g, kU8, {1, 8})});
  const int32_t batch = AddTensor(g, kU8, {4, 16});
  AddNode(g, "FULLY_CONNECTED", {batch, AddConstant(g, kU8, {8, 16})}, {AddTensor(g, kU8, {4, 8})});
  const int32_t image = AddTensor(g, kU8, {1, 4, 4, 8});
  AddNode(g, "DEPTHWISE_CONV_2D", {image, AddConstant(g, kU8, {1, 3, 3, 8})},
          {AddTensor(g, kU8, {1, 4, 4, 8})});
  AddNode(g, "LOGISTIC", {x}, {AddTensor(g, kU8, {1, 16})});
  AddNode(g, "AVERAGE_POOL_2D", {image}, {AddTensor(g, kU8, {1, 2, 2, 8})});
  for (int32_t rows : {1, 4}) {
    const int32_t activation = AddTensor(g, kU8, {rows, 2});
    const int32_t state = AddTensor(g, TensorType::kInt16, {rows, 2});
    AddNode(g, "LSTM",
            {AddTensor(g, kU8, {rows, 3}), activation, AddConstant(g, kU8, {8, 5}),
             AddConstant(g, TensorType::kInt32, {8}), state},
            {AddTensor(g, kU8, {rows, 2}), AddTensor(g, TensorType::kInt16, {rows, 2}),
             AddTensor(g, kU8, {rows, 5}), AddTensor(g, TensorType::kInt16, {rows, 8})})
        .options.Mutable()
        .lstm_basic_kernel = true;
  }
  std::vector<std::string> kinds;
  for (size_t n = 0; n < g.nodes.size(); ++n) kinds.push_back(QuantizedKernelKind(g, g.nodes[n]));
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"vectorised loop", "gemmlowp", "vectorised loop", "table",
                                      "reference loop", "reference loop", "gemmlowp"}));
}

}  // namespace
}  // namespace tfa::cli
