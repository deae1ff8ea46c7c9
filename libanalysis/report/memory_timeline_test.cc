#include "libanalysis/report/memory_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/report/live_arena_bytes.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using nlohmann::json;

struct Analysed {
  ModelPlan plan;
  Report report;
};

Analysed Analyse(const Model& model, const std::string& delegate = "") {
  PlanOptions options;
  if (!delegate.empty()) {
    DelegateRequest request;
    request.spec = delegate;
    auto profile = ResolveDelegateRequest(request);
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    if (profile.ok()) options.delegates.push_back(*profile);
  }
  auto plan = PlanModel(model, options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  if (!plan.ok()) return {};
  auto report = BuildReport(*plan, "test");
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return {};
  return {std::move(plan).value(), std::move(report).value()};
}

json Trace(const Analysed& a) {
  return json::parse(MemoryTimelineTraceJson(BuildMemoryTimeline(a.plan, a.report)));
}

std::vector<json> Events(const json& trace, const std::string& ph, const std::string& cat = "") {
  std::vector<json> out;
  for (const json& e : trace.at("traceEvents")) {
    if (e.at("ph") == ph && (cat.empty() || e.value("cat", "") == cat)) out.push_back(e);
  }
  return out;
}

// x (1024 B) -ADD-> a (4096 B) -MUL-> b (2048 B) -ADD-> y (1024 B), plus a CONV_2D-style
// temporary t (512 B) of the MUL: sizes in multiples of 64, so that no block needs padding and
// the arena's lower bound is exactly its peak of live bytes.
constexpr const char* kChain = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":1024},{"name":"a","bytes":4096},{"name":"b","bytes":2048},
             {"name":"y","bytes":1024},{"name":"t","bytes":512}],
  "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1],"inplace":0},
           {"op":"MUL","inputs":[1,1],"outputs":[2],"inplace":0,"temporaries":[4]},
           {"op":"ADD","inputs":[2,2],"outputs":[3],"inplace":0}],
  "inputs":[0],"outputs":[3],"variables":[]})";

Analysed Chain() {
  auto model = ParseGraphJson(kChain, "chain.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? Analyse(*model) : Analysed{};
}

TEST(MemoryTimeline, OneSlicePerArenaTensorWithItsPlacementInArgs) {
  const Analysed a = Chain();
  const json trace = Trace(a);
  const std::vector<json> tensors = Events(trace, "X", "tensor");
  const ArenaReport& arena = *a.report.subgraphs.at(0).arena;
  ASSERT_EQ(tensors.size(), arena.allocs.size());
  ASSERT_EQ(tensors.size(), 5u);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const ArenaAllocation& al = arena.allocs[i];
    const json& args = tensors[i].at("args");
    EXPECT_EQ(args.at("tensor"), al.tensor);
    EXPECT_EQ(args.at("offset"), al.offset);
    EXPECT_EQ(args.at("size"), al.size);
    EXPECT_EQ(args.at("first_step"), al.first_step);
    EXPECT_EQ(args.at("last_step"), al.last_step);
    EXPECT_EQ(tensors[i].at("ts"), 1000 * al.first_step);
    EXPECT_EQ(tensors[i].at("dur"), 1000 * (al.last_step - al.first_step + 1));
  }
  std::map<std::string, json> by_name;
  for (const json& t : tensors) by_name[t.at("name")] = t;
  EXPECT_EQ(by_name.at("t").at("args").at("temporary_of"), "MUL #1");
  EXPECT_EQ(by_name.at("t").at("args").at("first_step"), 1);
  EXPECT_EQ(by_name.at("t").at("args").at("last_step"), 1);
}

TEST(MemoryTimeline, CounterPeakIsTheArenasPeakLiveBytes) {
  const Analysed a = Chain();
  const std::vector<json> counter = Events(Trace(a), "C");
  // One sample per step, then 0 after the last.
  std::vector<uint64_t> samples;
  for (const json& c : counter) samples.push_back(c.at("args").at("bytes"));
  EXPECT_EQ(samples,
            (std::vector<uint64_t>{1024 + 4096, 1024 + 4096 + 2048 + 512, 1024 + 2048 + 1024, 0}));
  EXPECT_EQ(*std::max_element(samples.begin(), samples.end()),
            a.report.subgraphs.at(0).arena->lower_bound);
}

TEST(MemoryTimeline, StepsTrackNamesWhatRunsAtEachStep) {
  const Analysed a = Chain();
  std::vector<std::string> names;
  for (const json& s : Events(Trace(a), "X", "step")) names.push_back(s.at("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"ADD #0", "MUL #1", "ADD #2"}));
}

// The slices of one track never overlap: trace viewers nest overlapping slices of a track.
void ExpectLanesDoNotOverlap(const json& trace) {
  std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> tracks;
  for (const json& t : Events(trace, "X", "tensor")) {
    tracks[{t.at("pid"), t.at("tid")}].emplace_back(
        t.at("ts"), t.at("ts").get<uint64_t>() + t.at("dur").get<uint64_t>());
  }
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i) {
      EXPECT_LE(slices[i - 1].second, slices[i].first)
          << "pid " << track.first << " tid " << track.second;
    }
  }
}

TEST(MemoryTimeline, EverySubgraphOfAControlFlowModelIsAProcess) {
  auto model = LoadModelFile(testing::OraclePath("control_flow/while_acc.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Analysed a = Analyse(*model, "ops=ADD,MUL");
  const json trace = Trace(a);
  std::vector<std::string> processes;
  for (const json& m : Events(trace, "M")) {
    if (m.at("name") == "process_name") processes.push_back(m.at("args").at("name"));
  }
  size_t allocs = 0;
  std::vector<std::string> expected;
  for (const SubgraphReport& s : a.report.subgraphs) {
    if (!s.arena || !s.arena->planned) continue;
    allocs += s.arena->allocs.size();
    const std::string names[] = {"main", "cond", "body"};
    expected.push_back("subgraph " + std::to_string(s.index) + ": " +
                       names[static_cast<size_t>(s.index)]);
  }
  EXPECT_EQ(processes, expected);
  EXPECT_EQ(Events(trace, "X", "tensor").size(), allocs);
  ExpectLanesDoNotOverlap(trace);
}

TEST(MemoryTimeline, RealModelCounterMatchesTheArenaPlanAndLanesStayApart) {
  auto model = LoadModelFile(testing::CorpusModelPath("hands__palm_detection_lite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Analysed a = Analyse(*model, "gpu");
  const json trace = Trace(a);
  const std::vector<uint64_t> live = LiveArenaBytes(a.plan.subgraphs.at(0).memory->plan);
  const std::vector<json> counter = Events(trace, "C");
  ASSERT_EQ(counter.size(), live.size() + 1);
  uint64_t peak = 0;
  for (const json& c : counter) peak = std::max(peak, c.at("args").at("bytes").get<uint64_t>());
  EXPECT_EQ(peak, *std::max_element(live.begin(), live.end()));
  // Blocks live at one step lie apart in the arena.
  const ArenaReport& arena = *a.report.subgraphs.at(0).arena;
  EXPECT_LE(peak, arena.size);
  EXPECT_EQ(Events(trace, "X", "tensor").size(), arena.allocs.size());
  ExpectLanesDoNotOverlap(trace);
}

}  // namespace
}  // namespace tfa
