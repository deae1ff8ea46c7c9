// `run --validate` executes the analysed plan on the runtime and checks the prediction.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/gpu_mutants.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

const std::string kShortRange = "face_detection__face_detection_short_range";

TEST(RunCommand, ValidatesTheAddSubSampleDelegate) {
  auto run =
      RunTool("run --validate --json --delegate add-sub " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  EXPECT_EQ(j.at("measured").at("delegated_partitions"), 16);
  for (const auto& check : j.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
  for (const auto& output : j.at("outputs")) EXPECT_EQ(output.at("max_abs_error"), 0.0);
  const auto& rss = j.at("measured").at("rss");
  EXPECT_EQ(rss.at("peak_above_baseline").get<uint64_t>(),
            rss.at("peak").get<uint64_t>() - rss.at("before_model").get<uint64_t>());
  // The arena is filled before the first Invoke: every byte of it is resident at the peak.
  EXPECT_GE(rss.at("peak_above_baseline").get<uint64_t>(),
            j.at("measured").at("arena_committed").get<uint64_t>());
}

TEST(RunCommand, ValidatesTheOpenClDelegateOnPocl) {
  auto run = RunTool("run --validate --delegate gpu " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("VALIDATED"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("arena                        257536       257536  ok"), std::string::npos)
      << run.out;
}

// The XNNPACK delegate on Debian's libXNNPACK: every node but the two CONCATENATIONs (not in the
// 2022 library) on XNNPACK, in place on the interpreter's buffers; the 74 fp16 DEQUANTIZE nodes
// unpacked into weights once. The workspace is the planner's for the internal values, whatever
// the CPU; packed weights and indirection buffers depend on the microkernels the CPU gets.
TEST(RunCommand, ValidatesTheXnnpackDelegateOnLibXnnpack) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  auto text = RunTool("run --validate --delegate xnnpack " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err << text.out;
  EXPECT_NE(text.out.find("  xnnpack runs on libXNNPACK (Debian 0.0~git20220216): 88 of 164 nodes "
                          "on XNNPACK in 1 runtime, 74 DEQUANTIZE/DENSIFY of constants unpacked "
                          "into weights at creation, 2 on this runtime's CPU kernels\n"
                          "    not in libXNNPACK 2022-02-16: CONCATENATION x2\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("simulated"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("VALIDATED"), std::string::npos) << text.out;
  auto json = RunTool("run --validate --json --delegate xnnpack " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err << json.out;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  EXPECT_TRUE(j.at("simulated_delegates").empty());
  EXPECT_EQ(j.at("measured").at("bytes_to_delegate"), 0);
  EXPECT_EQ(j.at("measured").at("bytes_from_delegate"), 0);
  ASSERT_EQ(j.at("xnnpack").size(), 1u);
  const auto& x = j.at("xnnpack")[0];
  EXPECT_EQ(x.at("xnnpack_nodes"), 88);
  EXPECT_EQ(x.at("cpu_node_count"), 2);
  EXPECT_EQ(x.at("workspace_bytes"), 1572880);
  EXPECT_GT(x.at("packed_weights_and_operators_bytes").get<uint64_t>(), 0u);
  EXPECT_EQ(x.at("partitions")[0].at("cpu_nodes")[0].at("op"), "CONCATENATION");
}

// Where libXNNPACK runs a whole partition in one runtime, the workspace it allocates equals the
// analyser's plan of the partition's internal values with that library's rules
// (libanalysis/report/xnnpack_workspace.h): 3,538,960 bytes on face_landmark.
TEST(RunCommand, LibXnnpacksWorkspaceIsTheAnalysersPlan) {
  auto run = RunTool("run --validate --json --delegate xnnpack " +
                     testing::CorpusModelPath("face_mesh__face_landmark"));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  bool found = false;
  for (const auto& check : j.at("checks")) {
    if (check.at("figure") != "xnnpack workspace") continue;
    found = true;
    EXPECT_EQ(check.at("predicted"), 3538960);
    EXPECT_EQ(check.at("measured"), 3538960);
  }
  EXPECT_TRUE(found) << run.out;
  // The float32 copies of the weights libXNNPACK packed are dropped once it has packed them:
  // what the kernel keeps is the unpacked weights other ops read, 6,976 bytes, which is the
  // estimate's unpacked_static_weights for upstream's delegate.
  EXPECT_EQ(j.at("xnnpack")[0].at("kernel_owned_bytes"), 6976);
}

// An int8 model on the OpenCL delegate: the arena holds the float twins of the quantized
// boundary (upstream's 321920 bytes), the boundary bytes are the int8 tensors', and the int8
// outputs, computed in float without requantization, are compared in quantization steps: beyond
// one step at the model's outputs, within it at every delegated node, hence drift. The prediction
// matches; the outputs do not, so the run fails unless the user accepts drift, and the verdict
// says by how much either way.
TEST(RunCommand, Int8OutputsOnTheOpenClDelegateDriftAndPassOnlyWhenAccepted) {
  const std::string model = testing::OraclePath("int8/face_detection_short_range_int8.tflite");
  auto run = RunTool("run --validate --json --delegate gpu " + model);
  ASSERT_EQ(run.exit_code, 1) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_FALSE(j.at("validated").get<bool>());
  EXPECT_EQ(j.at("tolerance_steps"), 1.0);
  EXPECT_EQ(j.at("measured").at("arena_size"), 321920);
  EXPECT_EQ(j.at("measured").at("bytes_to_delegate"), 128 * 128 * 3);
  for (const auto& check : j.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
  const auto& verdict = j.at("verdict");
  EXPECT_TRUE(verdict.at("prediction").at("ok").get<bool>());
  EXPECT_FALSE(verdict.at("outputs").at("ok").get<bool>());
  EXPECT_EQ(verdict.at("outputs").at("state"), "drift");
  EXPECT_GT(verdict.at("outputs").at("worst").at("max_error").get<double>(), 1.0);
  ASSERT_EQ(j.at("outputs").size(), 2u);
  for (const auto& output : j.at("outputs")) {
    EXPECT_TRUE(output.at("in_steps").get<bool>()) << output.dump();
    EXPECT_GT(output.at("max_error").get<double>(), 1.0) << output.dump();
    EXPECT_TRUE(output.at("drift").get<bool>()) << output.dump();
  }
  ASSERT_EQ(j.at("divergence").size(), 1u);
  EXPECT_FALSE(j.at("divergence")[0].contains("first")) << run.out;

  auto text = RunTool("run --validate --delegate gpu " + model);
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_NE(text.out.find("  prediction: matched ("), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  outputs vs the CPU-only run: DRIFT: output "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("FAILED: the outputs drift beyond the tolerance\n"), std::string::npos)
      << text.out;

  auto accepted = RunTool("run --validate --accept-drift --delegate gpu " + model);
  ASSERT_EQ(accepted.exit_code, 0) << accepted.err << accepted.out;
  EXPECT_NE(accepted.out.find("  outputs vs the CPU-only run: drift accepted (--accept-drift): "),
            std::string::npos)
      << accepted.out;
  EXPECT_NE(accepted.out.find("VALIDATED: the prediction matches; the outputs drift, accepted"),
            std::string::npos)
      << accepted.out;

  auto loose = RunTool("run --validate --delegate gpu --tolerance-steps 100 " + model);
  ASSERT_EQ(loose.exit_code, 0) << loose.err << loose.out;
  EXPECT_NE(loose.out.find("quantized outputs 100 steps"), std::string::npos) << loose.out;
  EXPECT_NE(loose.out.find(" quantization steps  ok  regressors"), std::string::npos) << loose.out;
  EXPECT_NE(loose.out.find("VALIDATED: the prediction and the outputs match"), std::string::npos)
      << loose.out;
}

// pdl_ceil_round_x3 puts CPU CEIL/ROUND nodes between gpu partitions: a last-bit difference of a
// delegated conv becomes a whole unit in the outputs. Every delegated node matches the CPU kernels
// on the CPU's own inputs, so the outputs drift (rounding the graph amplifies, not a kernel
// fault), which validates only with --accept-drift.
TEST(RunCommand, OutputsAmplifiedByTheGraphAreDriftNotAKernelFault) {
  const std::string dir = testing::FreshDir("run_amplified");
  std::string model;
  for (const testing::GpuMutant& mutant : testing::GpuMutants()) {
    if (mutant.name == "pdl_ceil_round_x3") model = testing::RebuildGpuMutant(mutant, dir);
  }
  ASSERT_FALSE(model.empty());
  const std::string command = "run --validate --json --delegate gpu --max-partitions 3 " + model;
  auto run = RunTool(command);
  ASSERT_EQ(run.exit_code, 1) << run.err << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out).at("verdict").at("outputs").at("state"), "drift");
  auto accepted = RunTool(command + " --accept-drift");
  ASSERT_EQ(accepted.exit_code, 0) << accepted.err << accepted.out;
  const auto j = nlohmann::json::parse(accepted.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  EXPECT_EQ(j.at("verdict").at("outputs").at("state"), "drift_accepted");
  bool drift = false;
  for (const auto& output : j.at("outputs")) drift |= output.at("drift").get<bool>();
  EXPECT_TRUE(drift) << accepted.out;
  ASSERT_EQ(j.at("divergence").size(), 1u);
  EXPECT_FALSE(j.at("divergence")[0].contains("first")) << accepted.out;
}

// A user copies the gpu profile and drops RESIZE_BILINEAR: the FP16 helper then delegates part of
// the plan and rewires the taken nodes to the fp16 weights. report and run read one ModelPlan, so
// the run executes the partition report predicts (it used to claim nothing and MISMATCH).
TEST(RunCommand, ReportAndRunAgreeOnAUserProfileCopiedFromGpu) {
  std::ifstream in(testing::SourcePath("libanalysis/profiles/builtin/gpu.json"));
  ASSERT_TRUE(in.good());
  nlohmann::json profile = nlohmann::json::parse(in);
  profile["name"] = "my-gpu";
  auto& ops = profile.at("ops");
  const size_t before = ops.size();
  ops.erase(
      std::remove_if(ops.begin(), ops.end(),
                     [](const nlohmann::json& op) { return op.at("op") == "RESIZE_BILINEAR"; }),
      ops.end());
  ASSERT_EQ(ops.size(), before - 1);
  const std::string path = testing::WriteTempFile("my-gpu.json", profile.dump());
  const std::string model = testing::CorpusModelPath("hands__palm_detection_lite");

  auto report = RunTool("report --json --delegate " + path + " " + model);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto predicted = nlohmann::json::parse(report.out).at("subgraphs").at(0);
  ASSERT_EQ(predicted.at("delegated_partition_count"), 1);

  auto run = RunTool("run --validate --json --delegate " + path + " " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  EXPECT_EQ(j.at("measured").at("delegated_partitions"), predicted.at("delegated_partition_count"));
  EXPECT_EQ(j.at("measured").at("bytes_to_delegate"), predicted.at("copy").at("bytes_to_delegate"));
  EXPECT_EQ(j.at("measured").at("arena_size"), predicted.at("arena").at("size"));
  for (const auto& check : j.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
}

// The delegate's own options (precision, device) reach the delegate and not the analyser's
// profile; the finder checks every delegated node that computes (90 of 164: the 74 fp16 weight
// DEQUANTIZE nodes the FP16 helper folds are read through their consumers).
TEST(RunCommand, FindsNoDivergenceWithPrecisionOptions) {
  auto run = RunTool(
      "run --validate --find-divergence --delegate gpu --delegate-option platform=0 "
      "--delegate-option is_precision_loss_allowed=0 " +
      testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("tolerance 0.001 of max(1, |cpu|)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("gpu node by node vs the CPU kernels (90 nodes, "), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("every node within the tolerance"), std::string::npos) << run.out;
  auto alone =
      RunTool("run --find-divergence --delegate gpu " + testing::CorpusModelPath(kShortRange));
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--find-divergence needs --validate"), std::string::npos) << alone.err;
}

TEST(RunCommand, SimulatedDelegateAndTwoDelegatesInTurn) {
  // nnapi second: on this fp16-weight model its FP16 weight remapping delegates part of the plan
  // with inputs rewired to the fp16 weights, which the simulated delegate reads as floats.
  auto run = RunTool("run --validate --delegate ops=CONV_2D --delegate nnapi " +
                     testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("VALIDATED"), std::string::npos) << run.out;
}

TEST(RunCommand, AnalysisOnlyOptionsAndBadInputExitTwo) {
  auto run = RunTool("run --delegate gpu --no-greedy " + testing::CorpusModelPath(kShortRange));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("analysis-only"), std::string::npos) << run.err;
  EXPECT_EQ(RunTool("run /nonexistent.tflite").exit_code, 2);
}

TEST(RunCommand, MemoryLimitAndGuardWrites) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  auto refused = RunTool("run --memory-limit 512K " + model);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("above the memory limit of 524288 bytes"), std::string::npos)
      << refused.err;
  auto bad = RunTool("run --memory-limit 12X " + model);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(
      bad.err.find("--memory-limit: expected a byte count such as 1048576, 512M or 2G, got '12X'"),
      std::string::npos)
      << bad.err;
  auto guarded = RunTool("run --guard-writes --memory-limit 64M --delegate add-sub " + model);
  EXPECT_EQ(guarded.exit_code, 0) << guarded.err;
}

// Timed as benchmark_model times: warm-up Invokes, then timed ones whose mean is the latency; the
// outputs are the first Invoke's either way.
TEST(RunCommand, TimesTheMeanOfTheRunsAfterTheWarmUp) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  auto run = RunTool("run --json --num-runs 3 --warmup-runs 0 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto latency = nlohmann::json::parse(run.out).at("latency");
  EXPECT_EQ(latency.at("timed_runs"), 3);
  EXPECT_EQ(latency.at("warmup_runs"), 0);
  EXPECT_LE(latency.at("min_ms").get<double>(), latency.at("mean_ms").get<double>());
  EXPECT_LE(latency.at("min_ms").get<double>(), latency.at("first_ms").get<double>());
  auto text = RunTool("run --num-runs 2 " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  latency: mean "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" over 2 Invokes after 1 warm-up; first Invoke "), std::string::npos)
      << text.out;
  auto none = RunTool("run --num-runs 0 " + model);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--num-runs: expected at least 1 run, got 0"), std::string::npos)
      << none.err;
}

// Without a delegate the run is the CPU-only run: --validate adds only the rerun on buffers of
// its own, and the outputs match themselves exactly.
TEST(RunCommand, ValidatingACpuOnlyRunDoesNotRunItTwice) {
  auto run = RunTool("run --validate --json " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  for (const auto& output : j.at("outputs")) EXPECT_EQ(output.at("max_abs_error"), 0.0);
  EXPECT_EQ(j.at("cpu_latency_ms"), j.at("latency").at("first_ms"));
  auto text = RunTool("run --validate " + testing::CorpusModelPath(kShortRange));
  EXPECT_NE(text.out.find("outputs vs the CPU-only run (this run: no delegate)"), std::string::npos)
      << text.out;
}

// --reference judges a quantized model's outputs against the float model, in real values: the
// int8 face detector's outputs in steps of their own scales against the float corpus model's.
TEST(RunCommand, AQuantizedModelIsJudgedAgainstItsFloatReference) {
  const std::string int8 = testing::OraclePath("int8/face_detection_short_range_int8.tflite");
  const std::string reference = " --reference " + testing::CorpusModelPath(kShortRange);
  auto strict = RunTool("run --validate --json " + int8 + reference);
  ASSERT_EQ(strict.exit_code, 1) << strict.err << strict.out;
  const auto j = nlohmann::json::parse(strict.out);
  EXPECT_EQ(j.at("verdict").at("outputs").at("state"), "mismatch") << j.at("verdict").dump();
  EXPECT_TRUE(j.contains("reference_latency_ms"));
  for (const auto& output : j.at("outputs")) EXPECT_TRUE(output.at("in_steps").get<bool>());
  auto loose = RunTool("run --validate --tolerance-steps 100 " + int8 + reference);
  EXPECT_EQ(loose.exit_code, 0) << loose.err << loose.out;
  EXPECT_NE(loose.out.find("outputs vs the reference model "), std::string::npos) << loose.out;
  auto unrelated = RunTool("run --validate " + int8 + " --reference " +
                           testing::CorpusModelPath("hands__hand_landmark_lite"));
  EXPECT_EQ(unrelated.exit_code, 2);
  EXPECT_NE(unrelated.err.find("does not have the element count of the model's"), std::string::npos)
      << unrelated.err;
  EXPECT_EQ(RunTool("run " + int8 + reference).exit_code, 2);
}

// The delegates' own memory counts against --memory-limit as the report predicts it (XNNPACK's
// packed weights and workspace): the interpreter gets what it leaves.
TEST(RunCommand, TheDelegatesMemoryCountsAgainstTheLimit) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  auto report = RunTool("report --json --delegate xnnpack " + model);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto totals = nlohmann::json::parse(report.out).at("interpreter");
  const uint64_t delegates = totals.at("delegate_bytes"), arena = totals.at("arena_bytes");
  ASSERT_GT(delegates, 0u);
  const std::string run = "run --delegate xnnpack " + model + " --memory-limit ";
  auto delegates_alone = RunTool(run + std::to_string(delegates));
  EXPECT_EQ(delegates_alone.exit_code, 2);
  EXPECT_NE(delegates_alone.err.find("the delegates need " + std::to_string(delegates) +
                                     " bytes outside the interpreter (predicted)"),
            std::string::npos)
      << delegates_alone.err;
  auto with_arena = RunTool(run + std::to_string(delegates + arena / 2));
  EXPECT_EQ(with_arena.exit_code, 2);
  EXPECT_NE(with_arena.err.find(" less the delegates' predicted " + std::to_string(delegates)),
            std::string::npos)
      << with_arena.err;
  EXPECT_EQ(RunTool(run + std::to_string(delegates + arena + (8u << 20))).exit_code, 0);
}

// The run that learns which branch if_branches' IF takes holds the XNNPACK delegate too: it gets
// the limit less the delegates' predicted 786,496 bytes, like the run. On buffers of its own it
// needs 2,621,441 bytes: with a limit of 3,014,689 it would fit the whole limit, and does not fit
// what the delegates leave.
TEST(RunCommand, TheRunThatFindsTheControlFlowHoldsTheLimitLessTheDelegates) {
  const std::string model = testing::OraclePath("control_flow/if_branches.tflite");
  auto report = RunTool("report --json --delegate xnnpack " + model);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(nlohmann::json::parse(report.out).at("interpreter").at("delegate_bytes"), 786496);
  auto run = RunTool("run --delegate xnnpack --memory-limit 3014689 " + model);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("the run that finds the control flow: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("above the memory limit of 2228193 bytes (the memory limit of 3014689 "
                         "bytes less the delegates' predicted 786496 bytes)"),
            std::string::npos)
      << run.err;
  auto delegates_alone = RunTool("run --delegate xnnpack --memory-limit 786496 " + model);
  EXPECT_EQ(delegates_alone.exit_code, 2);
  EXPECT_NE(delegates_alone.err.find("the delegates need 786496 bytes outside the interpreter"),
            std::string::npos)
      << delegates_alone.err;
}

// A node-by-node check and a rerun on buffers of its own that do not fit --memory-limit are
// skipped with a note; the verdict is still printed, and the checks that ran decide it.
TEST(RunCommand, ChecksThatDoNotFitTheMemoryLimitAreSkippedWithANote) {
  auto run =
      RunTool("run --validate --find-divergence --json --memory-limit 6M --delegate add-sub " +
              testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  const std::string note = j.at("verdict").at("outputs").at("node_check_note");
  EXPECT_NE(note.find("the node-by-node check of add-sub was skipped: "), std::string::npos);
  EXPECT_NE(note.find("above the memory limit of 6291456 bytes"), std::string::npos) << note;
  EXPECT_NE(j.at("own_buffers").at("skipped").get<std::string>().find("above the memory limit"),
            std::string::npos);
  EXPECT_GT(j.at("measured").at("rss").at("peak_with_reruns").get<uint64_t>(), 0u);
}

// while_dynamic's WHILE body concatenates onto its state, 4 rows to 124 in 30 iterations with
// seed 1: the body is re-planned every iteration, the node after the WHILE placed once it ran.
// Upstream's figures after the Invoke (tests/oracle/control_flow/while_dynamic.none.json,
// subgraphs_after_invoke): main's arena 131072, the body's last plan 249920, cond's 65.
TEST(RunCommand, ValidatesAWhileWhoseStateGrows) {
  auto run = RunTool("run --validate --json --input-seed 1 " +
                     testing::OraclePath("control_flow/while_dynamic.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
  EXPECT_TRUE(j.at("own_buffers").at("identical").get<bool>());
  std::map<std::string, uint64_t> measured;
  for (const auto& check : j.at("checks")) {
    EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
    measured[check.at("figure").get<std::string>()] = check.at("measured").get<uint64_t>();
  }
  EXPECT_EQ(measured["arena"], 131072u);
  EXPECT_EQ(measured["subgraph 1 arena"], 65u);
  EXPECT_EQ(measured["subgraph 2 arena"], 249920u);
}

// if_branches under the OpenCL delegate: main, then and else each have a GPU partition. Upstream
// builds each one's inference context once, at the kernel's init, whichever branch the IF takes;
// the run's device memory is that of its own kernels, once each (not those of the run that
// learns the IF's condition first): 262144 + 786432 + 524288 bytes of shared tensors.
TEST(RunCommand, GpuMemoryOfEverySubgraphCountsOnce) {
  auto run = RunTool("run --validate --json --input-seed 1 --delegate gpu " +
                     testing::OraclePath("control_flow/if_branches.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  std::map<std::string, uint64_t> measured;
  for (const auto& check : j.at("checks")) {
    EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
    measured[check.at("figure").get<std::string>()] = check.at("measured").get<uint64_t>();
  }
  EXPECT_EQ(measured["gpu shared tensors"], 1572864u);
  EXPECT_EQ(measured["gpu staging buffers"], 1048576u);
}

// A loop state that grows past --memory-limit stops the run while it grows, not after.
TEST(RunCommand, AStateGrowingPastTheMemoryLimitStopsTheRun) {
  auto run = RunTool("run --memory-limit 256K " +
                     testing::OraclePath("control_flow/while_dynamic.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (WHILE): subgraph 2: tensor"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("above the memory limit of 262144 bytes"), std::string::npos) << run.err;
}

// TOPK_V2's k is a model input: the seed fills it with random bytes, which the kernel refuses as
// upstream's does; the one-line error says the seed filled it and how to give a real k.
TEST(RunCommand, AKernelRefusingASeedFilledIndexInputSaysHowToGiveIt) {
  auto run = RunTool(
      "run " +
      testing::OraclePath("external/LiteRT__litert_test_testdata_simple_topk_op_runtime_k.tflite"));
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("TOPK_V2"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("got random values from --input-seed; if it is an index, a count or a "
                         "shape, give real values with --input NAME=FILE.npy)\n"),
            std::string::npos)
      << run.err;
}

TEST(DevicesCommand, ListsPocl) {
  auto run = RunTool("devices");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("platform 0 device 0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("delegate profile gpu: verified\ndelegate profile nnapi: transcribed\n"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace tfa
