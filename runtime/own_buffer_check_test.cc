#include "runtime/own_buffer_check.h"

#include <gtest/gtest.h>

#include "libanalysis/model/model_loader.h"
#include "runtime/input_generator.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

Status FillSeedOne(Interpreter& interpreter) {
  FillDeterministicInputs(interpreter, 1);
  return Status::Ok();
}

// The planned run's outputs after one Invoke, copied out.
struct Outputs {
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<RuntimeTensor> tensors;
};

Outputs RunPlanned(const ModelPlan& plan) {
  Outputs out;
  auto interpreter = Interpreter::Create(plan);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  if (!interpreter.ok()) return out;
  Interpreter& run = **interpreter;
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  EXPECT_TRUE(invoked.ok()) << invoked.message();
  for (int32_t t : run.outputs()) {
    const RuntimeTensor& tensor = run.tensor(t);
    out.bytes.emplace_back(tensor.data, tensor.data + tensor.bytes);
    out.tensors.push_back(tensor);
  }
  for (size_t o = 0; o < out.tensors.size(); ++o) out.tensors[o].data = out.bytes[o].data();
  return out;
}

// while_acc's subgraph 0: x (tensor 0) is read by the first node (MUL x, x -> 2) and the last
// (ADD 4, x -> 6). The planted plan puts tensor 2 on x's bytes while both are live: the arena
// blocks the planner recorded are untouched, so the plan's static disjointness check passes, but
// MUL overwrites x and the final ADD reads x*x. The run on buffers of its own is not fooled.
TEST(OwnBufferCheckTest, CatchesAPlantedOverlapAndPassesUpstreamsPlan) {
  auto model = LoadModelFile(tfa::testing::OraclePath("control_flow/while_acc.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto plan = PlanForRun(*model, {}, {}, FillSeedOne);
  ASSERT_TRUE(plan.ok()) << plan.status().message();

  const Outputs planned = RunPlanned(*plan);
  auto clean = CompareWithOwnBuffers(*plan, {}, FillSeedOne, planned.tensors);
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  EXPECT_TRUE(clean->empty());

  ModelPlan planted = *plan;
  ArenaPlan& arena = planted.subgraphs[0].memory->plan;
  ASSERT_EQ(arena.tensors[0].arena, ArenaKind::kRw);
  ASSERT_EQ(arena.tensors[2].arena, ArenaKind::kRw);
  ASSERT_NE(arena.tensors[2].offset, arena.tensors[0].offset);
  arena.tensors[2].offset = arena.tensors[0].offset;
  const Outputs corrupted = RunPlanned(planted);
  auto caught = CompareWithOwnBuffers(planted, {}, FillSeedOne, corrupted.tensors);
  ASSERT_TRUE(caught.ok()) << caught.status().message();
  ASSERT_EQ(caught->size(), 1u);
  EXPECT_EQ((*caught)[0].tensor, 6);
  EXPECT_GT((*caught)[0].differing_bytes, 0u);
}

// lstm_f32 keeps its recurrent state in variable tensors, which upstream's ResetVariableTensors
// zeroes: the run on buffers of its own starts from the same state, so the outputs are identical.
TEST(OwnBufferCheckTest, VariableTensorsStartZeroedInBuffersOfTheirOwn) {
  auto model = LoadModelFile(tfa::testing::OraclePath("families/lstm_f32.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto plan = PlanForRun(*model, {}, {}, FillSeedOne);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const Outputs planned = RunPlanned(*plan);
  auto differences = CompareWithOwnBuffers(*plan, {}, FillSeedOne, planned.tensors);
  ASSERT_TRUE(differences.ok()) << differences.status().message();
  EXPECT_TRUE(differences->empty());
}

}  // namespace
}  // namespace tfa::runtime
