// `run --validate` on a generated model with HASHTABLE_LOOKUP (hashtable_lookup.cc): constant
// keys and values, looked up by the int32 input; TFLite Micro's resolver has no such kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// lookup [4] int32 -> HASHTABLE_LOOKUP over keys (-11, 0, 1234) and values [3, 2] -> rows [4, 2]
// doubled by an ADD, and the hits [4] uint8.
std::string HashtableLookupModel(const std::string& name) {
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t lookup = b.AddTensor(0, "lookup", TensorType::kInt32, {4});
  const int32_t keys =
      b.AddConstant(0, "keys", TensorType::kInt32, {3}, Int32Bytes({-11, 0, 1234}));
  const int32_t values = b.AddConstant(0, "values", TensorType::kFloat32, {3, 2},
                                       FloatBytes({0.0f, 0.1f, 1.0f, 1.1f, 2.0f, 2.1f}));
  const int32_t rows = b.AddTensor(0, "rows", TensorType::kFloat32, {4, 2});
  const int32_t hits = b.AddTensor(0, "hits", TensorType::kUInt8, {4});
  const int32_t doubled = b.AddTensor(0, "doubled", TensorType::kFloat32, {4, 2});
  b.AddNode(0, "HASHTABLE_LOOKUP", {lookup, keys, values}, {rows, hits});
  b.AddNode(0, "ADD", {rows, rows}, {doubled});
  b.SetInputs(0, {lookup});
  b.SetOutputs(0, {doubled, hits});
  return testing::WriteSyntheticModel(std::move(b), name);
}

TEST(RunHashtableLookup, Validates) {
  auto run = RunTool("run --validate --json --input-seed 1 " +
                     HashtableLookupModel("hashtable_lookup.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
}

// micro_mutable_op_resolver.h registers no HASHTABLE_LOOKUP.
TEST(RunHashtableLookup, TflmRefusesIt) {
  auto report =
      RunTool("report --target tflm " + HashtableLookupModel("hashtable_lookup_tflm.tflite"));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("node 0 (HASHTABLE_LOOKUP): TFLite Micro has no kernel"),
            std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
