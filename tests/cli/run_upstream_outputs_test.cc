// `run --validate --upstream-outputs`: the outputs against upstream TFLite's own for the same
// configuration (tests/oracle/external_outputs.tar.xz: upstream's outputs for --input-seed 1).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "cli/sha256.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

std::string External(const std::string& name) { return testing::OraclePath("external/" + name); }

// What the runtime cannot run the way upstream does, by model and config (`gpu`: the OpenCL
// delegate against upstream's `none` outputs, which its CPU-only run meets): the exit code and a
// piece of the message, or for a failed verdict its two output states.
struct Expected {
  int exit_code;
  std::string says;
};
const std::map<std::string, Expected> kKnown = {
    // 4.4 GB of im2col on the CPU, 1.4 GB of XNNPACK weights and workspace: above the 1G default.
    {"LiteRT__tflite_testdata_conv_huge_im2col.none", {2, "above the memory limit"}},
    {"LiteRT__tflite_testdata_conv_huge_im2col.xnnpack", {2, "the delegates need"}},
    {"LiteRT__tflite_testdata_conv_huge_im2col.gpu", {2, "above the memory limit"}},
    // int8 models the OpenCL delegate computes in float, as upstream's GPU delegate does, without
    // requantizing between ops: 2 steps at hello_world's output, 0.00305 at test_conv_model's
    // (dequantized); every node within the tolerance. Upstream has no GPU outputs to say whether
    // its delegate drifts the same way, so they fail unless drift is accepted.
    {"tflite-micro__tensorflow_lite_micro_examples_hello_world_models_hello_world_int8.gpu",
     {1, "outputs drift, upstream's matched"}},
    {"tflite-micro__tensorflow_lite_micro_testing_test_conv_model.gpu",
     {1, "outputs drift, upstream's matched"}},
};

// Whether the gpu delegate takes any node of the model's first subgraph, as `report` predicts.
bool GpuTakesANode(const std::string& model) {
  auto report = RunTool("report --json --delegate gpu " + model);
  if (report.exit_code != 0) return false;
  const auto j = nlohmann::json::parse(report.out);
  for (const auto& p : j.at("subgraphs")[0].at("partitions"))
    if (p.at("kind") == "delegate") return true;
  return false;
}

// Every external model upstream invoked, under `config`, against upstream's own outputs: matched
// within the tolerance, or the known difference above. Returns how many matched.
int CheckExternalModels(const std::string& config) {
  const std::string upstream_config = config == "gpu" ? "none" : config;
  const std::string suffix = "." + upstream_config + ".json";
  int matched = 0;
  for (const auto& entry : std::filesystem::directory_iterator(External(""))) {
    const std::string file = entry.path().filename().string();
    if (file.size() <= suffix.size() || file.substr(file.size() - suffix.size()) != suffix)
      continue;
    const std::string name = file.substr(0, file.size() - suffix.size());
    const std::string model = External(name + ".tflite");
    // The OpenCL delegate runs where the gpu delegate takes something; elsewhere the run is `none`.
    if (config == "gpu" && !GpuTakesANode(model)) continue;
    const std::string delegate = config == "none" ? "" : " --delegate " + config;
    auto run = RunTool("run --validate --json --input-seed 1" + delegate + " " + model +
                       " --upstream-outputs " + External(file));
    const std::string key = name + "." + config;
    SCOPED_TRACE(key);
    if (const auto known = kKnown.find(key); known != kKnown.end()) {
      EXPECT_EQ(run.exit_code, known->second.exit_code) << run.err << run.out;
      std::string says = run.err;
      if (run.exit_code == 1) {
        const auto verdict = nlohmann::json::parse(run.out).at("verdict");
        says = "outputs " + verdict.at("outputs").at("state").get<std::string>() + ", upstream's " +
               (verdict.at("upstream").at("ok").get<bool>() ? "matched" : "differ");
      }
      EXPECT_NE(says.find(known->second.says), std::string::npos) << run.err << run.out;
      continue;
    }
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    if (run.exit_code != 0) continue;
    const auto j = nlohmann::json::parse(run.out);
    const auto& upstream = j.at("verdict").at("upstream");
    EXPECT_TRUE(upstream.at("ok").get<bool>()) << upstream.dump();
    EXPECT_EQ(upstream.at("config"), upstream_config);
    EXPECT_EQ(upstream.at("compared"), config == "gpu" ? "the CPU-only run" : "this run");
    ++matched;
  }
  return matched;
}

TEST(RunUpstreamOutputs, ExternalModelsMatchUpstreamsOwnOutputsWithoutDelegate) {
  EXPECT_EQ(CheckExternalModels("none"), 18);
}

// 18 with the three upstream's XNNPACK computes that libXNNPACK 2022 cannot: the SDPA composite
// (its decomposition), call_once_mul's delegated resource variables, and qwen's blockwise INT4
// FULLY_CONNECTED, which the CPU kernels cannot run, so upstream's outputs alone judge it.
TEST(RunUpstreamOutputs, ExternalModelsMatchUpstreamsOwnOutputsUnderXnnpack) {
  EXPECT_EQ(CheckExternalModels("xnnpack"), 18);
}

// The OpenCL delegate (PoCL here): upstream's file holds its CPU kernels' outputs, which the
// CPU-only run meets; the delegate's outputs are held to the CPU-only run as without the file.
TEST(RunUpstreamOutputs, ExternalModelsMatchUpstreamsOwnOutputsUnderGpu) {
  EXPECT_EQ(CheckExternalModels("gpu"), 9);
}

// A numpy file's data (the header skipped).
std::string NpyData(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  const size_t header =
      static_cast<uint8_t>(bytes.at(8)) | (static_cast<uint8_t>(bytes.at(9)) << 8);
  return bytes.substr(10 + header);
}

// Float outputs (tensor, bytes) as upstream's results file holds them.
std::string UpstreamFile(const std::string& config,
                         const std::vector<std::pair<int32_t, std::string>>& outputs) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& [tensor, data] : outputs) {
    nlohmann::json values = nlohmann::json::array();
    for (size_t i = 0; i < data.size() / sizeof(float); ++i) {
      float v;
      std::memcpy(&v, data.data() + i * sizeof(float), sizeof v);
      values.push_back(v);
    }
    tensors.push_back({{"tensor", tensor},
                       {"name", ""},
                       {"type", "FLOAT32"},
                       {"bytes", data.size()},
                       {"sha256", cli::Sha256Hex(data)},
                       {"values", values}});
  }
  const nlohmann::json j{{"config", config},
                         {"status", "ok"},
                         {"invoke", "ok"},
                         {"input_seed", 1},
                         {"output_tensors", tensors}};
  return testing::WriteTempFile("upstream_" + config + ".json", j.dump());
}

// Outputs beyond the tolerance of the CPU-only run pass as upstream's own drift when upstream's
// outputs for the delegate are the same and beyond it too; outputs unlike upstream's fail. Here
// upstream's file is made of this runtime's own XNNPACK outputs, and --tolerance 0 makes their
// last-bit differences from the CPU kernels drift; the real cases are yamnet and the int8 palm
// detector (docs/cli.md).
TEST(RunUpstreamOutputs, DriftUpstreamsOwnDelegateSharesIsUpstreams) {
  const std::string model = testing::CorpusModelPath("face_detection__face_detection_short_range");
  const std::string out = testing::ProcessTempPath("upstream_drift_out");
  std::filesystem::remove_all(out);
  auto first = RunTool("run --json --delegate xnnpack --output-dir " + out + " " + model);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::vector<std::pair<int32_t, std::string>> ours;
  const auto written = nlohmann::json::parse(first.out);
  for (const auto& file : written.at("output_files")) {
    const std::string path = file.get<std::string>();
    const std::string base = std::filesystem::path(path).filename().string();
    ours.emplace_back(std::stoi(base.substr(0, base.find('_'))), NpyData(path));
  }
  ASSERT_EQ(ours.size(), 2u);
  const std::string same = UpstreamFile("xnnpack", ours);
  auto run = RunTool("run --validate --json --tolerance 0 --delegate xnnpack " + model +
                     " --upstream-outputs " + same);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("verdict").at("outputs").at("state"), "upstream_drift") << run.out;
  EXPECT_TRUE(j.at("verdict").at("upstream").at("ok").get<bool>());
  EXPECT_GT(j.at("verdict").at("upstream").at("upstream_vs_cpu").at("max_abs_error").get<double>(),
            0.0);
  EXPECT_EQ(j.at("verdict").at("upstream").at("bit_identical_outputs"), 2);
  EXPECT_TRUE(j.at("upstream_outputs").at("outputs")[0].at("bit_identical").get<bool>());

  auto other = ours;
  other[0].second[3] = static_cast<char>(other[0].second[3] ^ 0x40);  // the exponent
  auto differs = RunTool("run --validate --delegate xnnpack " + model + " --upstream-outputs " +
                         UpstreamFile("xnnpack", other));
  EXPECT_EQ(differs.exit_code, 1) << differs.err << differs.out;
  EXPECT_NE(differs.out.find("FAILED: the outputs differ from upstream's xnnpack outputs"),
            std::string::npos)
      << differs.out;
}

// A file that cannot judge the run is refused before anything runs: another config, another
// seed, a file of upstream's node selection only.
TEST(RunUpstreamOutputs, AFileThatCannotJudgeTheRunIsRefused) {
  const std::string name = "LiteRT__tflite_testdata_multi_add";
  const std::string model = External(name + ".tflite");
  auto config = RunTool("run --validate " + model + " --upstream-outputs " +
                        External(name + ".xnnpack.json"));
  EXPECT_EQ(config.exit_code, 2);
  EXPECT_NE(config.err.find("upstream's outputs are for config xnnpack; this run's are for config "
                            "none"),
            std::string::npos)
      << config.err;
  auto seed = RunTool("run --validate --input-seed 2 " + model + " --upstream-outputs " +
                      External(name + ".none.json"));
  EXPECT_EQ(seed.exit_code, 2);
  EXPECT_NE(seed.err.find("for --input-seed 1, this run's inputs for 2"), std::string::npos)
      << seed.err;
  auto without = RunTool("run " + model + " --upstream-outputs " + External(name + ".none.json"));
  EXPECT_EQ(without.exit_code, 2);
  auto unrelated =
      RunTool("run --validate " + External("LiteRT__litert_test_testdata_rope.tflite") +
              " --upstream-outputs " + External(name + ".none.json"));
  EXPECT_EQ(unrelated.exit_code, 2);
  EXPECT_NE(unrelated.err.find("upstream's file has 2 outputs, the model 1"), std::string::npos)
      << unrelated.err;
}

}  // namespace
}  // namespace tfa
