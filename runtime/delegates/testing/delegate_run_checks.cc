#include "runtime/delegates/testing/delegate_run_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "runtime/input_generator.h"
#include "tests/support/tool_runner.h"

namespace tfa::runtime::testing {

SubgraphReport PredictDelegation(const std::string& model_path,
                                 const std::vector<DelegationSpec>& specs, bool plan_arena) {
  auto model = LoadModelFile(model_path);
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  ReportOptions options;
  for (const DelegationSpec& spec : specs) {
    DelegateRequest request;
    request.spec = spec.spec;
    request.max_partitions = spec.max_partitions;
    options.delegates.push_back(request);
  }
  options.plan_arena = plan_arena;
  auto report = BuildReport(*model, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok() || report->subgraphs.empty()) return {};
  return report->subgraphs[0];
}

std::unique_ptr<Interpreter> RunModel(const std::string& model_path,
                                      const std::vector<Delegate*>& delegates) {
  InterpreterOptions options;
  options.delegates = delegates;
  auto interpreter = Interpreter::Create(model_path, options);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  if (!interpreter.ok()) return nullptr;
  FillDeterministicInputs(**interpreter, 1);
  const Status invoked = (*interpreter)->Invoke();
  EXPECT_TRUE(invoked.ok()) << invoked.message();
  if (!invoked.ok()) return nullptr;
  return std::move(*interpreter);
}

MeasuredDelegation Measure(const Interpreter& interpreter) {
  MeasuredDelegation measured;
  const Subgraph& graph = interpreter.execution_graph();
  for (int32_t index : graph.execution_plan) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    if (node.kind != NodeKind::kDelegateKernel) continue;
    ++measured.delegated_partitions;
    measured.partition_nodes.emplace_back(node.replaces.begin(), node.replaces.end());
    measured.partition_inputs.emplace_back(node.inputs.begin(), node.inputs.end());
    measured.partition_outputs.emplace_back(node.outputs.begin(), node.outputs.end());
  }
  measured.copies = interpreter.stats().copies;
  measured.arena_bytes = interpreter.stats().arena_bytes;
  measured.persistent_arena_bytes = interpreter.stats().persistent_arena_bytes;
  return measured;
}

void ExpectPredictionMatches(const SubgraphReport& predicted, const MeasuredDelegation& measured,
                             bool invoked) {
  EXPECT_EQ(predicted.delegated_partition_count, measured.delegated_partitions);
  std::vector<std::vector<int32_t>> nodes, inputs, outputs;
  for (const PartitionReport& partition : predicted.partitions) {
    if (partition.kind != PartitionReport::Kind::kDelegate) continue;
    nodes.emplace_back(partition.nodes.begin(), partition.nodes.end());
    inputs.emplace_back(partition.inputs.begin(), partition.inputs.end());
    outputs.emplace_back(partition.outputs.begin(), partition.outputs.end());
  }
  EXPECT_EQ(nodes, measured.partition_nodes);
  EXPECT_EQ(inputs, measured.partition_inputs);
  EXPECT_EQ(outputs, measured.partition_outputs);
  EXPECT_EQ(predicted.copy.init_upload_bytes, measured.copies.init_upload_bytes);
  if (predicted.arena) {
    EXPECT_EQ(predicted.arena->size, measured.arena_bytes);
    EXPECT_EQ(predicted.arena->persistent_size, measured.persistent_arena_bytes);
  }
  if (!invoked) return;
  EXPECT_EQ(predicted.copy.bytes_to_delegate, measured.copies.bytes_to_delegate);
  EXPECT_EQ(predicted.copy.bytes_from_delegate, measured.copies.bytes_from_delegate);
  EXPECT_EQ(predicted.copy.transitions, static_cast<uint64_t>(measured.copies.transitions));
}

double MaxOutputError(const Interpreter& actual, const Interpreter& expected) {
  double worst = 0;
  EXPECT_EQ(actual.outputs(), expected.outputs());
  for (int32_t index : expected.outputs()) {
    const RuntimeTensor& a = actual.tensors()[static_cast<size_t>(index)];
    const RuntimeTensor& e = expected.tensors()[static_cast<size_t>(index)];
    if (e.type != TensorType::kFloat32) continue;
    EXPECT_EQ(a.shape, e.shape) << "output tensor " << index;
    const int64_t n = std::min(a.NumElements(), e.NumElements());
    for (int64_t i = 0; i < n; ++i) {
      const double x = a.Data<const float>()[i], y = e.Data<const float>()[i];
      const double abs_error = std::abs(x - y);
      const double error = std::min(abs_error, abs_error / std::max(std::abs(y), 1e-30));
      // NaN compares false everywhere: make it the worst error there is.
      worst = std::isnan(error) ? INFINITY : std::max(worst, error);
    }
  }
  return worst;
}

std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes) {
  const std::string path = tfa::testing::ProcessTempPath(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(out.good()) << path;
  return path;
}

}  // namespace tfa::runtime::testing
