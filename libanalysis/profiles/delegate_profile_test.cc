#include "libanalysis/profiles/delegate_profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "libanalysis/profiles/builtin_profile_sources.h"

namespace tfa {
namespace {

constexpr char kMinimal[] = R"({"format": "tflite-analyze-profile/1", "name": "mine",
  "ops": [{"op": "CONV_2D", "max_version": 3, "input_types": ["float32"],
           "fused_activation_in": ["NONE", "RELU"], "constant_weights": true, "max_stride": 2},
          {"op": "MyOp", "custom": true}],
  "options": {"fast": {"default": false, "description": "d"}},
  "partition": {"max_partitions": 2, "min_nodes_per_partition": 3, "greedy": false},
  "transfer": {"bandwidth_bytes_per_second": 1000, "transition_latency_seconds": 0.5},
  "kernel": {"delegate_kernel": "gpu", "prepare_before_delegation": false}})";

TEST(DelegateProfileTest, ParsesEveryDeclaredField) {
  auto profile = ParseDelegateProfileJson(kMinimal, "mine.json");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  EXPECT_EQ(profile->name, "mine");
  EXPECT_EQ(profile->kind, ProfileKind::kRules);
  ASSERT_EQ(profile->ops.size(), 2u);
  const OpRule& conv = profile->ops[0];
  EXPECT_EQ(conv.max_version, 3);
  EXPECT_EQ(conv.input_types, std::vector<TensorType>{TensorType::kFloat32});
  EXPECT_EQ(conv.fused_activation_in,
            (std::vector<Activation>{Activation::kNone, Activation::kRelu}));
  EXPECT_TRUE(conv.constant_weights);
  EXPECT_EQ(conv.max_stride, 2);
  EXPECT_TRUE(profile->ops[1].custom);
  EXPECT_EQ(profile->partition.max_partitions, 2);
  EXPECT_EQ(profile->partition.min_nodes_per_partition, 3);
  EXPECT_FALSE(profile->partition.greedy);
  EXPECT_FALSE(profile->OptionEnabled("fast"));
  EXPECT_DOUBLE_EQ(profile->transfer.EstimatedCopySeconds(3000, 2), 3.0 + 1.0);
  EXPECT_EQ(profile->kernel.delegate_kernel, "gpu");
  EXPECT_FALSE(profile->kernel.prepare_before_delegation);
}

TEST(DelegateProfileTest, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = "{\"ops\": " + std::string(100, '[') + std::string(100, ']') + "}";
  auto profile = ParseDelegateProfileJson(deep, "deep.json");
  ASSERT_FALSE(profile.ok());
  EXPECT_EQ(profile.status().message().rfind("deep.json: ", 0), 0u) << profile.status().message();
  EXPECT_NE(profile.status().message().find("nest"), std::string::npos)
      << profile.status().message();
}

TEST(DelegateProfileTest, FindsRulesByBuiltinNameOrCustomCode) {
  auto profile = ParseDelegateProfileJson(kMinimal, "mine.json");
  ASSERT_TRUE(profile.ok());
  Node conv;
  conv.op = "CONV_2D";
  EXPECT_EQ(profile->FindRule(conv), &profile->ops[0]);
  Node custom;
  custom.kind = NodeKind::kCustom;
  custom.op = "MyOp";
  EXPECT_EQ(profile->FindRule(custom), &profile->ops[1]);
  custom.op = "CONV_2D";  // a custom op named like a builtin is not the builtin
  EXPECT_EQ(profile->FindRule(custom), nullptr);
}

TEST(DelegateProfileTest, MalformedProfilesAreOneLineErrorsNamingTheField) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"{", "p.json: not valid JSON"},
      {R"({"format": "x", "name": "a", "ops": []})",
       "p.json: format: expected \"tflite-analyze-profile/1\""},
      {R"({"format": "tflite-analyze-profile/1", "ops": []})", "p.json: name: missing"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "NOPE"}]})",
       "p.json: ops[0]: unknown builtin op 'NOPE'; custom ops need \"custom\": true"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "CONV2D"}]})",
       "p.json: ops[0]: unknown builtin op 'CONV2D' (did you mean CONV_2D?); custom ops need "
       "\"custom\": true"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "ADD", "max_version": "2"}]})",
       "p.json: ops[0].max_version: expected an integer"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "ADD", "input_types": ["float33"]}]})",
       "p.json: ops[0].input_types: unknown tensor type 'float33'"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "ADD", "checks": ["nope"]}]})",
       "p.json: ops[0].checks: unknown check 'nope'"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "ADD", "colour": 1}]})",
       "p.json: ops[0].colour: unknown field"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [{"op": "ADD"}, {"op": "ADD"}]})",
       "p.json: ops[1]: second rule for ADD"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [], "transfer": {"bandwidth_bytes_per_second": -1}})",
       "p.json: transfer.bandwidth_bytes_per_second: expected a non-negative number"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [], "kernel": {"delegate_kernel": "npu"}})",
       "p.json: kernel.delegate_kernel: expected \"gpu\" or absent"},
      // A misspelt setting would silently keep its default: refused, as everywhere else.
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [], "partition": {"max_partition": 2}})",
       "p.json: partition.max_partition: unknown field"},
      {R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [], "colour": 1})",
       "p.json: colour: unknown field"},
  };
  for (const auto& c : cases) {
    auto profile = ParseDelegateProfileJson(c.text, "p.json");
    ASSERT_FALSE(profile.ok()) << c.text;
    EXPECT_EQ(profile.status().message(), c.message);
  }
}

TEST(DelegateProfileTest, OpsFormNamesOnlyBuiltinOpsAndTheModelsOwn) {
  Model model;
  model.path = "m.tflite";
  model.subgraphs.resize(2);
  model.subgraphs[1].nodes.resize(1);
  model.subgraphs[1].nodes[0].op = "MyCustom";
  model.subgraphs[1].nodes[0].kind = NodeKind::kCustom;
  auto known = ResolveDelegateProfile("ops=ADD,MyCustom");
  ASSERT_TRUE(known.ok());
  EXPECT_TRUE(CheckClaimedOpNames(*known, model).ok());
  auto typo = ResolveDelegateProfile("ops=ADD,CONV2D");
  ASSERT_TRUE(typo.ok());
  EXPECT_EQ(CheckClaimedOpNames(*typo, model).message(),
            "--delegate ops=ADD,CONV2D: unknown op 'CONV2D', neither a builtin op nor an op of "
            "m.tflite (did you mean CONV_2D?)");
  auto custom_typo = ResolveDelegateProfile("ops=MyCustum");
  ASSERT_TRUE(custom_typo.ok());
  EXPECT_EQ(CheckClaimedOpNames(*custom_typo, model).message(),
            "--delegate ops=MyCustum: unknown op 'MyCustum', neither a builtin op nor an op of "
            "m.tflite (did you mean MyCustom?)");
}

TEST(DelegateProfileTest, OpsAndNodesForms) {
  auto ops = ResolveDelegateProfile("ops=ADD,SUB,MyCustom");
  ASSERT_TRUE(ops.ok()) << ops.status().message();
  EXPECT_EQ(ops->kind, ProfileKind::kOps);
  EXPECT_EQ(ops->claimed_ops, (std::vector<std::string>{"ADD", "SUB", "MyCustom"}));
  auto nodes = ResolveDelegateProfile("nodes=0,3,5");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  EXPECT_EQ(nodes->kind, ProfileKind::kNodes);
  EXPECT_EQ(nodes->claimed_nodes, (std::vector<int32_t>{0, 3, 5}));

  EXPECT_EQ(ResolveDelegateProfile("nodes=1,x").status().message(),
            "--delegate nodes=1,x: 'x' is not a node index");
  EXPECT_EQ(ResolveDelegateProfile("nodes=-1").status().message(),
            "--delegate nodes=-1: '-1' is not a node index");
  EXPECT_EQ(ResolveDelegateProfile("ops=ADD,,SUB").status().message(),
            "--delegate ops=ADD,,SUB: empty item in the list");
  EXPECT_FALSE(ResolveDelegateProfile("ops=").ok());
  EXPECT_FALSE(ResolveDelegateProfile("ops=ADD,").ok());
}

TEST(DelegateProfileTest, PluginProfileFieldsAreReadAndCheckedOneLine) {
  auto profile = ParseDelegateProfileJson(
      R"({"format":"tflite-analyze-profile/1","name":"npu:x","unlisted_builtin_supported":true,
          "compiler_plugin":{"vendor":"x"},
          "ops":[{"op":"SUB","partition_index":1},{"op":"WHERE","denied":true}]})",
      "x.json");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  ASSERT_TRUE(profile->compiler_plugin.has_value());
  EXPECT_EQ(profile->compiler_plugin->vendor, "x");
  EXPECT_TRUE(profile->unlisted_builtin_supported);
  EXPECT_EQ(profile->ops[0].partition_index, 1u);
  EXPECT_TRUE(profile->ops[1].denied);
  EXPECT_FALSE(ParseDelegateProfileJson(
                   R"({"format":"tflite-analyze-profile/1","name":"n","ops":[],
                       "compiler_plugin":{"vendor":"x","partition_strategy":"weakly_connected"}})",
                   "x.json")
                   .ok());
  EXPECT_FALSE(ParseDelegateProfileJson(
                   R"({"format":"tflite-analyze-profile/1","name":"n","ops":[],
                       "compiler_plugin":{}})",
                   "x.json")
                   .ok());
  EXPECT_FALSE(ParseDelegateProfileJson(
                   R"({"format":"tflite-analyze-profile/1","name":"n",
                       "ops":[{"op":"ADD","partition_index":-1}]})",
                   "x.json")
                   .ok());
}

TEST(DelegateProfileTest, BuiltinProfilesAllLoad) {
  const std::vector<std::string> names = BuiltinProfileNames();
  for (const char* expected : {"add-sub", "flex", "gpu", "nnapi", "sin", "xnnpack"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const std::string& name : names) {
    auto profile = ResolveDelegateProfile(name);
    ASSERT_TRUE(profile.ok()) << profile.status().message();
    // A compiler plugin is named as --accelerator names it (npu:VENDOR), its file npu-VENDOR.
    if (profile->compiler_plugin) {
      EXPECT_EQ(name, "npu-" + profile->compiler_plugin->vendor);
      EXPECT_EQ(profile->name, "npu:" + profile->compiler_plugin->vendor);
      EXPECT_EQ(profile->trust, ProfileTrust::kTranscribed) << name;
    } else {
      EXPECT_EQ(profile->name, name);
    }
    EXPECT_FALSE(profile->ops.empty()) << name;
    for (const OpRule& rule : profile->ops)
      EXPECT_FALSE(rule.source.empty()) << name << " " << rule.op;
  }
}

TEST(DelegateProfileTest, TrustLabelSaysWhereTheRulesComeFrom) {
  const struct {
    const char* spec;
    const char* trust;
  } cases[] = {{"gpu", "verified"},        {"xnnpack", "verified"}, {"nnapi", "transcribed"},
               {"add-sub", "transcribed"}, {"sin", "user"},         {"ops=ADD", "user"},
               {"nodes=0", "user"}};
  for (const auto& c : cases) {
    auto profile = ResolveDelegateProfile(c.spec);
    ASSERT_TRUE(profile.ok()) << profile.status().message();
    EXPECT_STREQ(ProfileTrustName(profile->trust), c.trust) << c.spec;
  }
  // A file given by path is the user's, even an unchanged copy of a built-in profile.
  const std::string path = ::testing::TempDir() + "/gpu_copy.json";
  for (const BuiltinProfileSource& source : BuiltinProfileSources()) {
    if (source.name == std::string_view("gpu")) std::ofstream(path) << source.json;
  }
  auto copy = ResolveDelegateProfile(path);
  ASSERT_TRUE(copy.ok()) << copy.status().message();
  EXPECT_EQ(copy->name, "gpu");
  EXPECT_EQ(copy->trust, ProfileTrust::kUser);
}

TEST(DelegateProfileTest, IntegerOptionsHaveARange) {
  auto nnapi = ResolveDelegateProfile("nnapi");
  ASSERT_TRUE(nnapi.ok()) << nnapi.status().message();
  EXPECT_EQ(nnapi->OptionNumber("android_sdk_version"), 35);
  EXPECT_EQ(nnapi->partition.max_partitions, 3);
  ASSERT_TRUE(nnapi->SetOption("max_number_delegated_partitions", "5").ok());
  EXPECT_EQ(nnapi->partition.max_partitions, 5);
  EXPECT_EQ(nnapi->SetOption("max_number_delegated_partitions", "-1").message(),
            "delegate nnapi: option max_number_delegated_partitions expects an integer in [0, "
            "2147483647], got '-1'");
  EXPECT_EQ(nnapi->SetOption("disallow_nnapi_cpu", "30").message(),
            "delegate nnapi: option disallow_nnapi_cpu expects true or false, got '30'");
  auto bad = ParseDelegateProfileJson(
      R"({"format": "tflite-analyze-profile/1", "name": "a", "ops": [],
          "options": {"level": {"default": 40, "min": 27, "max": 35}}})",
      "p.json");
  EXPECT_EQ(bad.status().message(), "p.json: options.level: default 40 outside [27, 35]");
}

TEST(DelegateProfileTest, GpuDefaultsAreUpstreams) {
  auto gpu = ResolveDelegateProfile("gpu");
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  EXPECT_TRUE(gpu->OptionEnabled("allow_quant_ops"));
  EXPECT_TRUE(gpu->OptionEnabled("opencl_available"));
  EXPECT_EQ(gpu->partition.EffectiveMaxPartitions(), 1);
  EXPECT_TRUE(gpu->partition.fp16_helper);
  EXPECT_EQ(gpu->kernel.delegate_kernel, "gpu");
  EXPECT_TRUE(gpu->kernel.prepare_before_delegation);
  auto xnnpack = ResolveDelegateProfile("xnnpack");
  ASSERT_TRUE(xnnpack.ok());
  EXPECT_FALSE(xnnpack->kernel.prepare_before_delegation);
  gpu->partition.max_partitions = 0;
  EXPECT_EQ(gpu->partition.EffectiveMaxPartitions(), 1);
  gpu->partition.max_partitions = -4;
  EXPECT_EQ(gpu->partition.EffectiveMaxPartitions(), 1);

  EXPECT_TRUE(gpu->SetOption("allow_quant_ops", "false").ok());
  EXPECT_FALSE(gpu->OptionEnabled("allow_quant_ops"));
  EXPECT_EQ(gpu->SetOption("allow_quant_ops", "maybe").message(),
            "delegate gpu: option allow_quant_ops expects true or false, got 'maybe'");
  EXPECT_EQ(gpu->SetOption("precision", "fp16").message(),
            "delegate gpu: unknown option 'precision' (options: allow_quant_ops, "
            "is_precision_loss_allowed, opencl_available)");
}

TEST(DelegateProfileTest, UserProfileFromAPath) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "tfa_profile_test_user.json";
  std::ofstream(path) << kMinimal;
  auto profile = ResolveDelegateProfile(path.string());
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  EXPECT_EQ(profile->name, "mine");
  std::filesystem::remove(path);
  EXPECT_FALSE(ResolveDelegateProfile(path.string()).ok());
}

}  // namespace
}  // namespace tfa
