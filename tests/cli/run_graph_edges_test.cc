// `run --validate` and `report` on the graph shapes LiteRT's own test models have
// (litert/test/testdata) that ordinary models do not: a constant that is a graph output
// (constant_output_tensor), and a MIRROR_PAD whose paddings are a graph input, so its output is
// sized only at Eval (simple_mirror_pad_*_dynamic_shape).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "runtime/npy.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// input [2] -> ADD input, input -> normal [2]; constant [4] {1, 2, 3, 4} is the second output.
std::string ConstantOutputModel() {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("constant_output.tflite");
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", f32, {2});
  const int32_t normal = b.AddTensor(0, "normal_output", f32, {2});
  const int32_t constant = b.AddConstant(0, "constant_output", f32, {4}, FloatBytes({1, 2, 3, 4}));
  b.AddNode(0, "ADD", {input, input}, {normal});
  b.SetInputs(0, {input});
  b.SetOutputs(0, {normal, constant});
  return testing::WriteSyntheticModel(std::move(b), "constant_output.tflite");
}

nlohmann::json Json(const std::string& command) {
  auto run = RunTool(command);
  EXPECT_EQ(run.exit_code, 0) << command << run.err << run.out;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << run.out;
  return j;
}

TEST(RunGraphEdges, AConstantGraphOutputValidatesAndKeepsItsValues) {
  const std::string model = ConstantOutputModel();
  const nlohmann::json run = Json("run --validate --json --input-seed 1 " + model);
  EXPECT_TRUE(run.value("validated", false)) << run.dump();
  const std::string dir = testing::ProcessTempPath("constant_output_dir");
  auto written = RunTool("run --input-seed 1 --output-dir " + dir + " " + model);
  ASSERT_EQ(written.exit_code, 0) << written.err;
  std::ifstream file(dir + "/2_constant_output.npy", std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
  auto npy = runtime::ParseNpy(bytes);
  ASSERT_TRUE(npy.ok()) << npy.status().message();
  std::vector<float> values(4);
  ASSERT_EQ(npy->data.size(), sizeof(float) * values.size());
  std::memcpy(values.data(), npy->data.data(), npy->data.size());
  EXPECT_EQ(values, (std::vector<float>{1, 2, 3, 4}));
}

// x [2,1,3] and paddings [3,2] (graph inputs) -> MIRROR_PAD SYMMETRIC -> y, sized at Eval.
std::string RuntimePaddingsModel() {
  ModelBuilder b("mirror_pad_runtime_paddings.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {2, 1, 3});
  const int32_t paddings = b.AddTensor(0, "paddings", TensorType::kInt32, {3, 2});
  const int32_t y = b.AddTensor(0, "y", TensorType::kFloat32, {1, 1, 1}, {}, {-1, -1, -1});
  OpOptions symmetric;
  symmetric.mirror_pad_mode = 1;
  b.AddNode(0, "MIRROR_PAD", {x, paddings}, {y}, symmetric);
  b.SetInputs(0, {x, paddings});
  b.SetOutputs(0, {y});
  return testing::WriteSyntheticModel(std::move(b), "mirror_pad_runtime_paddings.tflite");
}

TEST(RunGraphEdges, PaddingsGivenAtRunTimeMakeTheOutputDynamicAndValidate) {
  const std::string model = RuntimePaddingsModel();
  const nlohmann::json report = Json("report --json " + model);
  EXPECT_EQ(report.at("subgraphs")[0].at("arena").value("planning_stops_at_node", -1), 0)
      << report.dump();
  std::vector<int32_t> pads = {1, 1, 0, 0, 1, 1};
  std::vector<uint8_t> bytes(pads.size() * sizeof(int32_t));
  std::copy_n(reinterpret_cast<const uint8_t*>(pads.data()), bytes.size(), bytes.begin());
  auto npy = runtime::EncodeNpy(TensorType::kInt32, {3, 2}, bytes);
  ASSERT_TRUE(npy.ok());
  const std::string file =
      testing::WriteTempFile("paddings.npy", std::string(npy->begin(), npy->end()));
  const nlohmann::json run =
      Json("run --validate --json --input-seed 1 --input paddings=" + file + " " + model);
  EXPECT_TRUE(run.value("validated", false)) << run.dump();
}

}  // namespace
}  // namespace tfa
