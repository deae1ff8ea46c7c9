// The xnnpack profile against upstream's XNNPACK delegate (default options, QS8/QU8 on) on the
// corpus models (tests/oracle/models.tar.xz) and on int8 models made from them
// (tests/oracle/int8.tar.xz): the delegate kernels and the nodes each one replaces.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using testing::OraclePath;
using testing::ReadJsonFile;

// The nodes each delegate kernel replaces, in kernel order.
std::vector<std::vector<int32_t>> ExpectedKernels(const nlohmann::json& oracle) {
  std::vector<std::vector<int32_t>> kernels;
  for (const auto& kernel : oracle.at("delegate_kernels_init")) {
    kernels.push_back(kernel.at("nodes_to_replace").get<std::vector<int32_t>>());
  }
  return kernels;
}

bool MatchesOracle(const std::string& model_path, const std::string& oracle_path) {
  auto model = LoadModelFile(model_path);
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return false;
  const Subgraph& subgraph = model->subgraphs.at(0);
  auto profile = ResolveDelegateProfile("xnnpack");
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  auto selection = SelectDelegateNodes(subgraph, *profile);
  EXPECT_TRUE(selection.ok()) << selection.status().message();
  if (!selection.ok()) return false;
  auto delegated = ApplyDelegateSelection(subgraph, *profile, *selection);
  EXPECT_TRUE(delegated.ok()) << delegated.status().message();
  if (!delegated.ok()) return false;
  std::vector<std::vector<int32_t>> kernels;
  for (int32_t kernel : delegated->kernel_nodes) {
    kernels.emplace_back(delegated->subgraph.nodes[kernel].replaces);
  }
  const auto expected = ExpectedKernels(ReadJsonFile(oracle_path));
  EXPECT_EQ(kernels.size(), expected.size()) << model_path;
  EXPECT_EQ(kernels, expected) << model_path << "\n"
                               << ::testing::PrintToString(
                                      DescribeUnsupportedNodes(subgraph, *selection));
  return kernels == expected;
}

TEST(XnnpackProfileOracleTest, CorpusModelsMatchUpstreamDelegateKernels) {
  int compared = 0, matches = 0;
  for (const std::string& name : testing::CorpusModelNames()) {
    ++compared;
    matches += MatchesOracle(testing::CorpusModelPath(name),
                             OraclePath("models/" + name + ".xnnpack.json"));
  }
  EXPECT_EQ(compared, 11);
  EXPECT_EQ(matches, compared);
}

TEST(XnnpackProfileOracleTest, Int8ModelsMatchUpstreamDelegateKernels) {
  int compared = 0, matches = 0;
  for (const char* name : {"face_detection_short_range_int8", "face_detection_short_range_floatio",
                           "face_landmark_int8"}) {
    ++compared;
    matches += MatchesOracle(OraclePath(std::string("int8/") + name + ".tflite"),
                             OraclePath(std::string("int8/") + name + ".xnnpack.json"));
  }
  EXPECT_EQ(matches, compared);
}

}  // namespace
}  // namespace tfa
