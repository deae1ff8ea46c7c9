// Models with several subgraphs (tests/oracle/control_flow): WHILE, IF, CALL_ONCE and resource
// variables run through one ModelPlan, every subgraph on the memory upstream gives it (a WHILE
// body whose state grows re-planned on every iteration, while_dynamic). Outputs
// must be upstream's (with the add-mul claim delegate too: upstream did not run that config, and
// a delegate must not change outputs), each subgraph the first Invoke ran must have run on
// upstream's arena (subgraphs_after_invoke, config none), and the plan's after-Invoke replay must
// say what the run did.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "runtime/after_invoke_check.h"
#include "runtime/cpu_subset_delegate.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "runtime/run_plan.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using tfa::testing::OraclePath;
using tfa::testing::ReadJsonFile;

struct Case {
  std::string model;
  std::string config;  // "none" or "add-mul"
};

Status FillSeedOne(Interpreter& interpreter) {
  FillDeterministicInputs(interpreter, 1);
  return Status::Ok();
}

class ControlFlowRunTest : public ::testing::TestWithParam<Case> {};

TEST_P(ControlFlowRunTest, OutputsAndEverySubgraphsArenaAreUpstreams) {
  const Case& c = GetParam();
  const std::string base = OraclePath("control_flow/" + c.model);
  const auto oracle = ReadJsonFile(base + ".none.json");
  auto model = LoadModelFile(base + ".tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  CpuSubsetDelegate add_mul("add-mul", {"ADD", "MUL"});
  InterpreterOptions options;
  PlanOptions plan_options;
  if (c.config == "add-mul") {
    options.delegates = {&add_mul};
    plan_options.delegates = {add_mul.Profile()};
  }
  auto plan = PlanForRun(*model, plan_options, options, FillSeedOne);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto interpreter = Interpreter::Create(*plan, options);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();

  ASSERT_TRUE(oracle.contains("output_tensors"));
  for (const auto& expected : oracle["output_tensors"]) {
    const RuntimeTensor& tensor = run.tensor(expected["tensor"].get<int32_t>());
    ASSERT_EQ(tensor.bytes, expected["bytes"].get<uint64_t>());
    const auto values = expected["values"].get<std::vector<double>>();
    for (size_t i = 0; i < values.size(); ++i) {
      const double got = tensor.Data<const float>()[i];
      ASSERT_LE(std::abs(got - values[i]), 1e-4 * std::max(1.0, std::abs(values[i])))
          << "tensor " << expected["tensor"] << " value " << i;
    }
  }
  for (const auto& expected : ReadJsonFile(base + "." + c.config + ".json")
                                  .value("subgraphs_after_invoke", nlohmann::json::array())) {
    const auto index = expected["index"].get<size_t>();
    const SubgraphRunStats& ran = run.stats().subgraphs.at(index);
    if (ran.runs == 0 || !expected.contains("arena_high_water_mark")) continue;
    SCOPED_TRACE("subgraph " + std::to_string(index));
    EXPECT_EQ(ran.arena_bytes, expected["arena_high_water_mark"].get<uint64_t>());
    EXPECT_EQ(ran.persistent_arena_bytes,
              expected["arena_persist_high_water_mark"].get<uint64_t>());
  }
  const auto checks = CheckAfterInvoke(*plan, run.entry_subgraph(), run.stats());
  EXPECT_FALSE(checks.empty());
  for (const SubgraphMemoryCheck& check : checks)
    EXPECT_TRUE(check.ok()) << "subgraph " << check.subgraph << ": predicted "
                            << check.predicted_arena << " measured " << check.measured_arena;
}

INSTANTIATE_TEST_SUITE_P(
    ControlFlow, ControlFlowRunTest,
    ::testing::Values(Case{"while_acc", "none"}, Case{"while_acc", "add-mul"},
                      Case{"if_branches", "none"}, Case{"if_branches", "add-mul"},
                      Case{"if_nested_while", "none"}, Case{"if_nested_while", "add-mul"},
                      Case{"call_once_var", "none"}, Case{"call_once_var", "add-mul"},
                      Case{"while_dynamic", "none"}, Case{"while_dynamic", "add-mul"}),
    [](const auto& info) {
      std::string name = info.param.model + "_" + info.param.config;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

// The shapes the analyser's replay needs for a body re-planned every iteration are facts the run
// finds: every tensor whose shape upstream's run changed (subgraphs_after_invoke against
// subgraphs in while_dynamic.none.json: main's WHILE output and y, the body's last-iteration
// input, MUL and CONCATENATION outputs), and no other.
TEST(ControlFlowRunTest, TheRunFindsTheShapesUpstreamsRunEndsWith) {
  const std::string base = OraclePath("control_flow/while_dynamic");
  const auto oracle = ReadJsonFile(base + ".none.json");
  std::map<int32_t, std::map<int32_t, std::vector<int32_t>>> expected;
  for (const auto& after : oracle["subgraphs_after_invoke"]) {
    const auto index = after["index"].get<int32_t>();
    const auto& before = oracle["subgraphs"][static_cast<size_t>(index)]["tensors"];
    for (size_t t = 0; t < after["tensors"].size(); ++t) {
      const auto& now = after["tensors"][t];
      if (now["shape"] != before[t]["shape"])
        expected[index][now["tensor"].get<int32_t>()] = now["shape"].get<std::vector<int32_t>>();
    }
  }
  ASSERT_FALSE(expected.empty());
  auto model = LoadModelFile(base + ".tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto plan = PlanModel(*model, {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  InterpreterOptions own;
  own.own_buffers = true;
  auto interpreter = Interpreter::Create(*plan, own);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  FillDeterministicInputs(**interpreter, 1);
  const Status invoked = (*interpreter)->Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  EXPECT_EQ((*interpreter)->stats().facts.run_shapes, expected);
}

}  // namespace
}  // namespace tfa::runtime
