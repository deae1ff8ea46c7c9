// `run --input NAME=FILE.npy` and `--output-dir DIR` through the built tool: the .npy files it
// writes hold upstream's outputs (the oracle's output_tensors for --input-seed 1) for every
// invoked model of the oracle's models, int8 and control_flow sets, an input given as a file
// gives the same outputs as the seed's values, and bad files or directories are one-line errors
// with exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "runtime/input_generator.h"
#include "runtime/npy.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

namespace fs = std::filesystem;
using testing::OraclePath;
using testing::ReadJsonFile;
using testing::RunTool;

struct OracleModel {
  std::string set;  // "models", "int8", "control_flow"
  std::string name;
};

std::string ModelPath(const OracleModel& m) {
  return m.set == "models" ? testing::CorpusModelPath(m.name)
                           : OraclePath(m.set + "/" + m.name + ".tflite");
}

std::vector<uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

// The file `dir` holds for output tensor `tensor` (named "<tensor>_<name>.npy").
fs::path OutputFile(const fs::path& dir, int32_t tensor) {
  const std::string prefix = std::to_string(tensor) + "_";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) return entry.path();
  }
  return {};
}

// Float outputs within 1e-4 of max(1, |upstream|), int8 within one quantized unit (the oracle's
// tolerances for the builtin kernels).
void ExpectUpstreamOutputs(const fs::path& dir, const nlohmann::json& oracle) {
  for (const auto& expected : oracle.at("output_tensors")) {
    const int32_t tensor = expected.at("tensor");
    SCOPED_TRACE("output tensor " + std::to_string(tensor));
    const fs::path path = OutputFile(dir, tensor);
    ASSERT_FALSE(path.empty());
    const std::vector<uint8_t> bytes = ReadBytes(path);
    auto array = runtime::ParseNpy(bytes);
    ASSERT_TRUE(array.ok()) << array.status().message();
    EXPECT_EQ(std::vector<int64_t>(array->shape), expected.at("shape").get<std::vector<int64_t>>());
    ASSERT_EQ(array->data.size(), expected.at("bytes").get<uint64_t>());
    const auto values = expected.at("values").get<std::vector<double>>();
    for (size_t i = 0; i < values.size(); ++i) {
      if (array->type == TensorType::kInt8) {
        const auto got = static_cast<int8_t>(array->data[i]);
        ASSERT_LE(std::abs(got - values[i]), 1.0) << "value " << i;
        continue;
      }
      ASSERT_EQ(array->type, TensorType::kFloat32);
      float got = 0;
      std::memcpy(&got, array->data.data() + i * sizeof(float), sizeof(float));
      ASSERT_LE(std::abs(got - values[i]), 1e-4 * std::max(1.0, std::abs(values[i])))
          << "value " << i;
    }
  }
}

std::vector<OracleModel> InvokedOracleModels() {
  std::vector<OracleModel> models;
  for (const std::string& name : testing::CorpusModelNames()) models.push_back({"models", name});
  for (const std::string set : {"int8", "control_flow"}) {
    for (const auto& entry : fs::directory_iterator(OraclePath(set))) {
      const std::string file = entry.path().filename().string();
      const std::string suffix = ".none.json";
      if (file.size() > suffix.size() && file.ends_with(suffix))
        models.push_back({set, file.substr(0, file.size() - suffix.size())});
    }
  }
  std::vector<OracleModel> invoked;
  for (const OracleModel& m : models) {
    const auto oracle = ReadJsonFile(OraclePath(m.set + "/" + m.name + ".none.json"));
    if (oracle.contains("output_tensors")) invoked.push_back(m);
  }
  std::sort(invoked.begin(), invoked.end(),
            [](const OracleModel& a, const OracleModel& b) { return a.name < b.name; });
  return invoked;
}

class OutputDirTest : public ::testing::TestWithParam<OracleModel> {};

TEST_P(OutputDirTest, WritesUpstreamsOutputs) {
  const OracleModel& m = GetParam();
  const auto oracle = ReadJsonFile(OraclePath(m.set + "/" + m.name + ".none.json"));
  const std::string dir = testing::ProcessTempPath("out_" + m.name);
  fs::remove_all(dir);
  auto run = RunTool("run " + ModelPath(m) + " --input-seed 1 --output-dir " + dir);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  ExpectUpstreamOutputs(dir, oracle);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Oracle, OutputDirTest, ::testing::ValuesIn(InvokedOracleModels()),
                         [](const auto& info) { return info.param.name; });

// The seed's values for while_acc's input written as a file, given with another seed: the file
// wins, so the outputs are still upstream's for seed 1.
TEST(RunInputFiles, AFileGivesTheInputItsValues) {
  const std::string model = OraclePath("control_flow/while_acc.tflite");
  runtime::InputGenerator generator(1);
  std::vector<float> values(64 * 64 * 4);
  runtime::RuntimeTensor tensor;
  tensor.data = reinterpret_cast<uint8_t*>(values.data());
  tensor.bytes = values.size() * sizeof(float);
  generator.Fill(tensor);
  auto encoded = runtime::EncodeNpy(TensorType::kFloat32, {1, 64, 64, 4},
                                    std::span<const uint8_t>(tensor.data, tensor.bytes));
  ASSERT_TRUE(encoded.ok());
  const std::string input =
      testing::WriteTempFile("x.npy", std::string(encoded->begin(), encoded->end()));
  const std::string dir = testing::ProcessTempPath("out_from_file");
  fs::remove_all(dir);
  for (const std::string key : {"x", "0"}) {
    auto run = RunTool("run " + model + " --input-seed 99 --input " + key + "=" + input +
                       " --output-dir " + dir);
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    EXPECT_NE(run.out.find("wrote 1 output to " + dir), std::string::npos) << run.out;
    ExpectUpstreamOutputs(dir, ReadJsonFile(OraclePath("control_flow/while_acc.none.json")));
  }
  fs::remove_all(dir);
}

// --compare-with reads the files --output-dir wrote: the same inputs agree exactly, other inputs
// differ (exit 1), a missing reference is a bad-input error (exit 2). --profile lists every node.
TEST(RunInputFiles, CompareWithAndProfile) {
  const std::string model = OraclePath("control_flow/while_acc.tflite");
  const std::string dir = testing::ProcessTempPath("reference");
  fs::remove_all(dir);
  ASSERT_EQ(RunTool("run " + model + " --output-dir " + dir).exit_code, 0);
  auto same = RunTool("run --json --profile " + model + " --compare-with " + dir);
  ASSERT_EQ(same.exit_code, 0) << same.err << same.out;
  const auto j = nlohmann::json::parse(same.out);
  EXPECT_TRUE(j.at("compare_with").at("ok").get<bool>());
  EXPECT_EQ(j.at("compare_with").at("outputs").at(0).at("max_abs_error"), 0.0);
  ASSERT_EQ(j.at("profile").at("nodes").size(), 3u);
  EXPECT_EQ(j.at("profile").at("nodes").at(1).at("op"), "WHILE");
  auto other = RunTool("run " + model + " --input-seed 2 --compare-with " + dir);
  EXPECT_EQ(other.exit_code, 1) << other.err << other.out;
  EXPECT_NE(other.out.find("MISMATCH  y"), std::string::npos) << other.out;
  fs::remove_all(dir);
  auto missing = RunTool("run " + model + " --compare-with " + dir);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot read " + dir + "/6_y.npy"), std::string::npos) << missing.err;
}

TEST(RunInputFiles, BadFilesAndDirectoriesAreOneLineErrors) {
  const std::string model = OraclePath("control_flow/while_acc.tflite");
  const std::vector<uint8_t> zeros(64 * 64 * 4 * sizeof(float), 0);
  auto file = [](const std::string& name, TensorType type, const std::vector<int32_t>& shape,
                 std::span<const uint8_t> data) {
    auto encoded = runtime::EncodeNpy(type, shape, data);
    return testing::WriteTempFile(name, std::string(encoded->begin(), encoded->end()));
  };
  const std::string good = file("good.npy", TensorType::kFloat32, {1, 64, 64, 4}, zeros);
  const std::string wrong_type = file("int32.npy", TensorType::kInt32, {1, 64, 64, 4}, zeros);
  const std::string wrong_shape = file("shape.npy", TensorType::kFloat32, {1, 64, 4, 64}, zeros);
  std::string big = testing::ReadTextFile(good);
  big.replace(big.find("<f4"), 3, ">f4");
  const std::string big_endian = testing::WriteTempFile("big.npy", big);
  const std::string truncated =
      testing::WriteTempFile("cut.npy", testing::ReadTextFile(good).substr(0, 1000));
  const std::string not_a_dir = testing::WriteTempFile("plain_file", "x");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--input x=" + wrong_type,
       "the file holds int32 [1,64,64,4] ('<i4'), 'x' (tensor 0) is float32 "
       "[1,64,64,4]"},
      {"--input x=" + wrong_shape,
       "the file holds float32 [1,64,4,64] ('<f4'), 'x' (tensor 0) is float32 "
       "[1,64,64,4]"},
      {"--input x=" + big_endian, "dtype '>f4' is big-endian; the tensors are little-endian"},
      {"--input x=" + truncated,
       "the .npy file is truncated: its shape needs 65536 data bytes, it has 872"},
      {"--input y=" + good, "--input y=" + good + ": no input \"y\""},
      {"--input 1=" + good, "position 1 is out of range (1 inputs: 0 'x' (#0); #T names tensor T)"},
      {"--input x=" + good + " --output-dir " + not_a_dir + "/sub", "--output-dir " + not_a_dir},
  };
  for (const auto& [flags, message] : cases) {
    auto run = RunTool("run " + model + " " + flags);
    EXPECT_EQ(run.exit_code, 2) << flags << "\n" << run.out;
    EXPECT_NE(run.err.find(message), std::string::npos) << flags << "\n" << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

}  // namespace
}  // namespace tfa
