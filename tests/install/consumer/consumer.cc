// Plans a model through the installed library, as a C++ user would: load, plan it with the gpu
// profile, build the report and its JSON, and print a few figures.
#include <iostream>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto model = tfa::LoadModelFile(argv[1]);
  if (!model.ok()) {
    std::cerr << model.status().message() << "\n";
    return 2;
  }
  auto gpu = tfa::ResolveDelegateSpec("gpu");
  if (!gpu.ok()) return 2;
  tfa::PlanOptions options;
  options.delegates.push_back(*gpu);
  auto plan = tfa::PlanModel(*model, options);
  if (!plan.ok()) return 2;
  auto report = tfa::BuildReport(*plan, "consumer");
  if (!report.ok()) return 2;
  const tfa::SubgraphReport& main = report->subgraphs[0];
  std::cout << "nodes: " << model->subgraphs[0].nodes.size()
            << ", partitions: " << main.partitions.size() << ", arena: " << main.arena->size
            << ", json: " << (tfa::ReportToJson(*report).empty() ? "empty" : "ok") << "\n";
  return 0;
}
