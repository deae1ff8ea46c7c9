// The gpu profile against upstream's own GPU delegate node selection (GetOpsToReplace with the
// FP16 partition helper) on the corpus models (tests/oracle/models.tar.xz) and on the corpus
// mutants that the GPU delegate takes only in part (tests/oracle/gpu_mutants.tar.xz, rebuilt
// from the corpus with xdelta3). See /work/shared/oracle/README.md.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "tests/support/gpu_mutants.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using testing::OraclePath;
using testing::ReadJsonFile;

// The gpu profile configured as the oracle's run was (its "gpu_options").
DelegateProfile GpuProfileFor(const nlohmann::json& oracle) {
  auto profile = ResolveDelegateProfile("gpu");
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  const nlohmann::json& options = oracle.at("gpu_options");
  EXPECT_TRUE(
      profile->SetOption("allow_quant_ops", options.at("allow_quant_ops") ? "true" : "false").ok());
  EXPECT_TRUE(
      profile->SetOption("opencl_available", options.at("opencl_supported") ? "true" : "false")
          .ok());
  profile->partition.max_partitions =
      options.at("max_delegated_partitions_requested").get<int32_t>();
  return *profile;
}

struct Comparison {
  bool ops_match = false;
  bool log_match = false;
};

// Runs the gpu profile on `model_path` and compares with `oracle`: ops_to_replace exactly (same
// nodes, same order) and, when upstream logged them, the unsupported-node lines.
Comparison CompareWithOracle(const std::string& model_path, const nlohmann::json& oracle,
                             const std::string& label) {
  Comparison result;
  auto model = LoadModelFile(model_path);
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return result;
  const Subgraph& subgraph = model->subgraphs.at(0);
  const DelegateProfile profile = GpuProfileFor(oracle);
  auto selection = SelectDelegateNodes(subgraph, profile);
  EXPECT_TRUE(selection.ok()) << label << ": " << selection.status().message();
  if (!selection.ok()) return result;

  const auto expected_ops = oracle.at("ops_to_replace").get<std::vector<int32_t>>();
  result.ops_match = selection->selection.nodes_to_replace == expected_ops;
  EXPECT_TRUE(result.ops_match) << label << ": " << selection->selection.nodes_to_replace.size()
                                << " nodes to replace, upstream " << expected_ops.size();

  const auto expected_log = oracle.at("unsupported_nodes").get<std::vector<std::string>>();
  if (oracle.at("unsupported_nodes_logged").get<bool>()) {
    result.log_match = selection->unsupported_ops == expected_log;
    EXPECT_EQ(selection->unsupported_ops, expected_log) << label;
  } else {
    // Upstream prints nothing when every node is delegated.
    result.log_match = expected_ops.size() == subgraph.execution_plan.size();
    EXPECT_TRUE(result.log_match) << label;
  }
  return result;
}

TEST(GpuProfileOracleTest, CorpusModelsMatchUpstreamGetOpsToReplace) {
  int compared = 0, ops_matches = 0, log_matches = 0;
  for (const std::string& name : testing::CorpusModelNames()) {
    for (const char* config : {"gpu", "gpu-unlimited", "gpu-noquant"}) {
      const std::string oracle_file = OraclePath("models/" + name + "." + config + ".json");
      const nlohmann::json oracle = ReadJsonFile(oracle_file);
      const Comparison c =
          CompareWithOracle(testing::CorpusModelPath(name), oracle, name + " " + config);
      ++compared;
      ops_matches += c.ops_match;
      log_matches += c.log_match;
    }
  }
  EXPECT_EQ(compared, 33);
  EXPECT_EQ(ops_matches, compared);
  EXPECT_EQ(log_matches, compared);
}

TEST(GpuProfileOracleTest, Int8ModelsMatchUpstreamGetOpsToReplace) {
  int compared = 0, ops_matches = 0, log_matches = 0;
  for (const char* name : {"face_detection_short_range_int8", "face_detection_short_range_floatio",
                           "face_landmark_int8"}) {
    const std::string base = OraclePath(std::string("int8/") + name);
    const Comparison c =
        CompareWithOracle(base + ".tflite", ReadJsonFile(base + ".gpu.json"), name);
    ++compared;
    ops_matches += c.ops_match;
    log_matches += c.log_match;
  }
  EXPECT_EQ(ops_matches, compared);
  EXPECT_EQ(log_matches, compared);
}

TEST(GpuProfileOracleTest, GpuMutantsMatchUpstreamGetOpsToReplace) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("tfa_gpu_mutants_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       "_" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  int mutants = 0, compared = 0, ops_matches = 0, log_matches = 0;
  for (const testing::GpuMutant& mutant : testing::GpuMutants()) {
    const std::string& name = mutant.name;
    const std::string model_path = testing::RebuildGpuMutant(mutant, dir.string());
    ++mutants;
    for (const char* config : {"gpu", "gpu-unlimited", "gpu-max3"}) {
      const nlohmann::json oracle =
          ReadJsonFile(OraclePath("gpu_mutants/" + name + "." + config + ".json"));
      const Comparison c = CompareWithOracle(model_path, oracle, name + " " + config);
      ++compared;
      ops_matches += c.ops_match;
      log_matches += c.log_match;
    }
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(mutants, 17);
  EXPECT_EQ(ops_matches, compared);
  EXPECT_EQ(log_matches, compared);
}

}  // namespace
}  // namespace tfa
