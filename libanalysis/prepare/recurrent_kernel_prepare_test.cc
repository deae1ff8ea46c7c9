// The recurrent kernels' Prepare (LSTM, RNN, SVDF families) through the replay, on hand-written
// nodes. Expected sizes follow upstream's kernels (tflite/kernels/*.cc) as documented in
// docs/kernel-temporaries.md: their Init reserves the tensors right after the model's own.
#include "libanalysis/prepare/recurrent_kernel_prepare.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "libanalysis/prepare/kernel_prepare.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

std::vector<uint64_t> Bytes(const Subgraph& g, std::span<const int32_t> tensors) {
  std::vector<uint64_t> bytes;
  for (int32_t t : tensors) bytes.push_back(g.tensors[static_cast<size_t>(t)].bytes_or_zero());
  return bytes;
}

// RNN: input [2,8], weights [16,8] and [16,16] of `weights`, bias [16], hidden state [2,16].
Subgraph Rnn(TensorType weights) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {2, 8});
  const int32_t w = AddConstant(g, weights, {16, 8});
  const int32_t rw = AddConstant(g, weights, {16, 16});
  const int32_t bias = AddConstant(g, TensorType::kFloat32, {16});
  const int32_t state =
      AddTensor(g, TensorType::kFloat32, {2, 16}, AllocationType::kArenaRwPersistent);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {2, 16});
  AddNode(g, "RNN", {in, w, rw, bias, state}, {out});
  return g;
}

TEST(RecurrentKernelPrepareTest, HybridRnnSizesItsSixInitTensors) {
  auto prepared = ReplayKernelPrepare(Rnn(TensorType::kInt8));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.tensors.size(), 12u);
  EXPECT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{6, 7, 8, 9, 10, 11}));
  // int8 input and hidden state, scaling factors, accumulators [16,2], zero points, row sums.
  EXPECT_EQ(Bytes(p, p.nodes[0].temporaries), (std::vector<uint64_t>{16, 32, 8, 128, 8, 128}));
  EXPECT_EQ(p.tensors[11].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_TRUE(prepared->assumptions.empty());
}

TEST(RecurrentKernelPrepareTest, FloatRnnLeavesItsInitTensorsSpare) {
  auto prepared = ReplayKernelPrepare(Rnn(TensorType::kFloat32));
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->subgraph.tensors.size(), 12u);
  EXPECT_TRUE(prepared->subgraph.nodes[0].temporaries.empty());
}

TEST(RecurrentKernelPrepareTest, InitTensorsComeBeforeTensorsAddedInPrepare) {
  Subgraph g = Rnn(TensorType::kInt8);
  // A float FULLY_CONNECTED before the RNN adds its six spares only in Prepare.
  const int32_t fc_in = AddTensor(g, TensorType::kFloat32, {2, 4});
  const int32_t fc_w = AddConstant(g, TensorType::kFloat32, {8, 4});
  g.nodes.insert(g.nodes.begin(), Node{});
  g.nodes[0].op = "FULLY_CONNECTED";
  g.nodes[0].inputs = {fc_in, fc_w};
  g.nodes[0].outputs = {0};
  g.execution_plan = {0, 1};
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.tensors.size(), 8u + 6 + 6);
  EXPECT_EQ(p.nodes[1].temporaries, (std::vector<int32_t>{8, 9, 10, 11, 12, 13}));
}

// SVDF rank 4: input [2,10], feature weights [12,10], time weights [12,4], state [2,48].
Subgraph Svdf(TensorType input_type, TensorType weights) {
  Subgraph g;
  const int32_t in = AddTensor(g, input_type, {2, 10});
  const int32_t wf = AddConstant(g, weights, {12, 10});
  const int32_t wt = AddConstant(g, weights, {12, 4});
  const int32_t state = AddTensor(g, input_type, {2, 48}, AllocationType::kArenaRwPersistent);
  const int32_t out = AddTensor(g, input_type, {2, 3});
  AddNode(g, "SVDF", {in, wf, wt, -1, state}, {out}).options.Mutable().svdf_rank = 4;
  return g;
}

TEST(RecurrentKernelPrepareTest, HybridSvdfKeepsDequantizedTimeWeightsAndRowSumsPersistent) {
  auto prepared = ReplayKernelPrepare(Svdf(TensorType::kFloat32, TensorType::kInt8));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{5, 6, 7, 8, 9, 10}));
  // scratch [2,12] f32, int8 input, scaling factors, float time weights, zero points, row sums.
  EXPECT_EQ(Bytes(p, p.nodes[0].temporaries), (std::vector<uint64_t>{96, 20, 8, 192, 8, 48}));
  EXPECT_EQ(p.tensors[8].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(p.tensors[10].allocation, AllocationType::kArenaRwPersistent);
}

TEST(RecurrentKernelPrepareTest, IntegerSvdfAddsAnInt32OutputBuffer) {
  auto prepared = ReplayKernelPrepare(Svdf(TensorType::kInt8, TensorType::kInt8));
  ASSERT_TRUE(prepared.ok());
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{5, 6}));
  EXPECT_EQ(p.tensors[5].type, TensorType::kInt32);
  EXPECT_EQ(p.tensors[6].shape, (std::vector<int32_t>{3, 2}));
  EXPECT_EQ(p.tensors.size(), 11u);
}

TEST(RecurrentKernelPrepareTest, SvdfRankMustDivideTheFilters) {
  Subgraph g = Svdf(TensorType::kFloat32, TensorType::kFloat32);
  g.nodes[0].options.Mutable().svdf_rank = 5;
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("SVDF: rank must"), std::string::npos);
}

// svdf_quantized (upstream's converter test data) has a [1,9] state for 6 filters of memory 7:
// upstream's Prepare refuses it, so AllocateTensors fails.
TEST(RecurrentKernelPrepareTest, SvdfStateMustHoldMemorySizeTimesFilters) {
  Subgraph g = Svdf(TensorType::kFloat32, TensorType::kFloat32);
  g.tensors[3].shape = {2, 47};
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("the state must be [2, 48]"), std::string::npos)
      << prepared.status().message();
}

// A full-layout LSTM (20 inputs) with 8 cells, no input gate (CIFG), batch 2, 4 inputs.
Subgraph Lstm(const std::string& op, TensorType input_type, std::vector<int32_t> input_shape) {
  Subgraph g;
  std::vector<int32_t> inputs(20, -1);
  inputs[0] = AddTensor(g, input_type, std::move(input_shape));
  for (int i : {2, 3, 4})
    inputs[static_cast<size_t>(i)] = AddConstant(g, TensorType::kFloat32, {8, 4});
  for (int i : {6, 7, 8})
    inputs[static_cast<size_t>(i)] = AddConstant(g, TensorType::kFloat32, {8, 8});
  for (int i : {13, 14, 15})
    inputs[static_cast<size_t>(i)] = AddConstant(g, TensorType::kFloat32, {8});
  inputs[18] = AddTensor(g, input_type, {2, 8}, AllocationType::kArenaRwPersistent);
  inputs[19] = AddTensor(g, input_type, {2, 8}, AllocationType::kArenaRwPersistent);
  const int32_t out = AddTensor(g, input_type, {2, 8});
  AddNode(g, op, inputs, {out});
  return g;
}

TEST(RecurrentKernelPrepareTest, FloatLstmHasOneUnpaddedScratchAmongTwentyOneInitTensors) {
  auto prepared = ReplayKernelPrepare(Lstm("LSTM", TensorType::kFloat32, {2, 4}));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  EXPECT_EQ(p.tensors.size(), 13u + 21);
  ASSERT_EQ(p.nodes[0].temporaries, std::vector<int32_t>{13});
  EXPECT_EQ(p.tensors[13].shape, (std::vector<int32_t>{2, 32}));  // 4 gates x 8 cells
}

TEST(RecurrentKernelPrepareTest, SequenceLstmScratchIsPaddedBySixteen) {
  auto prepared =
      ReplayKernelPrepare(Lstm("UNIDIRECTIONAL_SEQUENCE_LSTM", TensorType::kFloat32, {2, 5, 4}));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  EXPECT_EQ(p.tensors.size(), 13u + 12);
  ASSERT_EQ(p.nodes[0].temporaries, std::vector<int32_t>{13});
  EXPECT_EQ(p.tensors[13].shape, (std::vector<int32_t>{2, 48}));
}

TEST(RecurrentKernelPrepareTest, IntegerSequenceLstmHasSixGateBuffers) {
  Subgraph g = Lstm("UNIDIRECTIONAL_SEQUENCE_LSTM", TensorType::kInt8, {2, 5, 4});
  g.nodes[0].options.Mutable().time_major = true;  // batch is then dimension 1
  g.tensors[0].shape = {5, 2, 4};
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{13, 14, 15, 16, 17, 18}));
  EXPECT_EQ(Bytes(p, p.nodes[0].temporaries),
            (std::vector<uint64_t>{32, 32, 32, 32, 16, 64}));  // int16 x4, int8, int32 [2,8]
}

TEST(RecurrentKernelPrepareTest, BasicLstmMovesItsStatesToThePersistentArena) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 4});
  const int32_t prev_activation = AddTensor(g, TensorType::kFloat32, {1, 8});
  const int32_t weights = AddConstant(g, TensorType::kFloat32, {32, 12});
  const int32_t bias = AddConstant(g, TensorType::kFloat32, {32});
  const int32_t prev_state = AddTensor(g, TensorType::kFloat32, {1, 8});
  std::vector<int32_t> outs;
  for (std::vector<int32_t> shape : {std::vector<int32_t>{1, 8}, {1, 8}, {1, 12}, {1, 32}}) {
    outs.push_back(AddTensor(g, TensorType::kFloat32, shape));
  }
  AddNode(g, "LSTM", {in, prev_activation, weights, bias, prev_state}, outs)
      .options.Mutable()
      .lstm_basic_kernel = true;
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  EXPECT_EQ(prepared->subgraph.tensors.size(), g.tensors.size());
  EXPECT_EQ(prepared->subgraph.tensors[1].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(prepared->subgraph.tensors[4].allocation, AllocationType::kArenaRwPersistent);
}

TEST(RecurrentKernelPrepareTest, LstmWithTheWrongInputCountIsRefused) {
  Subgraph g = Lstm("LSTM", TensorType::kFloat32, {2, 4});
  g.nodes[0].inputs.pop_back();
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.status().message(), "node 0: LSTM: expects 20 or 24 inputs, got 19");
}

// lstm.cc reads the projection weights' sparsity without checking that they exist.
TEST(RecurrentKernelPrepareTest, SparseHybridLstmWithoutProjectionIsRefused) {
  Subgraph g = Lstm("LSTM", TensorType::kFloat32, {2, 4});
  for (size_t weights = 1; weights <= 6; ++weights) g.tensors[weights].type = TensorType::kInt8;
  g.tensors[3].is_sparse = true;  // the input-to-output weights
  g.tensors[3].sparse_ledger_bytes = 16;
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.status().message(),
            "node 0: LSTM: sparse hybrid weights need projection weights (upstream's "
            "Prepare reads them unchecked)");
}

TEST(RecurrentKernelPrepareTest, BidirectionalLstmPadsOnlyTheForwardScratch) {
  Subgraph g;
  std::vector<int32_t> inputs(48, -1);
  inputs[0] = AddTensor(g, TensorType::kFloat32, {3, 2, 4});  // time-major by default upstream
  for (int base : {0, 17}) {
    for (int i : {2, 3, 4})
      inputs[static_cast<size_t>(base + i)] = AddConstant(g, TensorType::kFloat32, {8, 4});
    for (int i : {6, 7, 8})
      inputs[static_cast<size_t>(base + i)] = AddConstant(g, TensorType::kFloat32, {8, 8});
  }
  for (int i : {35, 36, 37, 38}) {
    inputs[static_cast<size_t>(i)] =
        AddTensor(g, TensorType::kFloat32, {2, 8}, AllocationType::kArenaRwPersistent);
  }
  const int32_t out = AddTensor(g, TensorType::kFloat32, {3, 2, 16});
  Node& node = AddNode(g, "BIDIRECTIONAL_SEQUENCE_LSTM", inputs, {out});
  node.options.Mutable().time_major = true;
  node.options.Mutable().merge_outputs = true;
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  const auto first = static_cast<int32_t>(g.tensors.size());
  EXPECT_EQ(p.tensors.size(), g.tensors.size() + 19);
  ASSERT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{first, first + 1}));
  EXPECT_EQ(p.tensors[static_cast<size_t>(first)].shape, (std::vector<int32_t>{2, 48}));
  EXPECT_EQ(p.tensors[static_cast<size_t>(first) + 1].shape, (std::vector<int32_t>{2, 32}));
}

TEST(RecurrentKernelPrepareTest, HybridBidirectionalRnnWithoutAuxInputUsesEightOfNine) {
  Subgraph g;
  std::vector<int32_t> inputs(12, -1);
  inputs[0] = AddTensor(g, TensorType::kFloat32, {2, 3, 4});  // batch-major: batch 2
  inputs[1] = AddConstant(g, TensorType::kInt8, {6, 4});
  inputs[2] = AddConstant(g, TensorType::kInt8, {6, 6});
  inputs[3] = AddConstant(g, TensorType::kFloat32, {6});
  inputs[4] = AddTensor(g, TensorType::kFloat32, {2, 6}, AllocationType::kArenaRwPersistent);
  inputs[5] = AddConstant(g, TensorType::kInt8, {10, 4});
  inputs[6] = AddConstant(g, TensorType::kInt8, {10, 10});
  inputs[7] = AddConstant(g, TensorType::kFloat32, {10});
  inputs[8] = AddTensor(g, TensorType::kFloat32, {2, 10}, AllocationType::kArenaRwPersistent);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {2, 3, 16});
  AddNode(g, "BIDIRECTIONAL_SEQUENCE_RNN", inputs, {out}).options.Mutable().merge_outputs = true;
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& p = prepared->subgraph;
  EXPECT_EQ(p.tensors.size(), 10u + 9);
  ASSERT_EQ(p.nodes[0].temporaries.size(), 8u);
  // int8 input, both hidden states, scaling factors, accumulators [10,2], zero points, row sums
  // [2,6] and [2,10].
  EXPECT_EQ(Bytes(p, p.nodes[0].temporaries),
            (std::vector<uint64_t>{24, 12, 20, 8, 80, 8, 48, 80}));
}

}  // namespace
}  // namespace tfa
