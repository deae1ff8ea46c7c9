// The arena over time: every tensor's stay in the arena, and the live bytes at each step, as a
// Chrome trace (the Trace Event Format that Perfetto and chrome://tracing open). Time is the
// execution plan: step s runs from s ms to s + 1 ms. Each subgraph is a process with
//   - a track naming what runs at each step ("CONV_2D #12", "the gpu delegate kernel"),
//   - one slice per arena tensor (ArenaReport::allocs), from its first to its last step, its
//     offset, size and steps in the slice's args, on lanes where no two tensors overlap in time,
//   - a counter of the live bytes of the non-persistent arena (live_arena_bytes.h).
#ifndef LIBANALYSIS_REPORT_MEMORY_TIMELINE_H_
#define LIBANALYSIS_REPORT_MEMORY_TIMELINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report.h"

namespace tfa {

// One tensor's stay in an arena.
struct TimelineTensor {
  int32_t tensor = 0;
  std::string name;  // the tensor's name, or "tensor 12" when it has none
  bool persistent = false;
  uint64_t offset = 0;
  uint64_t size = 0;
  int32_t first_step = 0;
  int32_t last_step = 0;
  std::optional<int32_t> shares_buffer_of;  // in-place aliases: the tensor whose bytes it uses
  std::string temporary_of;                 // kernel temporaries: the node that adds it
  // The track it is drawn on, counted from 0 within its arena: a lane's tensors follow one
  // another, and there are as many lanes as tensors live at once at the busiest step.
  int32_t lane = 0;
};

struct SubgraphTimeline {
  int32_t subgraph = 0;
  std::string graph_id;                    // as Model Explorer names it (model_explorer_ids.h)
  std::vector<std::string> steps;          // what runs at each step
  std::vector<TimelineTensor> tensors;     // in the report's order
  std::vector<uint64_t> live_arena_bytes;  // per step
  int32_t arena_lanes = 0;
  int32_t persistent_lanes = 0;
};

struct MemoryTimeline {
  std::string model;
  std::vector<SubgraphTimeline> subgraphs;  // those whose arena was planned
};

// The timeline of `report`, built from `plan` (BuildReport(plan)).
MemoryTimeline BuildMemoryTimeline(const ModelPlan& plan, const Report& report);

// The Chrome trace ({"traceEvents": [...]}, indent < 0: on one line). Names that are not UTF-8
// get U+FFFD.
std::string MemoryTimelineTraceJson(const MemoryTimeline& timeline, int indent = -1);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_MEMORY_TIMELINE_H_
