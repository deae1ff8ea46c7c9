#include "libanalysis/report/plan_step_node.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"

namespace tfa {
namespace {

// x -ADD-> a -CONV_2D (temporary t, 100000 B)-> b -ADD-> y: the arena peaks at step 1, where a,
// b and the convolution's temporary live (a is the largest of the other tensors, so the peak
// stays there when a delegate takes the convolution).
constexpr const char* kTemporaryPeak = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":1024},{"name":"a","bytes":4096},{"name":"b","bytes":1024},
             {"name":"y","bytes":1024},{"name":"t","bytes":100000}],
  "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1]},
           {"op":"CONV_2D","inputs":[1],"outputs":[2],"temporaries":[4]},
           {"op":"ADD","inputs":[2,2],"outputs":[3]}],
  "inputs":[0],"outputs":[3],"variables":[]})";

Report Build(const std::vector<std::string>& delegates) {
  auto model = ParseGraphJson(kTemporaryPeak, "g.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  ReportOptions options;
  for (const std::string& spec : delegates) {
    DelegateRequest r;
    r.spec = spec;
    options.delegates.push_back(r);
  }
  auto report = BuildReport(*model, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return {};
  return *report;
}

TEST(PlanStepNode, PeakNamesTheNodeAndOpThatRunThere) {
  const Report r = Build({});
  const ArenaReport& a = *r.subgraphs.at(0).arena;
  EXPECT_EQ(a.peak_step, 1);
  EXPECT_EQ(a.peak_at.node, 1);
  EXPECT_EQ(a.peak_at.op, "CONV_2D");
  EXPECT_FALSE(a.peak_at.delegate_kernel);
  const nlohmann::json j = nlohmann::json::parse(ReportToJson(r));
  const auto& arena = j.at("subgraphs").at(0).at("arena");
  EXPECT_EQ(arena.at("peak_node"), 1) << "the contract's name for the step stays";
  EXPECT_EQ(arena.at("peak_step"), 1);
  EXPECT_EQ(arena.at("peak_at"), nlohmann::json::parse(R"({"node":1,"op":"CONV_2D"})"));
  bool temporary_seen = false;
  for (const auto& alloc : arena.at("allocs")) {
    if (alloc.at("tensor") != 4) {
      EXPECT_FALSE(alloc.contains("temporary_of")) << alloc;
      continue;
    }
    temporary_seen = true;
    EXPECT_EQ(alloc.at("temporary_of"), nlohmann::json::parse(R"({"node":1,"op":"CONV_2D"})"));
  }
  EXPECT_TRUE(temporary_seen);
}

TEST(PlanStepNode, ADelegateKernelAtThePeakIsNamedByItsDelegate) {
  const Report r = Build({"ops=CONV_2D"});
  const ArenaReport& a = *r.subgraphs.at(0).arena;
  // Plan after delegation: ADD #0, the kernel that replaces CONV_2D #1, ADD #2.
  const PlanStepNode kernel = a.peak_at;
  EXPECT_TRUE(kernel.delegate_kernel);
  EXPECT_EQ(kernel.node, -1);
  EXPECT_EQ(kernel.op, "ops=CONV_2D");
  const nlohmann::json j = nlohmann::json::parse(ReportToJson(r));
  EXPECT_EQ(j.at("subgraphs").at(0).at("arena").at("peak_at"),
            nlohmann::json::parse(R"({"delegate_kernel":"ops=CONV_2D"})"));
}

TEST(PlanStepNode, StepsOutOfRangeNameNothing) {
  Subgraph sg;
  sg.nodes.resize(2);
  sg.nodes[0].op = "ADD";
  sg.nodes[1].op = "MUL";
  EXPECT_EQ(NodeAtStep(sg, 1).op, "MUL");
  EXPECT_EQ(NodeAtStep(sg, 1).node, 1);
  EXPECT_TRUE(NodeAtStep(sg, 2).op.empty());
  EXPECT_TRUE(NodeAtStep(sg, -1).op.empty());
}

}  // namespace
}  // namespace tfa
