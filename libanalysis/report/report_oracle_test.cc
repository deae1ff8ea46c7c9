// The whole pipeline (profiles -> delegation -> kernel Prepare replay -> arena) against upstream's
// own results: every real-model configuration of tests/oracle/models and every generated graph
// of tests/oracle/graphs, as `tflite-analyze report` computes them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <span>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using nlohmann::json;

// Delegate requests of an oracle configuration, as DESIGN.md maps them to command-line flags.
std::vector<DelegateRequest> RequestsFor(const std::string& config) {
  DelegateRequest r;
  if (config == "none") return {};
  if (config == "conv-dw-add") r.spec = "ops=CONV_2D,DEPTHWISE_CONV_2D,ADD";
  if (config == "add-sub") r.spec = "ops=ADD,SUB";
  if (config == "mul-concat-reshape") r.spec = "ops=MUL,CONCATENATION,RESHAPE";
  if (config.rfind("gpu", 0) == 0) r.spec = "gpu";
  if (config == "gpu-unlimited") r.max_partitions = 2147483647;
  if (config == "gpu-max3") r.max_partitions = 3;
  if (config == "gpu-noquant") r.options.emplace_back("allow_quant_ops", "false");
  if (config == "xnnpack") r.spec = "xnnpack";
  return {r};
}

std::vector<int32_t> Sorted(std::span<const int32_t> ids) {
  std::vector<int32_t> v(ids.begin(), ids.end());
  std::sort(v.begin(), v.end());
  return v;
}

struct OracleCase {
  std::string model;
  std::string config;
};

std::vector<OracleCase> ModelCases() {
  std::vector<OracleCase> cases;
  for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath("models"))) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    const std::string stem = file.substr(0, file.size() - 5);
    const size_t dot = stem.rfind('.');
    cases.push_back({stem.substr(0, dot), stem.substr(dot + 1)});
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
    return std::tie(a.model, a.config) < std::tie(b.model, b.config);
  });
  return cases;
}

class ModelOracleTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(ModelOracleTest, PartitionsAndArenaMatchUpstream) {
  const OracleCase& c = GetParam();
  const json oracle =
      testing::ReadJsonFile(testing::OraclePath("models/" + c.model + "." + c.config + ".json"));
  ASSERT_EQ(oracle.at("status"), "ok");
  auto model = LoadModelFile(testing::CorpusModelPath(c.model));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ReportOptions options;
  options.delegates = RequestsFor(c.config);
  auto report = BuildReport(*model, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const SubgraphReport& sg = report->subgraphs.at(0);

  // Delegate kernels: nodes_to_replace, input and output tensors, in execution order.
  std::vector<const PartitionReport*> delegated;
  for (const PartitionReport& p : sg.partitions) {
    if (p.kind == PartitionReport::Kind::kDelegate) delegated.push_back(&p);
  }
  std::vector<json> kernels;
  for (const json& e : oracle.at("execution_plan")) {
    if (e.contains("delegate")) kernels.push_back(e.at("delegate"));
  }
  ASSERT_EQ(delegated.size(), kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(Sorted(delegated[i]->nodes),
              Sorted(kernels[i].at("nodes_to_replace").get<std::vector<int32_t>>()));
    EXPECT_EQ(Sorted(delegated[i]->inputs),
              Sorted(kernels[i].at("input_tensors").get<std::vector<int32_t>>()));
    EXPECT_EQ(Sorted(delegated[i]->outputs),
              Sorted(kernels[i].at("output_tensors").get<std::vector<int32_t>>()));
  }

  // Arena: both high-water marks and the offset of every arena tensor the model declares or a
  // kernel adds, temporaries included.
  ASSERT_TRUE(sg.arena.has_value());
  EXPECT_EQ(sg.arena->size, oracle.at("arena_size").get<uint64_t>());
  EXPECT_EQ(sg.arena->persistent_size, oracle.at("arena_persist_size").get<uint64_t>());
  std::map<int32_t, uint64_t> offsets;
  for (const ArenaAllocation& a : sg.arena->allocs) offsets[a.tensor] = a.offset;
  int checked = 0;
  for (const json& t : oracle.at("tensors")) {
    const std::string alloc = t.at("allocation_type");
    if (alloc != "arena_rw" && alloc != "arena_rw_persistent") continue;
    if (!t.contains("offset") || t.at("offset").is_null()) continue;
    const int32_t index = t.at("tensor");
    ASSERT_TRUE(offsets.count(index)) << "tensor " << index << " has no arena allocation";
    EXPECT_EQ(offsets[index], t.at("offset").get<uint64_t>()) << "tensor " << index;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Upstream, ModelOracleTest, ::testing::ValuesIn(ModelCases()),
                         [](const auto& info) {
                           std::string name = info.param.model + "_" + info.param.config;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// The copies of every GPU kernel upstream built, on the model families and the corpus models:
// the kernel's runtime inputs (delegate_kernels_init input_indices, a quantized tensor named by
// its float twin) are copied on every Invoke, its kTfLiteMmapRo inputs are uploaded once, and
// its outputs (output_indices) are copied back on every Invoke.
// Persistent inputs the CPU computes once (the families' folded `embed`) are runtime inputs.
TEST(GpuCopyOracle, KernelsCopyTheRuntimeInputsUpstreamListsOnEveryInvoke) {
  int kernels = 0, persistent_inputs = 0;
  for (const char* dir : {"families", "models"}) {
    for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath(dir))) {
      const std::string file = entry.path().filename().string();
      const size_t dot = file.find('.');
      const std::string config = file.substr(dot + 1, file.size() - dot - 6);
      if (entry.path().extension() != ".json" || config.rfind("gpu", 0) != 0) continue;
      SCOPED_TRACE(file);
      const json oracle = testing::ReadJsonFile(entry.path().string());
      if (oracle.at("status") != "ok" || !oracle.contains("delegate_kernels_init")) continue;
      const std::string name = file.substr(0, dot);
      auto model =
          LoadModelFile(std::string(dir) == "models"
                            ? testing::CorpusModelPath(name)
                            : testing::OraclePath(std::string(dir) + "/" + name + ".tflite"));
      ASSERT_TRUE(model.ok()) << model.status().message();
      ReportOptions options;
      options.delegates = RequestsFor(config);
      auto report = BuildReport(*model, options);
      ASSERT_TRUE(report.ok()) << report.status().message();
      const json& tensors = oracle.at("tensors");
      for (const json& k : oracle.at("delegate_kernels_init")) {
        if (k.at("build_status") != "ok") continue;
        std::map<int32_t, int32_t> original;
        for (const json& pair : k.at("quant_conversion_map")) original[pair[0]] = pair[1];
        uint64_t per_invoke = 0, once = 0, back = 0;
        for (const int32_t t : k.at("output_indices").get<std::vector<int32_t>>()) {
          const int32_t tensor = t < static_cast<int32_t>(tensors.size()) ? t : original.at(t);
          back += tensors.at(tensor).at("bytes").get<uint64_t>();
        }
        for (const int32_t t : k.at("input_indices").get<std::vector<int32_t>>()) {
          const int32_t tensor = t < static_cast<int32_t>(tensors.size()) ? t : original.at(t);
          per_invoke += tensors.at(tensor).at("bytes").get<uint64_t>();
          persistent_inputs += tensors.at(tensor).at("allocation_type") == "persistent_ro";
        }
        for (const int32_t t : k.at("input_tensors").get<std::vector<int32_t>>()) {
          if (tensors.at(t).at("allocation_type") == "mmap_ro")
            once += tensors.at(t).at("bytes").get<uint64_t>();
        }
        const auto nodes = Sorted(k.at("nodes_to_replace").get<std::vector<int32_t>>());
        const auto& partitions = report->subgraphs.at(0).partitions;
        const auto kernel = std::find_if(partitions.begin(), partitions.end(), [&](const auto& p) {
          return p.kind == PartitionReport::Kind::kDelegate && Sorted(p.nodes) == nodes;
        });
        ASSERT_NE(kernel, partitions.end());
        EXPECT_EQ(kernel->bytes_to_delegate, per_invoke);
        EXPECT_EQ(kernel->init_upload_bytes, once);
        EXPECT_EQ(kernel->bytes_from_delegate, back);
        ++kernels;
      }
    }
  }
  EXPECT_EQ(kernels, 82);
  EXPECT_GT(persistent_inputs, 0);
}

TEST(GraphOracle, EveryGeneratedGraphPartitionsAndPlansAsUpstream) {
  int cases = 0;
  for (const char* file : {"graphs/random_small.jsonl", "graphs/random_medium.jsonl"}) {
    for (const json& c : testing::ReadJsonLines(testing::OraclePath(file))) {
      SCOPED_TRACE(c.at("id").get<std::string>());
      auto model = ParseGraphJson(c.at("graph").dump(), "graph.json");
      ASSERT_TRUE(model.ok()) << model.status().message();
      ReportOptions options;
      const auto claimed = c.at("delegate_nodes").get<std::vector<int32_t>>();
      if (!claimed.empty()) {
        DelegateRequest r;
        r.spec = "nodes=";
        for (size_t i = 0; i < claimed.size(); ++i)
          r.spec += (i ? "," : "") + std::to_string(claimed[i]);
        r.no_greedy = !c.at("greedy").get<bool>();
        options.delegates.push_back(r);
      }
      auto report = BuildReport(*model, options);
      ASSERT_TRUE(report.ok()) << report.status().message();
      const SubgraphReport& sg = report->subgraphs.at(0);
      const json& expected = claimed.empty() ? c.at("expected") : c.at("expected_after_delegation");
      const auto& subsets = c.at("expected").at("subsets");
      if (!claimed.empty()) {
        ASSERT_EQ(sg.partitions.size(), subsets.size());
        for (size_t i = 0; i < subsets.size(); ++i) {
          const bool is_delegate = subsets[i].at("type") == "delegate";
          EXPECT_EQ(sg.partitions[i].kind == PartitionReport::Kind::kDelegate, is_delegate);
          EXPECT_EQ(sg.partitions[i].nodes, subsets[i].at("nodes").get<std::vector<int32_t>>());
          if (is_delegate) {
            EXPECT_EQ(sg.partitions[i].inputs, subsets[i].at("inputs").get<std::vector<int32_t>>());
            EXPECT_EQ(sg.partitions[i].outputs,
                      subsets[i].at("outputs").get<std::vector<int32_t>>());
          }
        }
      }
      EXPECT_EQ(sg.arena->size, expected.at("arena_size").get<uint64_t>());
      EXPECT_EQ(sg.arena->persistent_size, expected.at("persistent_arena_size").get<uint64_t>());
      std::map<int32_t, uint64_t> offsets;
      for (const ArenaAllocation& a : sg.arena->allocs) offsets[a.tensor] = a.offset;
      for (const auto& [tensor, offset] : expected.at("offsets").items()) {
        if (offset.is_null()) continue;
        EXPECT_EQ(offsets[std::stoi(tensor)], offset.get<uint64_t>()) << "tensor " << tensor;
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 320);
}

}  // namespace
}  // namespace tfa
