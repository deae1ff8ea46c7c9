#include "delegates_sim/simulated_delegate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

std::unique_ptr<Interpreter> InvokeOnce(const std::string& path, std::vector<Delegate*> delegates) {
  InterpreterOptions options;
  options.delegates = std::move(delegates);
  auto interpreter = Interpreter::Create(path, options);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  if (!interpreter.ok()) return nullptr;
  FillDeterministicInputs(**interpreter, 1);
  const Status invoked = (*interpreter)->Invoke();
  EXPECT_TRUE(invoked.ok()) << invoked.message();
  return invoked.ok() ? std::move(*interpreter) : nullptr;
}

// NNAPI keeps its three largest partitions of the face detector: the simulated delegate must
// take the same ones, move the predicted bytes and leave the outputs bit for bit unchanged.
TEST(SimulatedDelegateTest, NnapiOnFaceDetectionCostsWhatTheReportPredicts) {
  const std::string path =
      tfa::testing::CorpusModelPath("face_detection__face_detection_short_range");
  auto delegate = CreateSimulatedDelegate("nnapi");
  ASSERT_TRUE(delegate.ok()) << delegate.status().message();
  auto simulated = InvokeOnce(path, {delegate->get()});
  auto cpu = InvokeOnce(path, {});
  ASSERT_TRUE(simulated && cpu);

  auto model = LoadModelFile(path);
  ASSERT_TRUE(model.ok());
  ReportOptions options;
  DelegateRequest request;
  request.spec = "nnapi";
  options.delegates.push_back(request);
  options.plan_arena = false;
  auto report = BuildReport(*model, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const SubgraphReport& predicted = report->subgraphs[0];

  int32_t partitions = 0;
  const Subgraph& graph = simulated->execution_graph();
  for (int32_t node : graph.execution_plan)
    partitions += graph.nodes[static_cast<size_t>(node)].kind == NodeKind::kDelegateKernel;
  EXPECT_EQ(partitions, predicted.delegated_partition_count);
  // The model has fp16 weights: NNAPI's FP16 weight remapping delegates it whole.
  EXPECT_EQ(partitions, 1);

  const SimulatedCosts& costs = (*delegate)->costs();
  EXPECT_EQ(costs.evals, 1);
  EXPECT_EQ(costs.bytes_to_delegate, predicted.copy.bytes_to_delegate);
  EXPECT_EQ(costs.bytes_from_delegate, predicted.copy.bytes_from_delegate);
  EXPECT_EQ(costs.init_upload_bytes, predicted.copy.init_upload_bytes);
  EXPECT_EQ(static_cast<uint64_t>(costs.transitions), predicted.copy.transitions);
  const TransferCosts& transfer = (*delegate)->profile().transfer;
  EXPECT_DOUBLE_EQ(costs.estimated_copy_seconds,
                   transfer.EstimatedCopySeconds(
                       predicted.copy.bytes_to_delegate + predicted.copy.bytes_from_delegate,
                       static_cast<int64_t>(predicted.copy.transitions)));
  EXPECT_GT(costs.compute_seconds, 0.0);
  EXPECT_EQ(simulated->stats().copies.bytes_to_delegate, costs.bytes_to_delegate);

  for (int32_t output : cpu->outputs()) {
    const RuntimeTensor& expected = cpu->tensor(output);
    const RuntimeTensor& actual = simulated->tensor(output);
    ASSERT_EQ(expected.bytes, actual.bytes);
    for (int64_t i = 0; i < expected.NumElements(); ++i)
      ASSERT_EQ(actual.Data<const float>()[i], expected.Data<const float>()[i]) << i;
  }
}

TEST(SimulatedDelegateTest, UnknownProfileIsAnError) {
  auto delegate = CreateSimulatedDelegate("hexagon-that-does-not-exist.json");
  EXPECT_FALSE(delegate.ok());
}

}  // namespace
}  // namespace tfa::runtime
