// End-to-end tests of --target tflm|tflm-32 on report, arena, gate and diff.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

std::string TflmModel(const std::string& name) {
  return testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_" + name + ".tflite");
}

std::string WriteModel(const std::string& name, SyntheticModel synthetic) {
  const std::string path = testing::FreshDir("tflm_" + name) + "/" + name + ".tflite";
  const std::vector<uint8_t> bytes = WriteTflite(synthetic.model, synthetic.data);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

Quantization PerTensor(float scale, int64_t zero_point) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

// A uint8 CONV_2D, as the old quantization scheme (coral's *_quant.tflite) writes it.
std::string Uint8ConvModel() {
  ModelBuilder b("uint8_conv");
  b.AddSubgraph("main");
  const int32_t input =
      b.AddTensor(0, "input", TensorType::kUInt8, {1, 8, 8, 3}, PerTensor(0.5f, 128));
  const int32_t filter =
      b.AddConstant(0, "filter", TensorType::kUInt8, {4, 3, 3, 3},
                    std::vector<uint8_t>(4 * 3 * 3 * 3, 1), PerTensor(0.25f, 128));
  const int32_t output =
      b.AddTensor(0, "output", TensorType::kUInt8, {1, 8, 8, 4}, PerTensor(0.5f, 128));
  OpOptions conv;
  conv.padding = Padding::kSame;
  b.AddNode(0, "CONV_2D", {input, filter}, {output}, conv);
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  return WriteModel("uint8_conv", std::move(b).Finish());
}

// A float16 model as the converter writes it: float16 weights, a DEQUANTIZE to float32 first.
std::string Float16WeightsModel() {
  ModelBuilder b("fp16_weights");
  b.AddSubgraph("main");
  const int32_t weights = b.AddConstant(0, "weights_fp16", TensorType::kFloat16, {4, 8},
                                        Float16Bytes(std::vector<float>(32, 0.5f)));
  const int32_t dequantized = b.AddTensor(0, "weights", TensorType::kFloat32, {4, 8});
  const int32_t input = b.AddTensor(0, "input", TensorType::kFloat32, {1, 8});
  const int32_t output = b.AddTensor(0, "output", TensorType::kFloat32, {1, 4});
  b.AddNode(0, "DEQUANTIZE", {weights}, {dequantized});
  b.AddNode(0, "FULLY_CONNECTED", {input, dequantized}, {output});
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  return WriteModel("fp16_weights", std::move(b).Finish());
}

TEST(TflmTargetCommand, ReportPrintsTheArenaAndTheResolver) {
  ToolRun run = RunTool("report --target tflm " + TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  head                             672"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  tail                           14264"), std::string::npos);
  EXPECT_NE(run.out.find("tflite::MicroMutableOpResolver<4> resolver;\n"
                         "resolver.AddQuantize();\nresolver.AddSvdf();\n"
                         "resolver.AddFullyConnected();\nresolver.AddSoftmax();\n"),
            std::string::npos)
      << run.out;
}

TEST(TflmTargetCommand, JsonCarriesTheTflmObject) {
  ToolRun run = RunTool("report --json --target tflm " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("tflm").at("target"), "tflm");
  EXPECT_EQ(j.at("tflm").at("head"), 7744);
  EXPECT_EQ(j.at("tflm").at("tail"), 2088);
  EXPECT_EQ(j.at("tflm").at("resolver").size(), 6u);
}

TEST(TflmTargetCommand, ArenaSummarisesOnA32BitTarget) {
  ToolRun run = RunTool("arena --target tflm-32 " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("tflm-32, 32-bit microcontroller"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("recommended kTensorArenaSize"), std::string::npos);
}

TEST(TflmTargetCommand, AnOpWithoutATflmKernelExitsTwoNamingIt) {
  ToolRun run = RunTool("report --target tflm " +
                        testing::OraclePath("external/LiteRT__tflite_testdata_lstm.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (LSTM): TFLite Micro has no kernel for LSTM (rules of "),
            std::string::npos)
      << run.err;
}

// Where TFLite Micro's kernels refuse a model in Prepare, so does --target tflm, with TFLM's own
// error line and exit 2: never an arena size for a model that cannot run
// (tflite-micro 90b983c2b3f1's error lines, external/tflm/*.tflm.json `status`).
TEST(TflmTargetCommand, HybridConvIsRefusedWithTflmsReason) {
  ToolRun run = RunTool("report --target tflm " + Uint8ConvModel());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("node 0 (CONV_2D): TFLite Micro refuses it in Prepare: Hybrid models are "
                         "not supported on TFLite Micro. (conv_common.cc: input UINT8, filter "
                         "UINT8)"),
            std::string::npos)
      << run.err;
}

TEST(TflmTargetCommand, Int4WeightsWithFloatInputAreRefused) {
  ToolRun run = RunTool("arena --target tflm-32 " +
                        testing::OraclePath("external/LiteRT__litert_test_testdata_qwen_fc_"
                                            "blockwise_quantized.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (FULLY_CONNECTED): TFLite Micro refuses it in Prepare: Input "
                         "type: FLOAT32 with filter type: INT4 not supported."),
            std::string::npos)
      << run.err;
}

TEST(TflmTargetCommand, SvdfStateShapeTflmRejectsIsRefused) {
  ToolRun run = RunTool("report --json --target tflm " +
                        testing::OraclePath("external/LiteRT__tflite_converter_quantization_lite_"
                                            "testdata_svdf_quantized.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (SVDF): TFLite Micro refuses it in Prepare: "
                         "output->dims->data[1] != num_units (4 != 6)"),
            std::string::npos)
      << run.err;
}

TEST(TflmTargetCommand, Float16DequantizeIsRefused) {
  ToolRun run = RunTool("report --target tflm " + Float16WeightsModel());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (DEQUANTIZE): TFLite Micro refuses it in Prepare: input->type == "
                         "kTfLiteInt8 || input->type == kTfLiteInt16 || input->type == "
                         "kTfLiteUInt8 was not true. (dequantize_common.cc: input FLOAT16)"),
            std::string::npos)
      << run.err;
}

// TFLite Micro's own 32-bit figures come from an x86 -m32 build (i386 ABI) measured with
// RecordingMicroAllocator: keyword_scrambled's model-only tail is 12,680 there and
// arena_used_bytes() 13,588 (external/tflm/*.tflm32.json). A Cortex-M build (AAPCS, plain
// MicroAllocator) needs 12,688 and 13,492, the replay's prediction.
TEST(TflmTargetCommand, AbiI386WithTheRecordingAllocatorReproducesTflmsThirtyTwoBitFigures) {
  ToolRun run = RunTool("report --json --target tflm-32 --abi i386 --recording-allocator " +
                        TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out).at("tflm");
  EXPECT_EQ(j.at("abi"), "i386");
  EXPECT_EQ(j.at("recording_allocator"), true);
  EXPECT_EQ(j.at("head"), 672);
  EXPECT_EQ(j.at("tail"), 12680);
  EXPECT_EQ(j.at("arena_used_bytes"), 13588);
  ToolRun cortex_m =
      RunTool("report --json --target tflm-32 " + TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(cortex_m.exit_code, 0) << cortex_m.err;
  const auto k = nlohmann::json::parse(cortex_m.out).at("tflm");
  EXPECT_EQ(k.at("abi"), "aapcs");
  EXPECT_EQ(k.at("tail"), 12688);
  EXPECT_EQ(k.at("arena_used_bytes"), 13492);
}

// TF_LITE_STATIC_MEMORY (external/tflm/*.tflm_static.json): test_conv_model's tail is 1,832.
TEST(TflmTargetCommand, StaticMemoryShrinksTheTail) {
  ToolRun run =
      RunTool("arena --json --target tflm --static-memory " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out).at("tflm");
  EXPECT_EQ(j.at("static_memory"), true);
  EXPECT_EQ(j.at("head"), 7744);
  EXPECT_EQ(j.at("tail"), 1832);
  EXPECT_EQ(j.at("struct_sizes").at("TfLiteTensor"), 64);
}

TEST(TflmTargetCommand, BuildFlagsNeedTheirTarget) {
  ToolRun no_target = RunTool("report --static-memory " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(no_target.exit_code, 2);
  EXPECT_NE(no_target.err.find("--static-memory and --recording-allocator apply to --target"),
            std::string::npos)
      << no_target.err;
  ToolRun host = RunTool("report --target tflm --abi i386 " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(host.exit_code, 2);
  EXPECT_NE(host.err.find("--abi applies to --target tflm-32"), std::string::npos) << host.err;
  ToolRun unknown =
      RunTool("report --target tflm-32 --abi win32 " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--abi: unknown ABI \"win32\" (known: aapcs, i386)"),
            std::string::npos)
      << unknown.err;
}

// --arena-budget against the recommended kTensorArenaSize: test_conv_model on a 32-bit target
// recommends 9,343 bytes (arena_used_bytes 9,328, rounded to 16, + 15).
TEST(TflmTargetCommand, ArenaBudgetSaysWhetherTheModelFits) {
  const std::string model = TflmModel("testing_test_conv_model");
  ToolRun fits = RunTool("arena --target tflm-32 --arena-budget 16K " + model);
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_NE(fits.out.find("arena budget                   16384  16.4 kB  fits: 7041 bytes"),
            std::string::npos)
      << fits.out;
  ToolRun over = RunTool("report --json --target tflm-32 --arena-budget 8192 " + model);
  EXPECT_EQ(over.exit_code, 1) << over.err;
  const auto budget = nlohmann::json::parse(over.out).at("tflm").at("arena_budget");
  EXPECT_EQ(budget.at("bytes"), 8192);
  EXPECT_EQ(budget.at("needed"), 9343);
  EXPECT_EQ(budget.at("fits"), false);
  EXPECT_EQ(budget.at("spare"), 8192 - 9343);
  ToolRun bad = RunTool("arena --target tflm --arena-budget 256KB " + model);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--arena-budget: expected bytes, or a number with K or M"),
            std::string::npos)
      << bad.err;
}

TEST(TflmTargetCommand, UnknownTargetExitsTwo) {
  ToolRun run = RunTool("report --target tflm-64 " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown target \"tflm-64\""), std::string::npos) << run.err;
}

// TFLite Micro cannot resize an input: a shape asked of --target tflm is refused, not ignored.
TEST(TflmTargetCommand, AnInputShapeIsRefusedNotIgnored) {
  for (const char* command : {"report", "arena"}) {
    ToolRun run = RunTool(std::string(command) + " --target tflm --input-shape 0=1,49,40,1 " +
                          TflmModel("testing_test_conv_model"));
    EXPECT_EQ(run.exit_code, 2) << command << run.out;
    EXPECT_NE(run.err.find("--input-shape: TFLite Micro plans the shapes in the file"),
              std::string::npos)
        << run.err;
  }
}

TEST(TflmTargetCommand, GateRecordsAndChecksTheTflmArena) {
  const std::string baseline = testing::FreshDir("tflm_gate") + "/baseline.json";
  const std::string model = TflmModel("testing_test_conv_model");
  ToolRun record =
      RunTool("gate --target tflm --update-baseline --baseline " + baseline + " " + model);
  ASSERT_EQ(record.exit_code, 0) << record.err;
  EXPECT_NE(record.out.find("[--target tflm]: arena 10080, persistent 2088"), std::string::npos)
      << record.out;
  ToolRun check = RunTool("gate --baseline " + baseline + " " + model);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("[--target tflm]  ok"), std::string::npos) << check.out;
}

// The TFLM page: the head as the arena picture, the tail as a table, next to the usual report.
TEST(TflmTargetCommand, HtmlIsTflmsPage) {
  const std::string page = testing::FreshDir("tflm_html") + "/report.html";
  ToolRun run =
      RunTool("report --target tflm --html " + page + " " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("head"), std::string::npos) << run.out;
  const std::string html = testing::ReadTextFile(page);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<h2>Tail</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">7744</td>"), std::string::npos);
  ToolRun trace =
      RunTool("report --target tflm --trace " + page + " " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(trace.exit_code, 2) << trace.out;
}

// convert --tflm-offline-plan: the written model carries the plan, and report replays it.
TEST(TflmTargetCommand, OfflinePlanRoundTrip) {
  const std::string planned = testing::FreshDir("tflm_offline") + "/planned.tflite";
  ToolRun convert = RunTool("convert " + TflmModel("testing_test_conv_model") +
                            " --tflm-offline-plan " + planned + " --target tflm-32");
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_NE(convert.out.find("TFLM greedy head:   7744 bytes"), std::string::npos) << convert.out;
  EXPECT_NE(convert.out.find("saves 0 bytes"), std::string::npos) << convert.out;
  ToolRun report = RunTool("report --json --target tflm-32 " + planned);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto j = nlohmann::json::parse(report.out);
  const auto& tflm = j.at("tflm");
  EXPECT_EQ(tflm.at("head"), 7744);
  size_t offline = 0;
  for (const auto& buffer : tflm.at("head_buffers")) offline += buffer.contains("offline") ? 1 : 0;
  EXPECT_EQ(offline, 8u);
  ToolRun json =
      RunTool("convert " + TflmModel("testing_test_conv_model") + " --tflm-offline-plan - ");
  EXPECT_EQ(json.exit_code, 2);
}

TEST(TflmTargetCommand, DiffComparesTheTwoArenas) {
  ToolRun run = RunTool("diff --json --target tflm " + TflmModel("testing_test_conv_model") + " " +
                        TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("target"), "tflm");
  // memory_arena_threshold_test.cc's figures for the two models.
  EXPECT_EQ(j.at("figures").at("head"), (nlohmann::json{{"before", 7744}, {"after", 672}}));
  EXPECT_EQ(j.at("figures").at("tail"), (nlohmann::json{{"before", 2088}, {"after", 14264}}));
  EXPECT_EQ(j.at("figures").at("arena_used_bytes").at("after"), 15184);
  EXPECT_EQ(j.at("resolver_added"), (nlohmann::json{"SVDF", "SOFTMAX"}));

  ToolRun text = RunTool("diff --target tflm-32 " + TflmModel("models_keyword_scrambled") + " " +
                         TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(tflm-32, 32-bit microcontroller, AAPCS)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("arena_used_bytes                13492        13492         +0"),
            std::string::npos)
      << text.out;
}

TEST(TflmTargetCommand, DiffRefusesWhatHasNoTflmAnswer) {
  const std::string model = TflmModel("testing_test_conv_model");
  for (const std::string& flags : {std::string("--target tflm ") + model,
                                   "--target tflm --delegate gpu " + model + " " + model,
                                   "--target tflm --arena-budget 1K " + model + " " + model}) {
    ToolRun run = RunTool("diff " + flags);
    EXPECT_EQ(run.exit_code, 2) << flags << run.out;
    EXPECT_NE(run.err.find("tflite-analyze: error: "), std::string::npos) << run.err;
  }
}

}  // namespace
}  // namespace tfa
