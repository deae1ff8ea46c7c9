// `run --validate` on a generated model with EMBEDDING_LOOKUP_SPARSE
// (embedding_lookup_sparse.cc), whose output upstream's Prepare always makes dynamic; its combiner
// survives the writer and the loader; TFLite Micro's resolver has no such kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus/generator/model_builder.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/unmodelled_builtin_options.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// Constant ids [1, 3, 0] at positions (0, 0), (2, 0), (2, 1) of a [3, 2] sparse tensor, weighted
// 1, 2, 4; params [4, 3, 2] the input; the combined [3, 3, 2] embeddings then doubled by an ADD.
std::string EmbeddingLookupSparseModel(int32_t combiner, const std::string& name) {
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t ids = b.AddConstant(0, "ids", TensorType::kInt32, {3}, Int32Bytes({1, 3, 0}));
  const int32_t indices =
      b.AddConstant(0, "indices", TensorType::kInt32, {3, 2}, Int32Bytes({0, 0, 2, 0, 2, 1}));
  const int32_t dense_shape =
      b.AddConstant(0, "dense_shape", TensorType::kInt32, {2}, Int32Bytes({3, 2}));
  const int32_t weights =
      b.AddConstant(0, "weights", TensorType::kFloat32, {3}, FloatBytes({1.0f, 2.0f, 4.0f}));
  const int32_t params = b.AddTensor(0, "params", TensorType::kFloat32, {4, 3, 2});
  const int32_t combined = b.AddTensor(0, "combined", TensorType::kFloat32, {3, 3, 2});
  const int32_t doubled = b.AddTensor(0, "doubled", TensorType::kFloat32, {3, 3, 2});
  OpOptions options;
  options.custom_options = EncodeEmbeddingLookupSparseCombiner(combiner);
  b.AddNode(0, "EMBEDDING_LOOKUP_SPARSE", {ids, indices, dense_shape, weights, params}, {combined},
            options);
  b.AddNode(0, "ADD", {combined, combined}, {doubled});
  b.SetInputs(0, {params});
  b.SetOutputs(0, {doubled});
  return testing::WriteSyntheticModel(std::move(b), name);
}

TEST(RunEmbeddingLookupSparse, ValidatesWithEachCombiner) {
  for (int32_t combiner : {0, 1, 2}) {
    const std::string name = "els_" + std::to_string(combiner) + ".tflite";
    const std::string path = EmbeddingLookupSparseModel(combiner, name);
    auto model = LoadModelFile(path);
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto read = EmbeddingLookupSparseCombinerOf(model->subgraphs[0].nodes[0].options);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, combiner);

    auto run = RunTool("run --validate --json --input-seed 1 " + path);
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
  }
}

// micro_mutable_op_resolver.h registers no EMBEDDING_LOOKUP_SPARSE.
TEST(RunEmbeddingLookupSparse, TflmRefusesIt) {
  auto report = RunTool("report --target tflm " + EmbeddingLookupSparseModel(0, "els_tflm.tflite"));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("(EMBEDDING_LOOKUP_SPARSE): TFLite Micro has no kernel"),
            std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
