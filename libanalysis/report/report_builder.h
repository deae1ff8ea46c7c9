// Builds the Report for a model: the delegates applied one after another to every subgraph (as
// upstream's ModifyGraphWithDelegate does), copy costs per delegated partition, and the arena
// replayed on the plan after delegation and on the plain CPU plan, with kernels' Prepare effects
// (temporaries, persistent DEQUANTIZE outputs) modelled.
#ifndef LIBANALYSIS_REPORT_REPORT_BUILDER_H_
#define LIBANALYSIS_REPORT_REPORT_BUILDER_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/control_flow_invoke.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/report/report.h"

namespace tfa {

// One --delegate and the options that follow it on the command line.
struct DelegateRequest {
  std::string spec;  // built-in profile name, `ops=A,B`, `nodes=i,j`, or a profile file path
  std::optional<int32_t> max_partitions;
  std::optional<int32_t> min_nodes_per_partition;
  bool no_greedy = false;
  std::vector<std::pair<std::string, std::string>> options;  // --delegate-option KEY=VALUE
};

struct ReportOptions {
  std::string tool_version;
  std::vector<DelegateRequest> delegates;
  bool plan_arena = true;
  // Models with several subgraphs: the input-dependent facts of the first Invoke, whose effect on
  // every subgraph's memory the report then shows (Report::invoke, SubgraphReport::after_invoke).
  InvokeFacts invoke_facts;
};

// The profile a request names, with the request's partition settings and options applied.
Result<DelegateProfile> ResolveDelegateRequest(const DelegateRequest& request);

Result<Report> BuildReport(const Model& model, const ReportOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_BUILDER_H_
