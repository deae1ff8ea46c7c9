#include "libanalysis/plan/model_plan.h"

#include <gtest/gtest.h>

#include <memory>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/delegate_request.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

Model LoadCorpusModel(const std::string& name) {
  auto model = LoadModelFile(testing::CorpusModelPath(name));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

PlanOptions WithDelegates(const std::vector<std::string>& specs) {
  PlanOptions options;
  for (const std::string& spec : specs) {
    auto profile = ResolveDelegateSpec(spec);
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    if (profile.ok()) options.delegates.push_back(std::move(profile).value());
  }
  return options;
}

int32_t DelegateKernels(const Subgraph& graph) {
  int32_t kernels = 0;
  for (int32_t n : graph.execution_plan) {
    kernels += graph.nodes[static_cast<size_t>(n)].kind == NodeKind::kDelegateKernel;
  }
  return kernels;
}

// Upstream's figures for face_detection_short_range (tests/oracle models, README): the GPU
// delegate takes all 164 nodes, and the 1,818,624-byte CPU arena shrinks to 257,536.
TEST(PlanModel, OnePlanHoldsDelegationAndBothArenas) {
  const Model model = LoadCorpusModel("face_detection__face_detection_short_range");
  ASSERT_EQ(model.subgraphs.size(), 1u);
  auto plan = PlanModel(model, WithDelegates({"gpu"}));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->subgraphs.size(), 1u);
  const SubgraphPlan& sp = plan->subgraphs[0];
  EXPECT_EQ(sp.model_nodes, 164u);
  EXPECT_EQ(DelegateKernels(*sp.delegated), 1);
  ASSERT_EQ(sp.last_kernel_nodes.size(), 1u);
  EXPECT_EQ(sp.delegated->nodes[static_cast<size_t>(sp.last_kernel_nodes[0])].replaces.size(),
            164u);
  ASSERT_TRUE(sp.memory.has_value());
  EXPECT_EQ(sp.memory->arena_size, 257536u);
  ASSERT_TRUE(sp.cpu_only_memory.has_value());
  EXPECT_EQ(sp.cpu_only_memory->arena_size, 1818624u);
  EXPECT_TRUE(sp.delegate_inputs.empty()) << "kept only on request";
  EXPECT_FALSE(plan->invoke.has_value()) << "one subgraph: no control flow to invoke";
}

TEST(PlanModel, EachDelegateSeesWhatTheOnesBeforeItLeft) {
  const Model model = LoadCorpusModel("face_detection__face_detection_short_range");
  PlanOptions options = WithDelegates({"add-sub", "gpu"});
  options.keep_delegate_inputs = true;
  auto plan = PlanModel(model, options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& sp = plan->subgraphs[0];
  ASSERT_EQ(sp.delegate_inputs.size(), 2u);
  EXPECT_EQ(DelegateKernels(sp.delegate_inputs[0]), 0);
  const int32_t add_sub_kernels = DelegateKernels(sp.delegate_inputs[1]);
  EXPECT_GT(add_sub_kernels, 0);
  // The gpu delegate keeps one partition; add-sub's kernels stay where they were.
  EXPECT_EQ(DelegateKernels(*sp.delegated), add_sub_kernels + 1);
  EXPECT_EQ(plan->delegates.size(), 2u);
  EXPECT_EQ(plan->prepare_options.delegate_kernels.at("gpu"), DelegateKernelKind::kGpu);
}

TEST(PlanModel, WithoutAnArenaOnlyDelegates) {
  const Model model = LoadCorpusModel("face_detection__face_detection_short_range");
  PlanOptions options = WithDelegates({"gpu"});
  options.plan_arena = false;
  auto plan = PlanModel(model, options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_FALSE(plan->subgraphs[0].memory.has_value());
  EXPECT_EQ(DelegateKernels(*plan->subgraphs[0].delegated), 1);
}

TEST(PlanModel, InvokeFactsNamingWhatTheModelLacksAreRefused) {
  const Model model = LoadCorpusModel("face_detection__face_detection_short_range");
  PlanOptions options;
  options.invoke_facts.if_conditions[NodeRef{0, 3}] = true;
  auto plan = PlanModel(model, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("face_detection_short_range"), std::string::npos)
      << plan.status().message();
}

// An LLM-style decoder (tests/oracle families): `prefill` runs subgraph 0, `decode` subgraph 1,
// and both read the same weight buffers.
TEST(PlanModel, EverySignatureRunnerAllocatesItsSubgraph) {
  auto model = LoadModelFile(testing::OraclePath("families/decoder_two_signatures.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ(model->signatures.size(), 2u);
  // 67,220 bytes of weights in buffers both subgraphs read (134,168 if counted per tensor).
  EXPECT_EQ(model->constant_bytes, 67220u);
  auto plan = PlanModel(*model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->signatures.size(), 2u);
  EXPECT_EQ(plan->signatures[1].key, "decode");
  ASSERT_EQ(plan->subgraphs.size(), 2u);
  for (const SubgraphPlan& sp : plan->subgraphs) {
    ASSERT_TRUE(sp.memory.has_value());
    EXPECT_TRUE(sp.memory->planned) << "subgraph " << sp.index;
    EXPECT_GT(sp.memory->arena_size, 0u) << "subgraph " << sp.index;
  }
  const std::vector<std::string>& notes = plan->subgraphs[1].memory->notes;
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.front().find("signature decode"), std::string::npos) << notes.front();
}

// A million-node subgraph is hundreds of megabytes per copy: a Graph JSON subgraph is planned as
// delegation leaves it, so its prepared graphs are the delegated graph and the model's own.
TEST(PlanModel, GraphJsonPlansShareTheGraphsTheyDoNotChange) {
  auto parsed = ParseGraphJson(
      R"({"format":"tflite-analyze-graph/1",
          "tensors":[{"name":"a","bytes":16,"alloc":"arena_rw","type":"float32","shape":[4]},
                     {"name":"b","bytes":16,"alloc":"arena_rw","type":"float32","shape":[4]},
                     {"name":"c","bytes":16,"alloc":"arena_rw","type":"float32","shape":[4]}],
          "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1]},
                   {"op":"MUL","inputs":[1,1],"outputs":[2]}],
          "inputs":[0],"outputs":[2]})",
      "shared.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto model = std::make_shared<const Model>(std::move(parsed).value());
  auto plan = PlanModel(model, WithDelegates({"ops=ADD"}));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& sp = plan->subgraphs[0];
  EXPECT_EQ(DelegateKernels(*sp.delegated), 1);
  ASSERT_TRUE(sp.memory.has_value() && sp.cpu_only_memory.has_value());
  EXPECT_EQ(sp.memory->prepared, sp.delegated);
  EXPECT_EQ(sp.cpu_only_memory->prepared.get(), &model->subgraphs[0]);
}

}  // namespace
}  // namespace tfa
