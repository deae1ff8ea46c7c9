#include "libanalysis/report/memory_timeline.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>

#include "libanalysis/report/live_arena_bytes.h"
#include "libanalysis/report/model_explorer_ids.h"
#include "libanalysis/report/plan_step_node.h"

namespace tfa {
namespace {

// Trace time is in microseconds; a step lasts a millisecond, so the time axis reads in steps.
constexpr uint64_t kMicrosecondsPerStep = 1000;

// Interval partitioning: the tensors by first step, each on the lowest lane free by then, which
// needs exactly as many lanes as tensors overlap at the busiest step. Returns the lane count.
int32_t AssignLanes(std::vector<TimelineTensor*> tensors) {
  std::sort(tensors.begin(), tensors.end(), [](const TimelineTensor* a, const TimelineTensor* b) {
    return std::tie(a->first_step, a->offset, a->tensor) <
           std::tie(b->first_step, b->offset, b->tensor);
  });
  using LaneEnd = std::pair<int32_t, int32_t>;  // last step, lane
  std::priority_queue<LaneEnd, std::vector<LaneEnd>, std::greater<>> busy;
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<>> free;
  int32_t lanes = 0;
  for (TimelineTensor* t : tensors) {
    while (!busy.empty() && busy.top().first < t->first_step) {
      free.push(busy.top().second);
      busy.pop();
    }
    if (free.empty()) {
      t->lane = lanes++;
    } else {
      t->lane = free.top();
      free.pop();
    }
    busy.push({t->last_step, t->lane});
  }
  return lanes;
}

SubgraphTimeline SubgraphTimelineOf(const ModelPlan& plan, const SubgraphPlan& sp,
                                    const ArenaReport& arena) {
  const Subgraph& planned = *sp.memory->prepared;
  SubgraphTimeline timeline;
  timeline.subgraph = sp.index;
  timeline.graph_id = ModelExplorerGraphId(sp.index, sp.delegated->name, plan.signatures);
  const std::vector<int32_t> steps =
      planned.execution_plan.empty() ? IdentityExecutionPlan(planned) : planned.execution_plan;
  timeline.steps.reserve(steps.size());
  for (int32_t n : steps) {
    const Node& node = planned.nodes[static_cast<size_t>(n)];
    const bool kernel = node.kind == NodeKind::kDelegateKernel;
    timeline.steps.push_back(PlanStepNodeText({kernel ? -1 : n, node.op, kernel}));
  }
  timeline.live_arena_bytes = LiveArenaBytes(sp.memory->plan);
  std::vector<TimelineTensor*> rw, persistent;
  timeline.tensors.reserve(arena.allocs.size());
  for (const ArenaAllocation& a : arena.allocs) {
    TimelineTensor& t = timeline.tensors.emplace_back();
    t.tensor = a.tensor;
    if (a.tensor >= 0 && static_cast<size_t>(a.tensor) < planned.tensors.size())
      t.name = planned.tensors[static_cast<size_t>(a.tensor)].name;
    if (t.name.empty()) t.name = "tensor " + std::to_string(a.tensor);
    t.persistent = a.persistent;
    t.offset = a.offset;
    t.size = a.size;
    t.first_step = a.first_step;
    t.last_step = a.last_step;
    t.shares_buffer_of = a.shares_buffer_of;
    if (a.temporary_of) t.temporary_of = PlanStepNodeText(*a.temporary_of);
  }
  for (TimelineTensor& t : timeline.tensors) (t.persistent ? persistent : rw).push_back(&t);
  timeline.arena_lanes = AssignLanes(std::move(rw));
  timeline.persistent_lanes = AssignLanes(std::move(persistent));
  return timeline;
}

using Json = nlohmann::ordered_json;

Json Metadata(const char* what, int32_t pid, std::optional<int32_t> tid, Json args) {
  Json event = {{"ph", "M"}, {"name", what}, {"pid", pid}};
  if (tid) event["tid"] = *tid;
  event["args"] = std::move(args);
  return event;
}

void AppendSubgraphEvents(const SubgraphTimeline& s, Json& events) {
  // Trace viewers treat pid 0 as no process: subgraph i is process i + 1.
  const int32_t pid = s.subgraph + 1;
  constexpr int32_t kStepsTid = 0;
  const int32_t first_rw_tid = kStepsTid + 1;
  const int32_t first_persistent_tid = first_rw_tid + s.arena_lanes;
  events.push_back(
      Metadata("process_name", pid, std::nullopt,
               {{"name", "subgraph " + std::to_string(s.subgraph) + ": " + s.graph_id}}));
  events.push_back(Metadata("process_sort_index", pid, std::nullopt, {{"sort_index", pid}}));
  events.push_back(Metadata("thread_name", pid, kStepsTid, {{"name", "execution plan"}}));
  for (int32_t lane = 0; lane < s.arena_lanes; ++lane) {
    events.push_back(Metadata("thread_name", pid, first_rw_tid + lane,
                              {{"name", "arena, lane " + std::to_string(lane)}}));
  }
  for (int32_t lane = 0; lane < s.persistent_lanes; ++lane) {
    events.push_back(Metadata("thread_name", pid, first_persistent_tid + lane,
                              {{"name", "persistent arena, lane " + std::to_string(lane)}}));
  }
  for (size_t step = 0; step < s.steps.size(); ++step) {
    events.push_back({{"ph", "X"},
                      {"cat", "step"},
                      {"name", s.steps[step]},
                      {"pid", pid},
                      {"tid", kStepsTid},
                      {"ts", step * kMicrosecondsPerStep},
                      {"dur", kMicrosecondsPerStep},
                      {"args", {{"step", step}}}});
  }
  for (const TimelineTensor& t : s.tensors) {
    Json args = {{"tensor", t.tensor},       {"offset", t.offset},
                 {"size", t.size},           {"first_step", t.first_step},
                 {"last_step", t.last_step}, {"arena", t.persistent ? "persistent" : "rw"}};
    if (t.shares_buffer_of) args["shares_buffer_of"] = *t.shares_buffer_of;
    if (!t.temporary_of.empty()) args["temporary_of"] = t.temporary_of;
    const uint64_t steps = static_cast<uint64_t>(std::max(t.last_step - t.first_step + 1, 1));
    events.push_back(
        {{"ph", "X"},
         {"cat", "tensor"},
         {"name", t.name},
         {"pid", pid},
         {"tid", (t.persistent ? first_persistent_tid : first_rw_tid) + t.lane},
         {"ts", static_cast<uint64_t>(std::max(t.first_step, 0)) * kMicrosecondsPerStep},
         {"dur", steps * kMicrosecondsPerStep},
         {"args", std::move(args)}});
  }
  // The counter holds its last value until the next sample: it drops to 0 after the last step.
  for (size_t step = 0; step <= s.live_arena_bytes.size(); ++step) {
    const uint64_t bytes = step < s.live_arena_bytes.size() ? s.live_arena_bytes[step] : 0;
    events.push_back({{"ph", "C"},
                      {"name", "live arena bytes"},
                      {"pid", pid},
                      {"ts", step * kMicrosecondsPerStep},
                      {"args", {{"bytes", bytes}}}});
  }
}

}  // namespace

MemoryTimeline BuildMemoryTimeline(const ModelPlan& plan, const Report& report) {
  MemoryTimeline timeline;
  timeline.model = report.model;
  for (const SubgraphReport& sr : report.subgraphs) {
    if (sr.index < 0 || static_cast<size_t>(sr.index) >= plan.subgraphs.size()) continue;
    const SubgraphPlan& sp = plan.subgraphs[static_cast<size_t>(sr.index)];
    if (!sr.arena || !sr.arena->planned || !sp.memory || !sp.memory->planned) continue;
    timeline.subgraphs.push_back(SubgraphTimelineOf(plan, sp, *sr.arena));
  }
  return timeline;
}

std::string MemoryTimelineTraceJson(const MemoryTimeline& timeline, int indent) {
  Json events = Json::array();
  for (const SubgraphTimeline& s : timeline.subgraphs) AppendSubgraphEvents(s, events);
  Json trace = {{"traceEvents", std::move(events)},
                {"displayTimeUnit", "ms"},
                {"otherData",
                 {{"model", timeline.model},
                  {"time", "step s of the execution plan runs from s ms to s + 1 ms"}}}};
  return trace.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
