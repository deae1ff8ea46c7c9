// The kernel Prepare replay plus the arena planner against upstream TFLite's own figures for the
// corpus models (tests/oracle/models.tar.xz), the int8 models (tests/oracle/int8.tar.xz) and the
// model-family miniatures (tests/oracle/families.tar.xz: transformers, an LLM decoder, LSTMs,
// transposed and 3-D convolutions, RFFT2D, 16x8 quantization, SSD post-processing), see
// tests/oracle/README.md: the arena and persistent arena sizes and the offset of every tensor
// upstream placed in an arena, temporaries included, with and without delegates.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/node_selection.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using nlohmann::json;

struct OracleCase {
  std::string model_path;   // the .tflite file
  std::string oracle_path;  // its MODEL.CONFIG.json
  std::string config;
};

std::string CaseName(const ::testing::TestParamInfo<OracleCase>& info) {
  std::string name = info.param.oracle_path.substr(info.param.oracle_path.rfind('/') + 1);
  name = name.substr(0, name.size() - 5);  // ".json"
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// The nodes a configuration's delegate claims: by op for the claim-by-op delegates, as upstream
// chose them (the delegate entries of the oracle's plan) for the GPU delegate (default,
// unlimited partitions, quantized ops not allowed) and XNNPACK.
std::vector<int32_t> NodesToReplace(const Subgraph& subgraph, const std::string& config,
                                    const json& oracle) {
  static const std::map<std::string, std::set<std::string>> kClaimedOps = {
      {"conv-dw-add", {"CONV_2D", "DEPTHWISE_CONV_2D", "ADD"}},
      {"add-sub", {"ADD", "SUB"}},
      {"mul-concat-reshape", {"MUL", "CONCATENATION", "RESHAPE"}},
      {"fc-bmm-softmax", {"FULLY_CONNECTED", "BATCH_MATMUL", "SOFTMAX"}},
  };
  std::vector<int32_t> nodes;
  if (const auto claimed = kClaimedOps.find(config); claimed != kClaimedOps.end()) {
    for (size_t i = 0; i < subgraph.nodes.size(); ++i) {
      if (claimed->second.count(subgraph.nodes[i].op)) nodes.push_back(static_cast<int32_t>(i));
    }
    return nodes;
  }
  for (const json& entry : oracle.at("execution_plan")) {
    if (!entry.contains("delegate")) continue;
    for (int32_t node : entry["delegate"]["nodes_to_replace"]) nodes.push_back(node);
  }
  return nodes;
}

// The GPU delegate's FP16 helper leaves the nodes it selects reading the fp16 constants of
// constant DEQUANTIZE nodes instead of their outputs (those outputs may then be read by nobody).
std::vector<InputRemap> Fp16InputRemaps(const Subgraph& subgraph,
                                        const std::vector<int32_t>& selected) {
  std::map<int32_t, int32_t> fp16_constant_of;  // DEQUANTIZE output -> its fp16 constant input
  for (const Node& node : subgraph.nodes) {
    if (node.op != "DEQUANTIZE" || node.inputs.empty() || node.outputs.empty()) continue;
    const Tensor& input = subgraph.tensors.at(node.inputs[0]);
    if (input.is_constant() && input.type == TensorType::kFloat16) {
      fp16_constant_of[node.outputs[0]] = node.inputs[0];
    }
  }
  std::vector<InputRemap> remaps;
  for (int32_t node : selected) {
    const auto& inputs = subgraph.nodes.at(node).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto constant = fp16_constant_of.find(inputs[i]);
      if (constant == fp16_constant_of.end()) continue;
      remaps.push_back({node, static_cast<int32_t>(i), inputs[i], constant->second});
    }
  }
  return remaps;
}

class KernelPrepareOracleTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(KernelPrepareOracleTest, ArenaMatchesUpstream) {
  const OracleCase& c = GetParam();
  const json oracle = testing::ReadJsonFile(c.oracle_path);
  auto model = LoadModelFile(c.model_path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Subgraph& original = model->subgraphs.at(0);

  Subgraph graph = original;
  PrepareOptions options;
  if (c.config != "none") {
    const bool gpu = c.config.rfind("gpu", 0) == 0;
    const std::string delegate = gpu ? "gpu" : c.config == "xnnpack" ? "xnnpack" : "ops";
    const std::vector<int32_t> nodes = NodesToReplace(original, c.config, oracle);
    const Subgraph remapped =
        gpu ? ApplyInputRemaps(original, Fp16InputRemaps(original, nodes)) : original;
    auto delegated =
        ReplaceNodeSubsetsWithDelegateKernels(remapped, nodes, delegate, PartitionOptions{});
    ASSERT_TRUE(delegated.ok()) << delegated.status().message();
    graph = std::move(delegated->subgraph);
    options.delegate_kernels["gpu"] = DelegateKernelKind::kGpu;
    options.prepare_before_delegation = c.config != "xnnpack";
    options.gpu_allow_quant_ops = c.config != "gpu-noquant";
  }
  auto prepared = ReplayKernelPrepare(graph, options);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  auto plan = PlanArena(prepared->subgraph);
  ASSERT_TRUE(plan.ok()) << plan.status().message();

  EXPECT_EQ(prepared->subgraph.tensors.size(), oracle["tensors"].size());
  EXPECT_EQ(plan->arena_size, oracle["arena_size"].get<uint64_t>());
  EXPECT_EQ(plan->persistent_arena_size, oracle["arena_persist_size"].get<uint64_t>());
  int mismatches = 0;
  for (const json& t : oracle["tensors"]) {
    const size_t index = t["tensor"];
    const bool placed = t.contains("offset") && !t["offset"].is_null();
    const ArenaKind expected_arena = !placed ? ArenaKind::kNone
                                     : t["allocation_type"] == "arena_rw_persistent"
                                         ? ArenaKind::kPersistent
                                         : ArenaKind::kRw;
    if (index >= plan->tensors.size()) {
      ADD_FAILURE() << "tensor " << index << " missing";
      continue;
    }
    const TensorPlacement& ours = plan->tensors[index];
    const bool same =
        ours.arena == expected_arena && (!placed || ours.offset == t["offset"].get<uint64_t>());
    if (!same && ++mismatches <= 10) {
      ADD_FAILURE() << "tensor " << index << " (" << t["name"] << "): upstream "
                    << t["allocation_type"] << " offset " << t.value("offset", json()) << ", ours "
                    << ArenaKindName(ours.arena) << " offset " << ours.offset;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

std::vector<OracleCase> CorpusCases() {
  std::vector<OracleCase> cases;
  for (const std::string& model : testing::CorpusModelNames()) {
    for (const char* config : {"none", "conv-dw-add", "add-sub", "mul-concat-reshape", "gpu",
                               "gpu-unlimited", "gpu-noquant", "xnnpack"}) {
      cases.push_back({testing::CorpusModelPath(model),
                       testing::OraclePath("models/" + model + "." + config + ".json"), config});
    }
  }
  return cases;
}

// Every int8/NAME.tflite the archive holds, with the configurations upstream ran on it.
std::vector<OracleCase> Int8Cases() {
  std::vector<std::string> models;
  for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath("int8"))) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path().stem().string());
  }
  std::sort(models.begin(), models.end());
  std::vector<OracleCase> cases;
  for (const std::string& model : models) {
    for (const char* config : {"none", "conv-dw-add", "gpu", "xnnpack"}) {
      cases.push_back({testing::OraclePath("int8/" + model + ".tflite"),
                       testing::OraclePath("int8/" + model + "." + config + ".json"), config});
    }
  }
  return cases;
}

// Every families/NAME.tflite the archive holds, with each configuration upstream produced (two
// decoder twins lack gpu-unlimited: upstream crashed on them).
std::vector<OracleCase> FamilyCases() {
  std::vector<std::string> models;
  for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath("families"))) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path().stem().string());
  }
  std::sort(models.begin(), models.end());
  std::vector<OracleCase> cases;
  for (const std::string& model : models) {
    for (const char* config : {"none", "conv-dw-add", "add-sub", "mul-concat-reshape",
                               "fc-bmm-softmax", "gpu", "gpu-unlimited", "gpu-noquant"}) {
      const std::string oracle = testing::OraclePath("families/" + model + "." + config + ".json");
      if (!std::filesystem::exists(oracle)) continue;
      cases.push_back({testing::OraclePath("families/" + model + ".tflite"), oracle, config});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Corpus, KernelPrepareOracleTest, ::testing::ValuesIn(CorpusCases()),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(Int8, KernelPrepareOracleTest, ::testing::ValuesIn(Int8Cases()), CaseName);
INSTANTIATE_TEST_SUITE_P(Families, KernelPrepareOracleTest, ::testing::ValuesIn(FamilyCases()),
                         CaseName);

}  // namespace
}  // namespace tfa
