// The family miniatures' memory after AllocateTensors, written to .tflite and read back: the
// kernels' Prepare effects sized by upstream's rules (tflite/kernels/*.cc) and planned by
// upstream's ArenaPlanner. Every expected figure is worked out by hand in the comment above it:
// 64-byte alignment; tensors live the whole run (graph inputs and outputs, variables) placed
// first, by index, then the others by size, largest first (equal sizes in an order the figures
// do not depend on); persistent tensors in the same order on top of each other, zero-byte ones
// taking no room.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "corpus/generator/family_models.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/model_plan.h"

namespace tfa {
namespace {

// The main subgraph's memory with no delegate.
SubgraphMemory Planned(const SyntheticModel& built) {
  auto parsed = ParseTflite(WriteTflite(built.model, built.data), built.model.path);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  if (!parsed.ok()) return {};
  auto plan = PlanModel(*parsed, PlanOptions{});
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  if (!plan.ok() || !plan->subgraphs[0].memory) return {};
  return *plan->subgraphs[0].memory;
}

uint64_t Offset(const SubgraphMemory& memory, size_t tensor) {
  EXPECT_LT(tensor, memory.plan.tensors.size());
  if (tensor >= memory.plan.tensors.size()) return 0;
  return memory.plan.tensors[tensor].offset;
}

// fully_connected.cc, hybrid with sparse weights: model tensors input 0 [2, 8] f32 (64 B),
// weights 1 (sparse, 4 rows of 2 non-zeros), bias 2, output 3 [2, 4] f32 (32 B); Prepare adds
// 4 int8 input [2, 8] (16), 5 scaling factors [2] f32 (8), 6 accumulators [4, 2] i32 (32),
// 7 input offsets [2] i32 (8), 8 row sums [4] i32 persistent (16), 9 the ledger: uint8
// persistent, dim_metadata[1] indices 8 + segments 5 - 1 = 12 bytes.
// Arena: input 0 @0 and output 3 @64 (whole run); then accumulators 6 (32) @128, 4 (16) @192,
// the 8-byte 5 and 7 @256 and @320: 328. Persistent: row sums 8 @0, ledger 9 @64: 64 + 12 = 76.
TEST(FamilyMemoryTest, SparseHybridFullyConnectedSizesItsLedger) {
  const SubgraphMemory memory = Planned(SparseHybridFullyConnected());
  ASSERT_TRUE(memory.planned);
  EXPECT_TRUE(memory.assumptions.empty());
  ASSERT_EQ(memory.prepared->tensors.size(), 10u);
  EXPECT_EQ(memory.prepared->tensors[9].bytes, 12u);
  EXPECT_EQ(memory.prepared->tensors[9].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(memory.plan.arena_size, 328u);
  EXPECT_EQ(memory.plan.persistent_arena_size, 76u);
  EXPECT_EQ(Offset(memory, 0), 0u);
  EXPECT_EQ(Offset(memory, 3), 64u);
  EXPECT_EQ(Offset(memory, 6), 128u);
  EXPECT_EQ(Offset(memory, 4), 192u);
  EXPECT_EQ(Offset(memory, 8), 0u);
  EXPECT_EQ(Offset(memory, 9), 64u);
}

// lstm.cc, hybrid with sparse input-to-output weights: model tensors input 0 [1, 4] f32 (16 B),
// input weights 1-4 (sparse, 4 rows of 1 non-zero), recurrent weights 5-8 (dense), biases 9-12,
// projection 13 (sparse, 2 rows of 2 non-zeros), output state 14 [1, 2] f32 (8, variable), cell
// state 15 [1, 4] f32 (16, variable), output 16 [1, 2] f32 (8 B). Init reserves 17-37; Prepare
// sizes 17 scratch [1, 4 x 5] f32 (80), 18 int8 input (4), 19 int8 output state (2), 20 int8
// cell state (4), 21-23 [1] f32 (4 each), 24 cell weights [4] f32 (16), 25 accumulators [4, 1]
// i32 (16), 26-27 [1] f32 (4 each), 28 row sums [8 + ceil(2 / 4), 4] i32 persistent (144), and
// the nine ledgers 29-37, persistent uint8: input weights 4 + 5 - 1 = 8 each (29-32), the dense
// recurrent weights' unsized (33-36), projection 4 + 3 - 1 = 6 (37).
// Arena: input 0 @0 and output 16 @64 (whole run); scratch 17 (80) @128; the two 16-byte
// temporaries @256, @320; the seven 4-byte ones @384 ... @768; int8 output state 19 (2) @832: 834.
// Persistent: the variable states 14 @0 and 15 @64 (whole run), row sums 28 @128, the 8-byte
// ledgers 29-32 at 320, 384, 448 and 512, the 6-byte projection ledger 37 @576: 582.
TEST(FamilyMemoryTest, SparseHybridLstmSizesItsNineLedgers) {
  const SubgraphMemory memory = Planned(SparseHybridLstm());
  ASSERT_TRUE(memory.planned);
  EXPECT_TRUE(memory.assumptions.empty());
  ASSERT_EQ(memory.prepared->tensors.size(), 38u);
  EXPECT_EQ(memory.prepared->nodes[0].temporaries.size(), 21u);
  EXPECT_EQ(memory.prepared->tensors[33].bytes, 0u);
  EXPECT_EQ(memory.prepared->tensors[37].bytes, 6u);
  EXPECT_EQ(memory.plan.arena_size, 834u);
  EXPECT_EQ(memory.plan.persistent_arena_size, 582u);
  EXPECT_EQ(Offset(memory, 0), 0u);
  EXPECT_EQ(Offset(memory, 16), 64u);
  EXPECT_EQ(Offset(memory, 17), 128u);
  EXPECT_EQ(Offset(memory, 19), 832u);
  EXPECT_EQ(Offset(memory, 14), 0u);
  EXPECT_EQ(Offset(memory, 15), 64u);
  EXPECT_EQ(Offset(memory, 28), 128u);
  std::set<uint64_t> ledger_offsets;
  for (size_t ledger = 29; ledger <= 32; ++ledger) ledger_offsets.insert(Offset(memory, ledger));
  EXPECT_EQ(ledger_offsets, (std::set<uint64_t>{320, 384, 448, 512}));
  EXPECT_EQ(Offset(memory, 37), 576u);
}

// The bytes of `node`'s temporaries, in order, in the main subgraph of `memory`.
std::vector<uint64_t> TemporaryBytes(const SubgraphMemory& memory, const std::string& op) {
  std::vector<uint64_t> bytes;
  for (const Node& node : memory.prepared->nodes) {
    if (node.op != op) continue;
    for (int32_t t : node.temporaries) {
      bytes.push_back(memory.prepared->tensors[static_cast<size_t>(t)].bytes_or_zero());
    }
    return bytes;
  }
  ADD_FAILURE() << "no " << op;
  return bytes;
}

// conv.cc, 16x8: im2col of the int16 input, [1, 4, 4, 3 x 3 x 3] int16 = 864 bytes;
// fully_connected.cc: not hybrid, so no temporaries.
TEST(FamilyMemoryTest, Int16x8ConvHasAnInt16Im2col) {
  const SubgraphMemory memory = Planned(Int16x8ConvFullyConnected());
  EXPECT_EQ(TemporaryBytes(memory, "CONV_2D"), (std::vector<uint64_t>{864}));
  EXPECT_TRUE(TemporaryBytes(memory, "FULLY_CONNECTED").empty());
  EXPECT_TRUE(memory.assumptions.empty());
}

// fully_connected.cc, hybrid, input [4, 8], weights [6, 8] (batch 4): int8 input 32, scaling
// factors [4] 16, accumulators [6, 4] 96, offsets [4] 16, row sums [6] 24.
// batch_matmul.cc, LHS [1, 4, 6] float, constant int8 RHS [1, 6, 5]: LHS transposed [1, 6, 4] f32
// 96, RHS transposed [1, 5, 6] int8 30, int8 LHS 24, scaling factors [4] 16, accumulators [5, 4]
// 80, offsets [4] 16, row sums [5] 20.
TEST(FamilyMemoryTest, HybridFullyConnectedAndBatchMatMulQuantizeTheirInputs) {
  const SubgraphMemory memory = Planned(HybridFullyConnectedBatchMatMul());
  EXPECT_EQ(TemporaryBytes(memory, "FULLY_CONNECTED"), (std::vector<uint64_t>{32, 16, 96, 16, 24}));
  EXPECT_EQ(TemporaryBytes(memory, "BATCH_MATMUL"),
            (std::vector<uint64_t>{96, 30, 24, 16, 80, 16, 20}));
  EXPECT_TRUE(memory.assumptions.empty());
}

// unidirectional_sequence_lstm.cc, hybrid, batch 1, 6 cells with an input gate: scratch
// [1, 6 x 5 + 16] f32 184, int8 input [1, 5, 4] 20, int8 states [1, 6] 6 and 6, three scaling
// factor vectors [1] 4 each, cell weights [6] 24, accumulators [6, 1] 24, two zero point vectors
// [1] 4 each, row sums [8, 6] int32 192.
TEST(FamilyMemoryTest, HybridLstmSizesItsTwelveTemporaries) {
  const SubgraphMemory memory = Planned(HybridLstm());
  EXPECT_EQ(TemporaryBytes(memory, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
            (std::vector<uint64_t>{184, 20, 6, 6, 4, 4, 4, 24, 24, 4, 4, 192}));
}

// detection_postprocess.cc: decoded boxes [16, 4] f32 256 and scores [16, 3] f32 192; the
// outputs from the options (10 detections x 1 class): [1, 10, 4] 160, [1, 10] 40 twice, [1] 4.
TEST(FamilyMemoryTest, SsdPostProcessSizesOutputsFromItsOptions) {
  const SubgraphMemory memory = Planned(SsdPostProcessFloat());
  EXPECT_EQ(TemporaryBytes(memory, "TFLite_Detection_PostProcess"),
            (std::vector<uint64_t>{256, 192}));
  std::vector<uint64_t> output_bytes;
  for (int32_t t : memory.prepared->outputs) {
    output_bytes.push_back(memory.prepared->tensors[static_cast<size_t>(t)].bytes_or_zero());
  }
  EXPECT_EQ(output_bytes, (std::vector<uint64_t>{160, 40, 40, 4}));
  EXPECT_TRUE(memory.assumptions.empty());
}

// reduce.cc with an axis unknown at Prepare: the MEAN output 2 is dynamic, so
// PrepareOpsStartingAt stops after node 0 and only its tensors are planned: input 0 [1, 4, 4]
// f32 (64), axis 1 [1] i32 (4), the index temporary [3] i32 (12); resolved axes, accumulator,
// normalized dims (input unknown at Prepare) and the output are dynamic; the ADD's output waits
// for the first Invoke. Graph inputs live the whole run: input @0, axis @64, then the index @128:
// 140. The first Invoke then needs the run shapes.
TEST(FamilyMemoryTest, AnOutputMadeDynamicInPrepareStopsThePlanning) {
  auto parsed = ParseTflite(WriteTflite(RuntimeAxisMeanFloat().model, RuntimeAxisMeanFloat().data),
                            "runtime_axis_mean_float.tflite");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto plan = PlanModel(*parsed, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphMemory& memory = *plan->subgraphs[0].memory;
  EXPECT_EQ(memory.planning_stops_at, 0);
  EXPECT_EQ(memory.prepared->tensors[2].allocation, AllocationType::kDynamic);
  EXPECT_EQ(memory.plan.arena_size, 140u);
  EXPECT_EQ(memory.plan.tensors[4].arena, ArenaKind::kNone);  // the ADD's output
  EXPECT_EQ(Offset(memory, 0), 0u);
  EXPECT_EQ(Offset(memory, 1), 64u);
  ASSERT_TRUE(plan->invoke.has_value());
  ASSERT_TRUE(plan->invoke->undetermined.has_value());
  EXPECT_EQ(plan->invoke->undetermined->kind, MissingFact::Kind::kRunShapes);
}

}  // namespace
}  // namespace tfa
