#include "cli/run_prediction_checks.h"

#include <gtest/gtest.h>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/delegate_memory.h"
#include "libanalysis/report/gpu_device_memory.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// --memory-limit subtracts what this runtime's delegates will allocate. Its OpenCL delegate runs
// the GPU nodes unfused, so it needs more than the report's figure over upstream's fused tasks
// (on face_detection_short_range: 1,376,256 shared-tensor bytes unfused, 1,310,720 fused).
TEST(PredictedDelegateBytes, TheGpuFigureIsThisRuntimesUnfusedOne) {
  auto model =
      LoadModelFile(testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  DelegateRequest request;
  request.spec = "gpu";
  auto profile = ResolveDelegateRequest(request);
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  PlanOptions options;
  options.delegates.push_back(*profile);
  auto plan = PlanModel(*model, options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_TRUE(plan->subgraphs.at(0).delegated);
  auto fused = EstimateDelegateMemory(*plan->subgraphs[0].delegated, *profile,
                                      GpuMemoryOptionsFor(*profile));
  ASSERT_TRUE(fused.ok()) << fused.status().message();
  EXPECT_EQ(cli::PredictedDelegateBytes(*plan) - fused->total_bytes, 1376256u - 1310720u);
}

}  // namespace
}  // namespace tfa
