// Every int8 model of the oracle sets (tests/oracle: the post-training-quantized corpus models of
// int8/, the external models and the model-family miniatures with int8 or uint8 tensors) under the
// gpu profile on the OpenCL delegate:
// - a model `report` delegates runs on the delegate (the delegate takes exactly what the report
//   says it takes), with the partitions, boundary bytes and arena the analyser predicts (upstream's
//   own arena where the oracle has it);
// - every delegated node within one quantization step of the CPU's integer kernels on the CPU's
//   own inputs (float outputs within 1e-3; 2e-2 on hybrid models, below), the node-by-node check
//   of `run --validate --find-divergence`. The whole model's outputs differ by more (the float path
//   never requantizes), which `run --validate` reports as drift.
// Models the CPU kernels refuse (upstream refuses them too, or their integer inputs need real
// values) are skipped with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/divergence_finder.h"
#include "runtime/input_generator.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using testing::ExpectPredictionMatches;
using testing::Measure;
using testing::PredictDelegation;

OpenClDelegate* SharedDelegate() {
  static std::unique_ptr<Delegate> delegate = [] {
    auto created = CreateOpenClDelegate();
    return created.ok() ? std::move(*created) : nullptr;
  }();
  return static_cast<OpenClDelegate*>(delegate.get());
}

// Whether the model has an int8 or uint8 tensor; with `non_constant`, one that is not a constant
// (a model with int8 weights only is hybrid: its CPU kernels quantize float activations).
bool HasEightBitTensor(const std::string& path, bool non_constant = false) {
  auto model = LoadModelFile(path);
  if (!model.ok()) return false;
  for (const Subgraph& subgraph : model->subgraphs) {
    for (const Tensor& t : subgraph.tensors) {
      if ((t.type == TensorType::kInt8 || t.type == TensorType::kUInt8) &&
          !(non_constant && t.is_constant()))
        return true;
    }
  }
  return false;
}

// Oracle-relative paths ("int8/face_landmark_int8.tflite") of the int8 models. Under
// AddressSanitizer (CI's second stage, 10-30x slower) the models up to 64 kB: the external and
// family ones, which cover the quantized boundary, per-channel weights, hybrid weights and the
// kernel-init refusal; the plain stage runs them all.
std::vector<std::string> Int8Models() {
#if defined(__SANITIZE_ADDRESS__)
  constexpr uintmax_t kMaxBytes = 64 * 1024;
#else
  constexpr uintmax_t kMaxBytes = UINTMAX_MAX;
#endif
  std::vector<std::string> models;
  for (const char* dir : {"int8", "external", "families"}) {
    const std::filesystem::path root = tfa::testing::OraclePath(dir);
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
      if (entry.path().extension() != ".tflite" || entry.file_size() > kMaxBytes) continue;
      if (!HasEightBitTensor(entry.path().string())) continue;
      models.push_back(std::string(dir) + "/" + entry.path().filename().string());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

class OpenClInt8ModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OpenClInt8ModelTest, RunsWhatReportDelegatesWithEveryNodeWithinAStep) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  const std::string path = tfa::testing::OraclePath(GetParam());
  const auto start = std::chrono::steady_clock::now();
  {
    auto cpu = Interpreter::Create(path);
    if (!cpu.ok()) GTEST_SKIP() << "the CPU run refuses it: " << cpu.status().message();
    FillDeterministicInputs(**cpu, 1);
    const Status invoked = (*cpu)->Invoke();
    if (!invoked.ok()) GTEST_SKIP() << "the CPU run refuses it: " << invoked.message();
  }
  const SubgraphReport predicted = PredictDelegation(path, {"gpu"}, /*plan_arena=*/true);
  InterpreterOptions options;
  options.delegates = {SharedDelegate()};
  auto gpu = Interpreter::Create(path, options);
  ASSERT_TRUE(gpu.ok()) << "report delegates " << predicted.delegated_partition_count
                        << " partition(s), the OpenCL run refuses: " << gpu.status().message();
  FillDeterministicInputs(**gpu, 1);
  const Status invoked = (*gpu)->Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  const auto measured = Measure(**gpu);
  ExpectPredictionMatches(predicted, measured);
  const std::string oracle = path.substr(0, path.size() - 7) + ".gpu.json";
  if (std::filesystem::exists(oracle)) {
    EXPECT_EQ(measured.arena_bytes,
              tfa::testing::ReadJsonFile(oracle)["arena_size"].get<uint64_t>());
  }
  if (measured.delegated_partitions == 0) {
    std::cout << GetParam() << ": the gpu profile delegates no node\n";
    return;
  }
  // A hybrid model's CPU kernels quantize each float input row to int8 (dynamic range) before
  // the integer dot product, about half of 1/127 of the row's range per input, where the delegate
  // computes in float with dequantized weights, as upstream's does. The node check then holds
  // its float outputs to 2e-2 (transformer_encoder_hybrid's FULLY_CONNECTED nodes reach 1.1e-2).
  const bool hybrid = !HasEightBitTensor(path, /*non_constant=*/true);
  auto found = FindFirstDivergence(path, *SharedDelegate(), {.tolerance = hybrid ? 2e-2 : 1e-3});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_FALSE(found->first.has_value())
      << "node " << found->first->node << " (" << found->first->op
      << "): " << found->first->max_error << (found->first->in_steps ? " steps" : "");
  double worst_steps = 0, worst_float = 0;
  for (const NodeError& node : found->nodes) {
    (node.in_steps ? worst_steps : worst_float) =
        std::max(node.in_steps ? worst_steps : worst_float, node.max_error);
  }
  std::cout << GetParam() << ": " << measured.delegated_partitions << " partition(s), "
            << found->nodes.size() << " nodes compared in " << found->runs
            << " runs, worst quantized " << worst_steps << " steps, worst float " << worst_float
            << ", "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
}

INSTANTIATE_TEST_SUITE_P(
    Oracle, OpenClInt8ModelTest, ::testing::ValuesIn(Int8Models()), [](const auto& info) {
      std::string name = info.param.substr(0, info.param.size() - 7);
      std::replace_if(
          name.begin(), name.end(),
          [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
      return name;
    });

}  // namespace
}  // namespace tfa::runtime
