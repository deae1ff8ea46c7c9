#include "libanalysis/gate/baseline_gate.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

const std::string kSha(64, 'a');
const std::string kOtherSha(64, 'b');

std::string OneModelBaseline(const std::string& config_fields) {
  return R"({"format":"tflite-analyze-baseline/1","models":[{"file":"m.tflite","sha256":")" + kSha +
         R"(","configs":[{)" + config_fields + "}]}]}";
}

const std::string kFigures =
    R"("arena_bytes":1000,"persistent_bytes":64,"delegated_partitions":2,"copy_bytes":500)";

Measurement Measured(GatedFigures figures, std::vector<DelegateRequest> delegates = {},
                     const std::string& file = "m.tflite", const std::string& sha = kSha) {
  return {"models/" + file, file, sha, std::move(delegates), figures};
}

Baseline RecordedBaseline() {
  auto b = ParseBaseline(OneModelBaseline(R"("delegates":[],)" + kFigures), "b.json");
  EXPECT_TRUE(b.ok()) << b.status().message();
  if (!b.ok()) return {};
  return *b;
}

TEST(ParseBaseline, ReadsModelsConfigsAndDelegateOptions) {
  auto b = ParseBaseline(
      OneModelBaseline(R"("config":"ignored","delegates":[{"spec":"gpu","max_partitions":2,
      "min_nodes_per_partition":3,"no_greedy":true,"options":["allow_quant_ops=false"]},{"spec":"xnnpack"}],)" +
                       kFigures),
      "b.json");
  ASSERT_TRUE(b.ok()) << b.status().message();
  ASSERT_EQ(b->models.size(), 1u);
  EXPECT_EQ(b->models[0].file, "m.tflite");
  const BaselineConfig& c = b->models[0].configs.at(0);
  EXPECT_EQ(c.figures, (GatedFigures{1000, 64, 2, 500}));
  ASSERT_EQ(c.delegates.size(), 2u);
  EXPECT_EQ(c.delegates[0].spec, "gpu");
  EXPECT_EQ(c.delegates[0].max_partitions, 2);
  EXPECT_EQ(c.delegates[0].min_nodes_per_partition, 3);
  EXPECT_TRUE(c.delegates[0].no_greedy);
  EXPECT_EQ(c.delegates[0].options,
            (std::vector<std::pair<std::string, std::string>>{{"allow_quant_ops", "false"}}));
  EXPECT_EQ(ConfigName(c.delegates),
            "--delegate gpu --max-partitions 2 --min-nodes-per-partition 3 --no-greedy "
            "--delegate-option allow_quant_ops=false --delegate xnnpack");
}

struct Malformed {
  std::string text;
  std::string message;
};

class ParseBaselineRefuses : public ::testing::TestWithParam<Malformed> {};

TEST_P(ParseBaselineRefuses, WithOneLineNamingTheField) {
  auto b = ParseBaseline(GetParam().text, "b.json");
  ASSERT_FALSE(b.ok());
  const std::string& m = b.status().message();
  EXPECT_EQ(m.rfind("b.json: ", 0), 0u) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_NE(m.find(GetParam().message), std::string::npos) << m;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseBaselineRefuses,
    ::testing::Values(
        Malformed{"", "not valid JSON"}, Malformed{"{\"format\":", "not valid JSON"},
        Malformed{"[]", "top level: expected an object"},
        Malformed{R"({"format":"other/1","models":[]})",
                  "format: expected \"tflite-analyze-baseline/1\""},
        Malformed{R"({"format":"tflite-analyze-baseline/1"})", "models: missing"},
        Malformed{R"({"format":"tflite-analyze-baseline/1","models":{}})",
                  "models: expected an array"},
        Malformed{R"({"format":"tflite-analyze-baseline/1","models":[],"extra":1})",
                  "extra: unknown field"},
        Malformed{
            R"({"format":"tflite-analyze-baseline/1","models":[{"file":"a/m.tflite","sha256":"x","configs":[]}]})",
            "models[0].file: expected a file name without directories"},
        Malformed{
            R"({"format":"tflite-analyze-baseline/1","models":[{"file":"m","sha256":"ABC","configs":[]}]})",
            "models[0].sha256: expected 64 lower-case hex digits"},
        Malformed{
            OneModelBaseline(
                R"("delegates":[],"arena_bytes":-1,"persistent_bytes":0,"delegated_partitions":0,"copy_bytes":0)"),
            "models[0].configs[0].arena_bytes: expected a non-negative integer"},
        Malformed{
            OneModelBaseline(
                R"("delegates":[],"arena_bytes":1.5,"persistent_bytes":0,"delegated_partitions":0,"copy_bytes":0)"),
            "arena_bytes: expected a non-negative integer"},
        Malformed{
            OneModelBaseline(
                R"("delegates":[],"arena_byte":1,"persistent_bytes":0,"delegated_partitions":0,"copy_bytes":0)"),
            "models[0].configs[0].arena_bytes: missing"},
        Malformed{OneModelBaseline(R"("delegates":[{"spec":""}],)" + kFigures),
                  "delegates[0].spec: empty"},
        Malformed{OneModelBaseline(R"("delegates":[{"spec":"gpu","max_partitions":99999999999}],)" +
                                   kFigures),
                  "max_partitions: out of range"},
        Malformed{
            OneModelBaseline(R"("delegates":[{"spec":"gpu","options":["novalue"]}],)" + kFigures),
            "options[0]: expected KEY=VALUE"},
        Malformed{
            OneModelBaseline(R"("delegates":[],)" + kFigures + R"(},{"delegates":[],)" + kFigures),
            "configs[1]: configuration \"cpu only\" recorded twice"},
        Malformed{std::string(100, '[') + std::string(100, ']'), "nested deeper than 8 levels"},
        Malformed{OneModelBaseline(R"("delegates":[],"delegated_nodes":[1],)" + kFigures),
                  "models[0].configs[0].delegated_nodes: expected an object"},
        Malformed{
            OneModelBaseline(R"("delegates":[],"cpu_fallback_nodes":{"CEIL":-2},)" + kFigures),
            "models[0].configs[0].cpu_fallback_nodes.CEIL: expected a non-negative integer"},
        Malformed{"{\"format\":\"tflite-analyze-baseline/1\",\"models\":[]} trailing",
                  "not valid JSON"}));

TEST(ParseBaseline, RefusesTheSameModelTwice) {
  const std::string model = R"({"file":"m.tflite","sha256":")" + kSha + R"(","configs":[]})";
  auto b = ParseBaseline(
      R"({"format":"tflite-analyze-baseline/1","models":[)" + model + "," + model + "]}", "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "b.json: models[1]: model \"m.tflite\" recorded twice");
}

TEST(BaselineJson, RoundTripsAndIsSorted) {
  Baseline b;
  b.models.push_back(
      {"z.tflite",
       kSha,
       {{{{"gpu", 2, std::nullopt, false, {{"k", "v"}}}}, {1, 2, 3, 4}}, {{}, {5, 6, 7, 8}}}});
  b.models.push_back({"a.tflite", kOtherSha, {}});
  const std::string text = BaselineToJson(b);
  EXPECT_LT(text.find("a.tflite"), text.find("z.tflite"));
  // Sorted by name: "--delegate ..." before "cpu only".
  EXPECT_LT(text.find("\"--delegate gpu --max-partitions 2 --delegate-option k=v\""),
            text.find("\"cpu only\""));
  auto again = ParseBaseline(text, "b.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(BaselineToJson(*again), text);
}

TEST(Tolerance, ParsesPercentagesAndBytes) {
  auto p = ParseTolerance("2.5%", "--max-arena-growth");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->AllowedChange(1000), 25u);
  EXPECT_EQ(p->ToString(), "2.5%");
  auto b = ParseTolerance("4096", "--max-arena-growth");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->AllowedChange(1000), 4096u);
  for (const char* bad : {"", "%", "-1%", "2 %", "two", "1e3"}) {
    auto t = ParseTolerance(bad, "--max-arena-growth");
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().message().rfind("--max-arena-growth: expected a percentage", 0), 0u);
  }
}

TEST(CompareWithBaseline, PassesWhenNothingGrew) {
  const GateResult r = CompareWithBaseline(RecordedBaseline(), {Measured({1000, 64, 2, 500})}, {});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.total(), 4u);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].config, "cpu only");
}

TEST(CompareWithBaseline, ArenaGrowthBeyondThresholdFails) {
  GateOptions options;
  options.arena_growth = *ParseTolerance("2%", "x");
  EXPECT_TRUE(
      CompareWithBaseline(RecordedBaseline(), {Measured({1020, 64, 2, 500})}, options).passed());
  const GateResult r =
      CompareWithBaseline(RecordedBaseline(), {Measured({1021, 64, 2, 500})}, options);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.failures(), 1u);
  const FigureCheck& arena = r.checks[0].figures[0];
  EXPECT_EQ(arena.figure, "arena_bytes");
  EXPECT_EQ(arena.verdict, FigureCheck::Verdict::kGrew);
  EXPECT_EQ(arena.delta(), 21);
  EXPECT_EQ(arena.limit, "+2%");
}

TEST(CompareWithBaseline, ShrinkFailsOnlyWithFailOnShrink) {
  const Measurement smaller = Measured({900, 64, 1, 500});
  EXPECT_TRUE(CompareWithBaseline(RecordedBaseline(), {smaller}, {}).passed());
  GateOptions options;
  options.fail_on_shrink = true;
  options.arena_growth = *ParseTolerance("10%", "x");
  const GateResult r = CompareWithBaseline(RecordedBaseline(), {smaller}, options);
  // 100 bytes is exactly the 10% allowed; the partition count has no tolerance.
  EXPECT_EQ(r.checks[0].figures[0].verdict, FigureCheck::Verdict::kPass);
  EXPECT_EQ(r.checks[0].figures[2].verdict, FigureCheck::Verdict::kShrank);
  EXPECT_EQ(r.checks[0].figures[2].limit, "±0");
}

TEST(CompareWithBaseline, MaxDelegatedPartitionsReplacesTheNoGrowthRule) {
  GateOptions options;
  options.max_delegated_partitions = 3;
  EXPECT_TRUE(
      CompareWithBaseline(RecordedBaseline(), {Measured({1000, 64, 3, 500})}, options).passed());
  const GateResult r =
      CompareWithBaseline(RecordedBaseline(), {Measured({1000, 64, 4, 500})}, options);
  EXPECT_EQ(r.checks[0].figures[2].verdict, FigureCheck::Verdict::kGrew);
  EXPECT_EQ(r.checks[0].figures[2].limit, "<= 3");
}

// A newer minimum runtime shuts out devices on the older one: the gate fails when it rises. A
// baseline that recorded none (written before the figure existed) checks nothing.
TEST(CompareWithBaseline, TheMinimumRuntimeVersionMayNotRise) {
  Baseline baseline = RecordedBaseline();
  baseline.models[0].configs[0].figures.min_runtime_version = "2.3.0";
  const auto measured = [](const std::string& version) {
    GatedFigures figures{1000, 64, 2, 500};
    figures.min_runtime_version = version;
    return Measured(figures);
  };
  const GateResult same = CompareWithBaseline(baseline, {measured("2.3.0")}, {});
  EXPECT_TRUE(same.passed());
  EXPECT_EQ(same.total(), 5u);
  const GateResult newer = CompareWithBaseline(baseline, {measured("2.14.0")}, {});
  EXPECT_FALSE(newer.passed());
  const FigureCheck& version = newer.checks[0].figures[4];
  EXPECT_EQ(version.figure, "min_runtime_version");
  EXPECT_EQ(version.before_text, "2.3.0");
  EXPECT_EQ(version.after_text, "2.14.0");
  EXPECT_EQ(version.verdict, FigureCheck::Verdict::kGrew);
  EXPECT_TRUE(CompareWithBaseline(baseline, {measured("1.15.0")}, {}).passed());
  EXPECT_EQ(CompareWithBaseline(RecordedBaseline(), {measured("2.14.0")}, {}).total(), 4u);
  // Recorded, written and read back.
  auto reread = ParseBaseline(BaselineToJson(baseline), "b.json");
  ASSERT_TRUE(reread.ok()) << reread.status().message();
  EXPECT_EQ(reread->models[0].configs[0].figures.min_runtime_version, "2.3.0");
}

GatedFigures WithPlacement(std::map<std::string, uint64_t> delegated,
                           std::map<std::string, uint64_t> fallbacks) {
  GatedFigures figures{1000, 64, 2, 500};
  figures.delegated_nodes = std::move(delegated);
  figures.cpu_fallback_nodes = std::move(fallbacks);
  return figures;
}

const DelegateRequest kGpu{"gpu", std::nullopt, std::nullopt, false, {}};

Baseline GpuBaseline(const GatedFigures& figures) {
  Baseline baseline;
  baseline.models.push_back({"m.tflite", kSha, {{{kGpu}, figures}}});
  return baseline;
}

TEST(BaselineJson, RecordsDelegatedNodesAndFallbacks) {
  const Baseline b = GpuBaseline(WithPlacement({{"gpu", 160}}, {{"CEIL", 2}, {"MIRROR_PAD", 1}}));
  const std::string text = BaselineToJson(b);
  EXPECT_NE(text.find("\"delegated_nodes\": {\n            \"gpu\": 160\n          }"),
            std::string::npos)
      << text;
  auto again = ParseBaseline(text, "b.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->models[0].configs[0].figures, b.models[0].configs[0].figures);
}

// Default: any node that newly falls back to the CPU fails, named with its op and nodes; each op
// may gain --allow-new-fallbacks nodes.
TEST(CompareWithBaseline, ANewCpuFallbackFailsUnlessAllowed) {
  const Baseline baseline = GpuBaseline(WithPlacement({{"gpu", 160}}, {{"CEIL", 2}}));
  Measurement now =
      Measured(WithPlacement({{"gpu", 159}}, {{"CEIL", 2}, {"MIRROR_PAD", 1}}), {kGpu});
  now.cpu_fallback_node_list = {{"CEIL", {"#3", "#9"}}, {"MIRROR_PAD", {"#40"}}};
  const GateResult r = CompareWithBaseline(baseline, {now}, {});
  ASSERT_EQ(r.checks.size(), 1u);
  const std::vector<FigureCheck>& f = r.checks[0].figures;
  ASSERT_EQ(f.size(), 7u);
  EXPECT_EQ(f[4].figure, "delegated_nodes[gpu]");
  EXPECT_EQ(f[4].verdict, FigureCheck::Verdict::kGrew);
  EXPECT_EQ(f[4].limit, "-0");
  EXPECT_EQ(f[5].figure, "cpu_fallback_nodes[CEIL]");
  EXPECT_EQ(f[5].verdict, FigureCheck::Verdict::kPass);
  EXPECT_EQ(f[6].figure, "cpu_fallback_nodes[MIRROR_PAD]");
  EXPECT_EQ(f[6].before, 0u);
  EXPECT_EQ(f[6].after, 1u);
  EXPECT_EQ(f[6].verdict, FigureCheck::Verdict::kGrew);
  EXPECT_EQ(f[6].nodes, std::vector<std::string>{"#40"});
  EXPECT_EQ(r.failures(), 2u);

  GateOptions lenient;
  lenient.allowed_new_fallbacks = 1;
  lenient.allowed_delegated_nodes_drop = 1;
  const GateResult allowed = CompareWithBaseline(baseline, {now}, lenient);
  EXPECT_TRUE(allowed.passed());
  EXPECT_EQ(allowed.checks[0].figures[6].limit, "+1");
}

TEST(CompareWithBaseline, FewerFallbacksFailOnlyWithFailOnShrink) {
  const Baseline baseline = GpuBaseline(WithPlacement({{"gpu", 160}}, {{"CEIL", 2}}));
  const Measurement now = Measured(WithPlacement({{"gpu", 162}}, {}), {kGpu});
  EXPECT_TRUE(CompareWithBaseline(baseline, {now}, {}).passed());
  GateOptions options;
  options.fail_on_shrink = true;
  const GateResult r = CompareWithBaseline(baseline, {now}, options);
  EXPECT_EQ(r.checks[0].figures[4].verdict, FigureCheck::Verdict::kShrank);
  EXPECT_EQ(r.checks[0].figures[5].verdict, FigureCheck::Verdict::kShrank);
  EXPECT_EQ(r.checks[0].figures[5].limit, "±0");
}

// A baseline recorded before placement was gated checks the other figures and says what it
// skipped; the CPU-only plan has no fallbacks to skip.
TEST(CompareWithBaseline, AnOlderBaselineSaysWhatItDoesNotCheck) {
  Baseline baseline = GpuBaseline(GatedFigures{1000, 64, 2, 500});
  const GateResult r = CompareWithBaseline(
      baseline, {Measured(WithPlacement({{"gpu", 1}}, {{"CEIL", 5}}), {kGpu})}, {});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.total(), 4u);
  EXPECT_EQ(r.checks[0].not_checked,
            (std::vector<std::string>{"delegated_nodes", "cpu_fallback_nodes"}));
  const GateResult cpu =
      CompareWithBaseline(RecordedBaseline(), {Measured(WithPlacement({}, {}))}, {});
  EXPECT_TRUE(cpu.checks[0].not_checked.empty());
}

TEST(CompareWithBaseline, CatchesUnknownModelsRenamesAndUnrecordedConfigs) {
  const GatedFigures same{1000, 64, 2, 500};
  const GateResult r = CompareWithBaseline(
      RecordedBaseline(),
      {Measured(same, {}, "new.tflite", kOtherSha), Measured(same, {}, "renamed.tflite", kSha),
       Measured(same, {{"gpu", std::nullopt, std::nullopt, false, {}}})},
      {});
  ASSERT_EQ(r.checks.size(), 3u);
  EXPECT_EQ(r.failures(), 3u);
  EXPECT_NE(r.checks[0].problem.find("not in the baseline"), std::string::npos);
  EXPECT_NE(r.checks[1].problem.find("records this file's contents as \"m.tflite\""),
            std::string::npos);
  EXPECT_NE(r.checks[2].problem.find("configuration not in the baseline"), std::string::npos);
  EXPECT_EQ(r.checks[2].config, "--delegate gpu");
}

TEST(MergeIntoBaseline, ReplacesAddsAndRenames) {
  const DelegateRequest gpu{"gpu", std::nullopt, std::nullopt, false, {}};
  Baseline b = MergeIntoBaseline(RecordedBaseline(),
                                 {Measured({1, 2, 3, 4}), Measured({5, 6, 7, 8}, {gpu})});
  ASSERT_EQ(b.models.size(), 1u);
  ASSERT_EQ(b.models[0].configs.size(), 2u);
  EXPECT_EQ(b.models[0].configs[0].figures, (GatedFigures{1, 2, 3, 4}));
  EXPECT_EQ(b.models[0].configs[1].figures, (GatedFigures{5, 6, 7, 8}));
  b = MergeIntoBaseline(b, {Measured({1, 2, 3, 4}, {}, "renamed.tflite", kSha)});
  ASSERT_EQ(b.models.size(), 1u);
  EXPECT_EQ(b.models[0].file, "renamed.tflite");
  EXPECT_EQ(RecordedConfigs(b, "renamed.tflite").size(), 2u);
  b = MergeIntoBaseline(b, {Measured({1, 2, 3, 4}, {}, "other.tflite", kOtherSha)});
  EXPECT_EQ(b.models.size(), 2u);
}

// A TFLite Micro target is a configuration of its own, beside the TFLite ones of the same model.
TEST(TflmTargetConfig, IsReadWrittenAndMatchedApartFromTfliteConfigs) {
  auto b = ParseBaseline(
      R"({"format":"tflite-analyze-baseline/1","models":[{"file":"m.tflite","sha256":")" + kSha +
          R"(","configs":[{"delegates":[],)" + kFigures + R"(},{"delegates":[],"target":"tflm",)" +
          kFigures + "}]}]}",
      "b.json");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(RecordedConfigs(*b, "m.tflite").size(), 1u);
  EXPECT_EQ(RecordedTargets(*b, "m.tflite"), std::vector<std::string>{"tflm"});
  Measurement tflm = Measured({1100, 64, 2, 500});
  tflm.target = "tflm";
  const GateResult result = CompareWithBaseline(*b, {Measured({1000, 64, 2, 500}), tflm}, {});
  ASSERT_EQ(result.checks.size(), 2u);
  EXPECT_TRUE(result.checks[0].passed());
  EXPECT_EQ(result.checks[1].config, "--target tflm");
  EXPECT_FALSE(result.checks[1].passed());
  const std::string written = BaselineToJson(MergeIntoBaseline(*b, {tflm}));
  EXPECT_NE(written.find(R"("target": "tflm")"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("arena_bytes": 1100)"), std::string::npos) << written;
}

TEST(TflmTargetConfig, AnUnknownTargetIsRefused) {
  auto b =
      ParseBaseline(OneModelBaseline(R"("delegates":[],"target":"tflm-64",)" + kFigures), "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("configs[0].target: expected \"tflm\", \"tflm-32\" or "
                                      "\"tflm-cmsis-nn [--cpu CORE]\""),
            std::string::npos)
      << b.status().message();
}

}  // namespace
}  // namespace tfa
