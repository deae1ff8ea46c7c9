// Plan steps in model terms. The arena is planned on an execution plan (after delegation, after
// the kernels' Prepare added temporaries), so its figures name steps; people read model nodes.
#ifndef LIBANALYSIS_REPORT_PLAN_STEP_NODE_H_
#define LIBANALYSIS_REPORT_PLAN_STEP_NODE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa {

// What `planned` runs at `step` (a position in its execution plan, or in node order when it has
// none); an empty op when the step is out of range.
PlanStepNode NodeAtStep(const Subgraph& planned, int32_t step);

// Every kernel temporary of `planned` and the node that adds it (one record per node, shared by
// its temporaries).
std::map<int32_t, std::shared_ptr<const PlanStepNode>> TemporaryOwners(const Subgraph& planned);

// "CONV_2D #12", or "the gpu delegate kernel": how reports name what runs at a step.
std::string PlanStepNodeText(const PlanStepNode& node);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_PLAN_STEP_NODE_H_
