#include "cli/run_verdict.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::cli {
namespace {

OutputComparison Output(int32_t tensor, double max_error, bool ok) {
  return {tensor, "out" + std::to_string(tensor), max_error, max_error, max_error, false, ok};
}

runtime::RuntimeTensor Floats(std::vector<float>& values) {
  return runtime::testing::FloatView(values);
}

TEST(RunVerdict, FloatOutputsAreHeldToTheToleranceOfMaxOneAndTheReference) {
  std::vector<float> got = {1.0f, 200.1f}, want = {1.0005f, 200.0f};
  const OutputComparison c = CompareOutput(Floats(got), Floats(want), 7, "y", 1e-3, 1);
  EXPECT_TRUE(c.ok);
  EXPECT_NEAR(c.max_abs_error, 0.1, 1e-4);
  EXPECT_NEAR(c.max_error, 0.1 / 200.0, 1e-6);
  const OutputComparison tight = CompareOutput(Floats(got), Floats(want), 7, "y", 1e-4, 1);
  EXPECT_FALSE(tight.ok);
}

TEST(RunVerdict, DriftPassesOnlyWhenAccepted) {
  const std::vector<OutputComparison> outputs = {Output(1, 1e-5, true), Output(2, 0.3, false)};
  const OutputsVerdict drift = JudgeOutputs(outputs, true, false, "the CPU-only run", "1e-3");
  EXPECT_EQ(drift.state, OutputsState::kDrift);
  EXPECT_FALSE(drift.ok());
  ASSERT_TRUE(drift.worst.has_value());
  EXPECT_EQ(drift.worst->tensor, 2);
  const OutputsVerdict accepted = JudgeOutputs(outputs, true, true, "the CPU-only run", "1e-3");
  EXPECT_EQ(accepted.state, OutputsState::kDriftAccepted);
  EXPECT_TRUE(accepted.ok());
  // A node beyond the tolerance, or no node check, makes it a mismatch, accepted or not.
  EXPECT_EQ(JudgeOutputs(outputs, false, true, "r", "t").state, OutputsState::kMismatch);
  EXPECT_EQ(JudgeOutputs(outputs, std::nullopt, true, "r", "t").state, OutputsState::kMismatch);
  EXPECT_EQ(JudgeOutputs({Output(1, 1e-5, true)}, std::nullopt, false, "r", "t").state,
            OutputsState::kMatched);
}

TEST(RunVerdict, TextAndJsonNameEachPartThatFailed) {
  RunVerdict verdict;
  verdict.checks = {{"arena", 100, 100}, {"gpu shared tensors", 256, 1536}};
  verdict.outputs = JudgeOutputs({Output(3, 0.3, false)}, true, false, "the CPU-only run",
                                 "0.001 of max(1, |cpu|)");
  EXPECT_FALSE(verdict.PredictionOk());
  EXPECT_FALSE(verdict.ok());
  const std::string text = VerdictText(verdict);
  EXPECT_NE(text.find("  prediction: DIFFERS in 1 of 2 figures: gpu shared tensors\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  outputs vs the CPU-only run: DRIFT: output 3 (out3) 0.3 of max(1, "
                      "|reference|) (abs 0.3) is beyond 0.001 of max(1, |cpu|)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nFAILED: the prediction differs; the outputs drift beyond the tolerance\n"),
            std::string::npos)
      << text;
  const auto j = VerdictJson(verdict);
  EXPECT_FALSE(j.at("prediction").at("ok").get<bool>());
  EXPECT_EQ(j.at("prediction").at("failed"), nlohmann::ordered_json({"gpu shared tensors"}));
  EXPECT_EQ(j.at("outputs").at("state"), "drift");
  EXPECT_EQ(j.at("outputs").at("worst").at("tensor"), 3);
  EXPECT_FALSE(j.at("ok").get<bool>());

  verdict.checks = {{"arena", 100, 100}};
  verdict.outputs = JudgeOutputs({Output(3, 1e-6, true)}, std::nullopt, false, "r", "t");
  EXPECT_TRUE(verdict.ok());
  EXPECT_NE(VerdictText(verdict).find("VALIDATED: the prediction and the outputs match"),
            std::string::npos);
}

// Outputs apart from the CPU-only run are upstream's own drift only when they match upstream's
// outputs for the delegate and those are apart from the CPU-only run too.
TEST(RunVerdict, DriftUpstreamsDelegateSharesIsUpstreams) {
  const auto verdict_with = [](bool matched, bool upstream_apart) {
    RunVerdict v;
    v.checks = {{"arena", 100, 100}};
    v.outputs = JudgeOutputs({Output(3, 0.2, false)}, true, false, "the CPU-only run", "t");
    UpstreamVerdict u;
    u.config = "xnnpack";
    u.matched = matched;
    u.worst = Output(3, matched ? 1e-6 : 0.2, matched);
    u.upstream_drift = Output(3, upstream_apart ? 0.2 : 1e-4, !upstream_apart);
    JudgeAgainstUpstream(v, u);
    return v;
  };
  const RunVerdict shared = verdict_with(true, true);
  EXPECT_EQ(shared.outputs.state, OutputsState::kUpstreamDrift);
  EXPECT_TRUE(shared.ok());
  const std::string text = VerdictText(shared);
  EXPECT_NE(text.find("upstream's own drift: output 3 (out3)"), std::string::npos) << text;
  EXPECT_NE(text.find("as upstream's own xnnpack outputs are (output 3 (out3) 0.2"),
            std::string::npos)
      << text;
  EXPECT_EQ(VerdictJson(shared).at("outputs").at("state"), "upstream_drift");
  // Upstream's own outputs within the tolerance of the CPU: the drift is this runtime's.
  EXPECT_EQ(verdict_with(true, false).outputs.state, OutputsState::kDrift);
  EXPECT_FALSE(verdict_with(true, false).ok());
  const RunVerdict unlike = verdict_with(false, true);
  EXPECT_FALSE(unlike.ok());
  EXPECT_NE(VerdictText(unlike).find("the outputs differ from upstream's xnnpack outputs"),
            std::string::npos);
  EXPECT_FALSE(VerdictJson(unlike).at("upstream").at("ok").get<bool>());
}

// A model the CPU kernels cannot run (a node only the delegate computes): upstream's outputs for
// the delegate alone judge the outputs; without them nothing does, and the run fails.
TEST(RunVerdict, NoCpuRunIsJudgedByUpstreamsOutputsAlone) {
  const auto verdict_with = [](std::optional<bool> upstream_matched) {
    RunVerdict v;
    v.checks = {{"arena", 100, 100}};
    v.outputs.reference = "the CPU-only run";
    v.outputs.state = OutputsState::kNoCpuRun;
    v.outputs.no_cpu_run_reason = "node 0 (FULLY_CONNECTED): no int4 kernel";
    if (upstream_matched) {
      UpstreamVerdict u;
      u.config = "xnnpack";
      u.matched = *upstream_matched;
      u.worst = Output(2, *upstream_matched ? 1e-6 : 0.2, *upstream_matched);
      JudgeAgainstUpstream(v, u);
    }
    return v;
  };
  const RunVerdict judged = verdict_with(true);
  EXPECT_TRUE(judged.ok());
  const std::string text = VerdictText(judged);
  EXPECT_NE(text.find("not compared: the CPU kernels cannot run the model (node 0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("VALIDATED: the prediction matches; the outputs match upstream's xnnpack"),
            std::string::npos)
      << text;
  EXPECT_EQ(VerdictJson(judged).at("outputs").at("state"), "no_cpu_run");
  EXPECT_FALSE(verdict_with(false).ok());
  const RunVerdict unjudged = verdict_with(std::nullopt);
  EXPECT_FALSE(unjudged.ok());
  EXPECT_NE(VerdictText(unjudged).find("no upstream outputs judge them"), std::string::npos);
}

}  // namespace
}  // namespace tfa::cli
