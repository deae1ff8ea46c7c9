#include "libanalysis/report/live_arena_bytes.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report_builder.h"

namespace tfa {
namespace {

TEST(LiveArenaBytes, SumsTheBlocksLiveAtEachStep) {
  ArenaPlan plan;
  plan.num_steps = 4;
  plan.rw_blocks = {{0, 0, 100, 0, 1}, {1, 128, 50, 1, 3}, {2, 0, 30, 2, 2}, {3, 0, 7, 3, 3}};
  EXPECT_EQ(LiveArenaBytes(plan), (std::vector<uint64_t>{100, 150, 80, 57}));
}

TEST(LiveArenaBytes, PersistentBlocksAndAnEmptyPlanCountNothing) {
  ArenaPlan plan;
  plan.num_steps = 2;
  plan.persistent_blocks = {{0, 0, 64, 0, 1}};
  EXPECT_EQ(LiveArenaBytes(plan), (std::vector<uint64_t>{0, 0}));
  EXPECT_TRUE(LiveArenaBytes(ArenaPlan{}).empty());
}

// x (1024 B) -ADD-> a (4096 B) -MUL-> b (2048 B) -ADD-> y (1024 B), nothing shared in place: x
// and y live the whole run as graph input and output, a and b from their node to their reader.
constexpr const char* kChain = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":1024},{"name":"a","bytes":4096},{"name":"b","bytes":2048},
             {"name":"y","bytes":1024}],
  "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1],"inplace":0},
           {"op":"MUL","inputs":[1,1],"outputs":[2],"inplace":0},
           {"op":"ADD","inputs":[2,2],"outputs":[3],"inplace":0}],
  "inputs":[0],"outputs":[3],"variables":[]})";

TEST(LiveArenaBytes, PeakIsTheLowerBoundWhenNoBlockNeedsPadding) {
  auto model = ParseGraphJson(kChain, "chain.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto plan = PlanModel(*model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const ArenaPlan& arena = plan->subgraphs.at(0).memory->plan;
  const std::vector<uint64_t> live = LiveArenaBytes(arena);
  // x from step 0 on, as a graph input; y from the step that writes it, as upstream allocates
  // graph outputs (only kept alive to the end).
  EXPECT_EQ(live, (std::vector<uint64_t>{1024 + 4096, 1024 + 4096 + 2048, 1024 + 2048 + 1024}));
  auto report = BuildReport(*plan, "test");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(*std::max_element(live.begin(), live.end()),
            report->subgraphs.at(0).arena->lower_bound);
}

}  // namespace
}  // namespace tfa
