#include "runtime/interpreter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/arena/arena_planner.h"
#include "runtime/cpu_subset_delegate.h"
#include "runtime/input_generator.h"
#include "tests/support/gpu_mutants.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa::runtime {
namespace {

using tfa::testing::CorpusModelNames;
using tfa::testing::CorpusModelPath;
using tfa::testing::GpuMutant;
using tfa::testing::GpuMutants;
using tfa::testing::OraclePath;
using tfa::testing::ProcessTempPath;
using tfa::testing::ReadJsonFile;
using tfa::testing::RebuildGpuMutant;

// Compares the first values of every oracle output; returns the largest error seen, where the
// error of one value is min(absolute, relative) so that 1e-4 means "1e-4 absolute or relative".
double CompareOutputs(Interpreter& interpreter, const nlohmann::json& oracle,
                      const std::string& name) {
  double worst = 0;
  for (const auto& expected : oracle["output_tensors"]) {
    const int32_t index = expected["tensor"].get<int32_t>();
    const RuntimeTensor& tensor = interpreter.tensor(index);
    const auto values = expected["values"].get<std::vector<double>>();
    EXPECT_LE(values.size(), static_cast<size_t>(tensor.NumElements()))
        << name << " tensor " << index;
    const float* actual = tensor.Data<const float>();
    for (size_t i = 0; i < values.size() && i < static_cast<size_t>(tensor.NumElements()); ++i) {
      const double a = actual[i], e = values[i];
      const double abs_error = std::abs(a - e);
      const double error = std::min(abs_error, abs_error / std::max(std::abs(e), 1e-30));
      if (!(error <= 1e-4)) {
        ADD_FAILURE() << name << " tensor " << index << " value " << i << ": " << a
                      << " vs upstream " << e;
        return error;
      }
      worst = std::max(worst, error);
    }
  }
  return worst;
}

std::vector<std::string> InvokedCorpusModels() {
  std::vector<std::string> names;
  for (const std::string& name : CorpusModelNames()) {
    const auto oracle = ReadJsonFile(OraclePath("models/" + name + ".none.json"));
    if (oracle.value("invoke", "") == "ok" && oracle.contains("output_tensors"))
      names.push_back(name);
  }
  return names;
}

class CorpusRunTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusRunTest, OutputsMatchUpstreamAndTheArenaIsThePlan) {
  const std::string& name = GetParam();
  const auto oracle = ReadJsonFile(OraclePath("models/" + name + ".none.json"));
  auto interpreter = Interpreter::Create(CorpusModelPath(name));
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  EXPECT_EQ(run.stats().arena_bytes, run.arena_plan().arena_size);
  EXPECT_EQ(run.stats().persistent_arena_bytes, run.arena_plan().persistent_arena_size);
  auto plan = PlanArena(run.execution_graph());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(run.arena_plan().arena_size, plan->arena_size);
  // With the Prepare replay the plan is upstream's: the committed arenas are upstream's figures.
  EXPECT_EQ(run.stats().arena_bytes, oracle["arena_size"].get<uint64_t>());
  EXPECT_EQ(run.stats().persistent_arena_bytes, oracle["arena_persist_size"].get<uint64_t>());
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  const double worst = CompareOutputs(run, oracle, name);
  RecordProperty("max_error", std::to_string(worst));
  std::cout << name << ": max error " << worst << ", arena " << run.stats().arena_bytes
            << " bytes, scratch " << run.stats().scratch_bytes << " bytes\n";
  EXPECT_EQ(run.stats().timings.size(), run.execution_graph().execution_plan.size());
  EXPECT_EQ(run.stats().copies.transitions, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRunTest, ::testing::ValuesIn(InvokedCorpusModels()),
                         [](const auto& info) { return info.param; });

std::vector<std::string> PlannedOnlyCorpusModels() {
  std::vector<std::string> names;
  for (const std::string& name : CorpusModelNames()) {
    const auto oracle = ReadJsonFile(OraclePath("models/" + name + ".none.json"));
    if (oracle.value("invoke", "") != "ok") names.push_back(name);
  }
  return names;
}

// Upstream did not invoke the models with mediapipe's custom ops (selfie segmentation's
// Convolution2DTransposeBias, face_landmark_with_attention's Landmarks2TransformMatrix,
// TransformLandmarks, TransformTensorBilinear) but planned them; ours runs them on upstream's
// arena, and NaN poisoning would show any element a kernel left unwritten or the plan let
// another tensor overwrite.
class PlannedOnlyCorpusRunTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PlannedOnlyCorpusRunTest, RunsOnUpstreamsArenaToFiniteOutputs) {
  const std::string& name = GetParam();
  const auto oracle = ReadJsonFile(OraclePath("models/" + name + ".none.json"));
  auto interpreter = Interpreter::Create(CorpusModelPath(name));
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  auto plan = PlanArena(run.execution_graph());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(run.stats().arena_bytes, plan->arena_size);
  EXPECT_EQ(run.stats().arena_bytes, oracle["arena_size"].get<uint64_t>());
  EXPECT_EQ(run.stats().persistent_arena_bytes, oracle["arena_persist_size"].get<uint64_t>());
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  for (int32_t t : run.outputs()) {
    const RuntimeTensor& out = run.tensor(t);
    const float* v = out.Data<const float>();
    for (int64_t i = 0; i < out.NumElements(); ++i) {
      ASSERT_TRUE(std::isfinite(v[i])) << name << " tensor " << t << " element " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, PlannedOnlyCorpusRunTest,
                         ::testing::ValuesIn(PlannedOnlyCorpusModels()),
                         [](const auto& info) { return info.param; });

TEST(InterpreterTest, EveryCorpusModelRuns) {
  EXPECT_EQ(InvokedCorpusModels().size() + PlannedOnlyCorpusModels().size(),
            CorpusModelNames().size());
  EXPECT_EQ(PlannedOnlyCorpusModels(),
            (std::vector<std::string>{"selfie_segmentation__selfie_segmentation",
                                      "selfie_segmentation__selfie_segmentation_landscape",
                                      "face_mesh__face_landmark_with_attention"}));
}

// hlf_custom_early: hand_landmark_full with node 17 turned into an unknown custom op.
TEST(InterpreterTest, MissingKernelIsAOneLineErrorNamingTheNode) {
  const std::filesystem::path dir = ProcessTempPath("missing_kernel");
  std::filesystem::create_directories(dir);
  std::string model;
  for (const GpuMutant& mutant : GpuMutants()) {
    if (mutant.name == "hlf_custom_early") model = RebuildGpuMutant(mutant, dir.string());
  }
  ASSERT_FALSE(model.empty());
  auto interpreter = Interpreter::Create(model);
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(interpreter.ok());
  EXPECT_NE(interpreter.status().message().find(
                "node 17 (MutantUnknownOp): the runtime has no kernel for this op"),
            std::string::npos)
      << interpreter.status().message();
}

// The measured arena does not depend on the data: a kernel that writes the fill pattern's own
// value into the arena's last byte still wrote it (a conformer measured 22,260,823 bytes of its
// 22,260,824 with one input seed and passed with others).
TEST(InterpreterTest, TheWrittenArenaCountsAnOutputHoldingTheFillValue) {
  ModelBuilder builder("fill_value_at_the_top");
  builder.AddSubgraph("main");
  const int32_t input = builder.AddTensor(0, "input", TensorType::kFloat32, {16});
  const int32_t zero = builder.AddConstant(0, "zero", TensorType::kFloat32, {1}, FloatBytes({0}));
  const int32_t output = builder.AddTensor(0, "output", TensorType::kFloat32, {16});
  builder.AddNode(0, "ADD", {input, zero}, {output});
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {output});
  SyntheticModel model = std::move(builder).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  const std::string path = tfa::testing::WriteTempFile("fill_value_at_the_top.tflite",
                                                       std::string(bytes.begin(), bytes.end()));
  auto interpreter = Interpreter::Create(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  const TensorPlacement& top = run.arena_plan().tensors[static_cast<size_t>(output)];
  ASSERT_EQ(top.offset + 64, run.arena_plan().arena_size);
  // Before the run the output holds the pattern; its last byte is the top of a float's exponent
  // (0x7f or 0xff), which +-2e38 has too.
  const uint8_t fill = run.tensor(output).data[63];
  ASSERT_TRUE(fill == 0x7f || fill == 0xff);
  float* in = run.tensor(input).Data<float>();
  std::fill(in, in + 16, 1.0f);
  in[15] = fill == 0x7f ? 2e38f : -2e38f;
  ASSERT_TRUE(run.Invoke().ok());
  ASSERT_EQ(run.tensor(output).data[63], fill);
  EXPECT_EQ(run.stats().arena_bytes_written, run.arena_plan().arena_size);
}

// The conv-dw-add oracle config: a delegate claiming CONV_2D, DEPTHWISE_CONV_2D and ADD. The
// runtime's delegated plan must be upstream's, and the outputs must not change.
TEST(InterpreterTest, DelegatedRunReproducesUpstreamPlanAndOutputs) {
  const std::string name = "face_detection__face_detection_short_range";
  const auto delegated = ReadJsonFile(OraclePath("models/" + name + ".conv-dw-add.json"));
  const auto reference = ReadJsonFile(OraclePath("models/" + name + ".none.json"));
  CpuSubsetDelegate delegate("conv-dw-add", {"CONV_2D", "DEPTHWISE_CONV_2D", "ADD"});
  InterpreterOptions options;
  options.delegates = {&delegate};
  auto interpreter = Interpreter::Create(CorpusModelPath(name), options);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  const Subgraph& graph = run.execution_graph();
  ASSERT_EQ(graph.execution_plan.size(), delegated["execution_plan"].size());
  uint64_t to_delegate = 0, from_delegate = 0, uploaded = 0;
  for (size_t i = 0; i < graph.execution_plan.size(); ++i) {
    const auto& expected = delegated["execution_plan"][i];
    const Node& node = graph.nodes[static_cast<size_t>(graph.execution_plan[i])];
    EXPECT_EQ(graph.execution_plan[i], expected["node"].get<int32_t>());
    EXPECT_EQ(node.inputs, expected["inputs"].get<std::vector<int32_t>>());
    EXPECT_EQ(node.outputs, expected["outputs"].get<std::vector<int32_t>>());
    if (!expected.contains("delegate")) continue;
    EXPECT_EQ(node.replaces, expected["delegate"]["nodes_to_replace"].get<std::vector<int32_t>>());
    for (int32_t t : node.inputs) {
      const Tensor& tensor = graph.tensors[static_cast<size_t>(t)];
      (tensor.is_constant() ? uploaded : to_delegate) += tensor.bytes_or_zero();
    }
    for (int32_t t : node.outputs)
      from_delegate += graph.tensors[static_cast<size_t>(t)].bytes_or_zero();
  }
  EXPECT_EQ(run.stats().arena_bytes, delegated["arena_size"].get<uint64_t>());
  EXPECT_EQ(run.stats().persistent_arena_bytes, delegated["arena_persist_size"].get<uint64_t>());
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  CompareOutputs(run, reference, name);
  EXPECT_EQ(run.stats().copies.bytes_to_delegate, to_delegate);
  EXPECT_EQ(run.stats().copies.bytes_from_delegate, from_delegate);
  EXPECT_EQ(run.stats().copies.init_upload_bytes, uploaded);
  EXPECT_EQ(run.stats().copies.transitions,
            2 * delegated["summary"]["delegate_kernels"].get<int32_t>());
}

TEST(InterpreterTest, OverlappingLiveBlocksAreRejected) {
  ArenaPlan plan;
  plan.rw_blocks = {{0, 0, 128, 0, 2}, {1, 64, 64, 1, 3}};
  const Status status = CheckArenaPlanDisjoint(plan);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "arena plan places tensors 0 and 1 in overlapping bytes while both are live");
  plan.rw_blocks[1].first_step = 3;  // no longer live together
  EXPECT_TRUE(CheckArenaPlanDisjoint(plan).ok());
}

}  // namespace
}  // namespace tfa::runtime
