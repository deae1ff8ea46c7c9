#include "cli/upstream_outputs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/sha256.h"
#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::cli {
namespace {

runtime::RuntimeTensor Floats(std::vector<float>& values) {
  return runtime::testing::FloatView(values);
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

// Upstream's file keeps the first values of a large output and the SHA-256 of all its bytes:
// the comparison covers the values it holds, and says whether the bytes are upstream's.
TEST(UpstreamOutputs, ComparesTheValuesUpstreamsFileHolds) {
  std::vector<float> got = {1.0f, 200.1f, 5.0f};
  const std::string sha = Sha256Hex(std::string(reinterpret_cast<const char*>(got.data()), 12));
  const std::string path =
      WriteFile("upstream_outputs_test.xnnpack.json",
                R"({"config": "xnnpack", "status": "ok", "invoke": "ok", "input_seed": 1,
          "output_tensors": [{"tensor": 7, "name": "y", "type": "FLOAT32", "bytes": 12,
                              "sha256": ")" +
                    sha + R"(", "values": [1.0005, 200.0]}]})");
  auto upstream = ReadUpstreamOutputs(path);
  ASSERT_TRUE(upstream.ok()) << upstream.status().message();
  EXPECT_EQ(upstream->config, "xnnpack");
  ASSERT_EQ(upstream->outputs.size(), 1u);
  const UpstreamComparison u = CompareWithUpstream(Floats(got), upstream->outputs[0], "y", 1e-3, 1);
  EXPECT_TRUE(u.comparison.ok);
  EXPECT_TRUE(u.bit_identical);
  EXPECT_EQ(u.values_compared, 2u);
  EXPECT_EQ(u.values_total, 3u);
  EXPECT_NEAR(u.comparison.max_error, 0.1 / 200.0, 1e-6);
  EXPECT_FALSE(CompareWithUpstream(Floats(got), upstream->outputs[0], "y", 1e-4, 1).comparison.ok);
  // Upstream's outputs against the CPU-only run's: upstream's own drift, relative to the CPU's.
  std::vector<float> cpu = {1.0f, 100.0f, 5.0f};
  const OutputComparison drift =
      CompareUpstreamWith(upstream->outputs[0], Floats(cpu), "y", 1e-3, 1);
  EXPECT_FALSE(drift.ok);
  EXPECT_NEAR(drift.max_error, 1.0, 1e-9);
}

TEST(UpstreamOutputs, AFileWithoutOutputsSaysWhy) {
  auto skipped = ReadUpstreamOutputs(
      WriteFile("upstream_outputs_test.none.json",
                R"({"config": "none", "status": "ok", "invoke": "error", "input_seed": 1})"));
  ASSERT_FALSE(skipped.ok());
  EXPECT_NE(skipped.status().message().find("holds no outputs (invoke: error)"), std::string::npos)
      << skipped.status().message();
  auto refused = ReadUpstreamOutputs(WriteFile(
      "upstream_outputs_test.gpu.json",
      R"json({"config": "gpu", "status": "error: AllocateTensors failed (refused at allocate)"})json"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("upstream did not run this model (error: "),
            std::string::npos);
  EXPECT_FALSE(ReadUpstreamOutputs(WriteFile("upstream_outputs_test.bad.json", "[1, 2]")).ok());
  EXPECT_FALSE(ReadUpstreamOutputs("/nonexistent/upstream.json").ok());
}

// A file for another seed or another model cannot judge the run.
TEST(UpstreamOutputs, AFileForAnotherSeedOrModelIsRefused) {
  UpstreamOutputs upstream{"u.json", "none", 1, {{3, "y", "FLOAT32", 4, "", {0.5}}}};
  Subgraph graph;
  graph.tensors.resize(4);
  graph.tensors[3].type = TensorType::kFloat32;
  graph.outputs = {3};
  EXPECT_TRUE(CheckUpstreamOutputsMatch(upstream, graph, 1).ok());
  EXPECT_NE(CheckUpstreamOutputsMatch(upstream, graph, 2).message().find("--input-seed 1"),
            std::string::npos);
  graph.tensors[3].type = TensorType::kInt8;
  EXPECT_NE(CheckUpstreamOutputsMatch(upstream, graph, 1).message().find("not upstream's results"),
            std::string::npos);
}

}  // namespace
}  // namespace tfa::cli
