// Real models nobody in this project wrote (tests/oracle/external.tar.xz) run on the runtime as
// upstream's builtin interpreter runs them: on the deterministic inputs of seed 1, every model
// upstream can Invoke runs through the plan made for it (control-flow facts found by a first run
// on buffers of its own), and every subgraph the Invoke ran wrote no byte outside the arena the
// analyser predicted. The models upstream cannot Invoke on those inputs are refused with the
// reason, in one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "runtime/after_invoke_check.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "runtime/run_plan.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

Status FillSeedOne(Interpreter& interpreter) {
  FillDeterministicInputs(interpreter, 1);
  return Status::Ok();
}

// The plan, the interpreter and one Invoke on seed 1's inputs; the first error on the way.
Status RunOnce(const std::string& name, std::unique_ptr<Interpreter>& run, ModelPlan& plan) {
  auto model = LoadModelFile(testing::OraclePath("external/" + name + ".tflite"));
  if (!model.ok()) return model.status();
  auto planned = PlanForRun(*model, {}, {}, FillSeedOne);
  if (!planned.ok()) return planned.status();
  plan = std::move(planned).value();
  auto interpreter = Interpreter::Create(plan, {});
  if (!interpreter.ok()) return interpreter.status();
  run = std::move(interpreter).value();
  FillDeterministicInputs(*run, 1);
  return run->Invoke();
}

class ExternalModelsRunTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExternalModelsRunTest, RunsOnThePredictedArena) {
  std::unique_ptr<Interpreter> run;
  ModelPlan plan;
  const Status ran = RunOnce(GetParam(), run, plan);
  ASSERT_TRUE(ran.ok()) << ran.message();
  const RunStats& stats = run->stats();
  EXPECT_LE(stats.arena_bytes_written, stats.arena_bytes);
  for (const SubgraphMemoryCheck& check : CheckAfterInvoke(plan, run->entry_subgraph(), stats))
    EXPECT_TRUE(check.ok()) << "subgraph " << check.subgraph << ": predicted "
                            << check.predicted_arena << " measured " << check.measured_arena;
}

INSTANTIATE_TEST_SUITE_P(
    External, ExternalModelsRunTest,
    ::testing::Values(
        // A CALL_ONCE init subgraph planned at Eval, after a READ_VARIABLE's dynamic output.
        "LiteRT__tflite_testdata_call_once_mul",
        // Two dynamic nodes in one subgraph: a SHAPE-fed RESHAPE after the planning stop stops
        // the Prepare replay again (upstream's PrepareOpsStartingAt).
        "LiteRT__tflite_testdata_dynamic_shapes",
        // STABLEHLO_COMPOSITE runs its decomposition subgraph (with a BROADCAST_TO) on the CPU.
        "LiteRT__tflite_delegates_xnnpack_odml_sdpa_composite_gqa",
        // SVDF (int8, int16 state), the full LSTM op, int8 UNIDIRECTIONAL_SEQUENCE_LSTM.
        "tflite-micro__tensorflow_lite_micro_models_keyword_scrambled",
        "LiteRT__tflite_testdata_lstm", "coral-test_data__keras_lstm_mnist_ptq",
        // FULLY_CONNECTED with INT4 blockwise weights: the packed path's EvalBlockwise4Bit.
        "LiteRT__litert_test_testdata_qwen_fc_blockwise_quantized",
        "LiteRT__tflite_testdata_multi_subgraphs_while", "LiteRT__tflite_testdata_multi_add",
        "LiteRT__tflite_testdata_multi_signatures", "LiteRT__tflite_testdata_empty_model",
        "LiteRT__litert_test_testdata_island_partial", "LiteRT__litert_test_testdata_rope",
        "LiteRT__litert_js_packages_core_testdata_delegate_compatibility_test",
        "LiteRT__tflite_converter_quantization_lite_testdata_mixed16x8",
        "mediapipe__mediapipe_util_tflite_testdata_test_two_signature_keys_model",
        "tflite-micro__tensorflow_lite_micro_examples_hello_world_models_hello_world_int8",
        "tflite-micro__tensorflow_lite_micro_examples_micro_speech_models_micro_speech_quantized",
        "tflite-micro__tensorflow_lite_micro_testing_test_conv_model"),
    [](const auto& info) {
      std::string name;
      for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

struct Refusal {
  std::string model;
  std::string reason;  // a part of the one-line error
};

void PrintTo(const Refusal& refusal, std::ostream* os) { *os << refusal.model; }

class ExternalModelsRefusedTest : public ::testing::TestWithParam<Refusal> {};

TEST_P(ExternalModelsRefusedTest, RefusedWithTheReason) {
  std::unique_ptr<Interpreter> run;
  ModelPlan plan;
  const Status ran = RunOnce(GetParam().model, run, plan);
  ASSERT_FALSE(ran.ok());
  EXPECT_NE(ran.message().find(GetParam().reason), std::string::npos) << ran.message();
  EXPECT_EQ(ran.message().find('\n'), std::string::npos) << ran.message();
}

INSTANTIATE_TEST_SUITE_P(
    External, ExternalModelsRefusedTest,
    ::testing::Values(
        // The corpus README: upstream's Invoke fails on the segment ids.
        Refusal{"LiteRT__tflite_testdata_segment_sum_invalid_buffer", "SEGMENT_SUM"},
        // Without the Flex delegate upstream's AllocateTensors fails on unresolved ops.
        Refusal{"LiteRT__tflite_testdata_multi_add_flex", "FlexAddV2"},
        Refusal{"LiteRT__tflite_testdata_sparse_tensor", "FakeOp"},
        // Its SVDF state does not fit the weights: upstream's AllocateTensors fails.
        Refusal{"LiteRT__tflite_converter_quantization_lite_testdata_svdf_quantized",
                "the state must be [1, 42]"},
        // Seed 1 fills int32 inputs byte by byte: indices, k and output shapes out of range,
        // which upstream's kernels refuse at Eval as well.
        Refusal{"LiteRT__litert_test_testdata_simple_scatter_nd_op", "out of range"},
        Refusal{"LiteRT__litert_test_testdata_simple_topk_op_runtime_k", "TOPK_V2"},
        Refusal{"tflite-micro__tensorflow_lite_micro_integration_tests_seanet_transpose_conv_"
                "transpose_conv0",
                "out of range"}),
    [](const auto& info) {
      std::string name;
      for (char c : info.param.model) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

// Every model of the external set, whatever it is: a run or a one-line error, never a crash (the
// CI runs this under ASan and UBSan), a hang or memory past the limit.
TEST(ExternalModelsSweep, EveryModelRunsOrIsRefusedInOneLine) {
  int models = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath("external"))) {
    if (entry.path().extension() != ".tflite") continue;
    ++models;
    std::unique_ptr<Interpreter> run;
    ModelPlan plan;
    const Status ran = RunOnce(entry.path().stem().string(), run, plan);
    if (!ran.ok()) {
      EXPECT_EQ(ran.message().find('\n'), std::string::npos) << ran.message();
      EXPECT_FALSE(ran.message().empty()) << entry.path();
    }
  }
  EXPECT_GE(models, 28);
}

}  // namespace
}  // namespace tfa::runtime
