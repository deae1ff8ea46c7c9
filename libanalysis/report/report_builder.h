// Builds the Report from a ModelPlan (libanalysis/plan/model_plan.h): the partitions each
// subgraph ended with, copy costs per delegated partition, the arena after delegation and on the
// plain CPU plan, and what the first Invoke left in each subgraph of a model with control flow.
// The report derives nothing itself: every figure is the plan's.
#ifndef LIBANALYSIS_REPORT_REPORT_BUILDER_H_
#define LIBANALYSIS_REPORT_REPORT_BUILDER_H_

#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/invoke_facts.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report.h"

namespace tfa {

struct ReportOptions {
  std::string tool_version;
  std::vector<DelegateRequest> delegates;
  bool plan_arena = true;
  // Models with several subgraphs: the input-dependent facts of the first Invoke, whose effect on
  // every subgraph's memory the report then shows (Report::invoke, SubgraphReport::after_invoke).
  InvokeFacts invoke_facts;
};

// Errors name the subgraph whose delegate memory cannot be sized (a tensor of unknown size).
[[nodiscard]] Result<Report> BuildReport(const ModelPlan& plan, const std::string& tool_version);

// Resolves the delegates, plans the model (PlanModel) and builds its report.
[[nodiscard]] Result<Report> BuildReport(const Model& model, const ReportOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_BUILDER_H_
