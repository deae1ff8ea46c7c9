// `run --validate` on generated models whose element-wise, reduction, resize, comparison and
// data-movement ops take the integer types real models bring: a 16x8 model (int16 activations:
// SUB, MUL, MEAN, SUM, RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, CONCATENATION, LESS) and an
// int8/int64 one (quantized EQUAL with two scales, SUM, SQUARED_DIFFERENCE, RSQRT, REDUCE_PROD;
// int64 ADD/SUB/MUL and MEAN; int32 DIV; CAST through float16; DEQUANTIZE of packed int4).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

Quantization Symmetric(float scale) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {0};
  return q;
}

Quantization Affine(float scale, int64_t zero_point) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

// a, b int16 [1, 4, 4, 2] -> SUB (general scales) -> MUL by a -> MEAN over H, W (keep dims),
// SUM over C; SUB's output resized bilinearly and by nearest neighbour to 8x8, concatenated with
// MUL's along C; LESS(a, b).
std::string SixteenByEightModel() {
  ModelBuilder b("integer_types_16x8.tflite");
  b.AddSubgraph("main");
  const int32_t a = b.AddTensor(0, "a", TensorType::kInt16, {1, 4, 4, 2}, Symmetric(3e-4f));
  const int32_t c = b.AddTensor(0, "b", TensorType::kInt16, {1, 4, 4, 2}, Symmetric(2e-4f));
  const int32_t diff = b.AddTensor(0, "diff", TensorType::kInt16, {1, 4, 4, 2}, Symmetric(5e-4f));
  const int32_t product =
      b.AddTensor(0, "product", TensorType::kInt16, {1, 4, 4, 2}, Symmetric(4e-5f));
  const int32_t axes_hw = b.AddConstant(0, "axes_hw", TensorType::kInt32, {2}, Int32Bytes({1, 2}));
  const int32_t axis_c = b.AddConstant(0, "axis_c", TensorType::kInt32, {1}, Int32Bytes({3}));
  const int32_t mean = b.AddTensor(0, "mean", TensorType::kInt16, {1, 1, 1, 2}, Symmetric(3e-5f));
  const int32_t sum = b.AddTensor(0, "sum", TensorType::kInt16, {1, 4, 4}, Symmetric(1e-4f));
  const int32_t size = b.AddConstant(0, "size", TensorType::kInt32, {2}, Int32Bytes({8, 8}));
  const int32_t bilinear =
      b.AddTensor(0, "bilinear", TensorType::kInt16, {1, 8, 8, 2}, Symmetric(5e-4f));
  const int32_t nearest =
      b.AddTensor(0, "nearest", TensorType::kInt16, {1, 8, 8, 2}, Symmetric(5e-4f));
  const int32_t joined =
      b.AddTensor(0, "joined", TensorType::kInt16, {1, 4, 4, 4}, Symmetric(5e-4f));
  const int32_t less = b.AddTensor(0, "less", TensorType::kBool, {1, 4, 4, 2});
  OpOptions sub_options;
  sub_options.pot_scale_int16 = false;
  b.AddNode(0, "SUB", {a, c}, {diff}, sub_options, 3);
  b.AddNode(0, "MUL", {diff, a}, {product}, {}, 6);
  OpOptions keep;
  keep.keep_dims = true;
  b.AddNode(0, "MEAN", {product, axes_hw}, {mean}, keep, 3);
  b.AddNode(0, "SUM", {product, axis_c}, {sum});
  b.AddNode(0, "RESIZE_BILINEAR", {diff, size}, {bilinear}, {}, 4);
  b.AddNode(0, "RESIZE_NEAREST_NEIGHBOR", {diff, size}, {nearest}, {}, 4);
  OpOptions along_c;
  along_c.axis = 3;
  b.AddNode(0, "CONCATENATION", {diff, product}, {joined}, along_c, 3);
  b.AddNode(0, "LESS", {a, c}, {less}, {}, 3);
  b.SetInputs(0, {a, c});
  b.SetOutputs(0, {mean, sum, bilinear, nearest, joined, less});
  return testing::WriteSyntheticModel(std::move(b), "integer_types_16x8.tflite");
}

// x int8 [2, 6] and y int8 [6] of other scales -> EQUAL (rescaled), SUM over the last axis,
// SQUARED_DIFFERENCE -> RSQRT -> REDUCE_PROD over the last axis; i, j int64 [2, 3] -> ADD, SUB,
// MUL -> MEAN (int64, truncating); k int32 [2, 3] -> DIV by a constant; x's stored values CAST
// to float16 and back to float32; a constant packed int4 [5] -> DEQUANTIZE.
std::string Int8AndInt64Model() {
  ModelBuilder b("integer_types_int8_int64.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kInt8, {2, 6}, Affine(0.05f, 3));
  const int32_t y = b.AddTensor(0, "y", TensorType::kInt8, {6}, Affine(0.1f, -2));
  const int32_t equal = b.AddTensor(0, "equal", TensorType::kBool, {2, 6});
  const int32_t last = b.AddConstant(0, "last", TensorType::kInt32, {1}, Int32Bytes({-1}));
  const int32_t sum = b.AddTensor(0, "sum", TensorType::kInt8, {2}, Affine(0.3f, 1));
  const int32_t i = b.AddTensor(0, "i", TensorType::kInt64, {2, 3});
  const int32_t j = b.AddTensor(0, "j", TensorType::kInt64, {2, 3});
  const int32_t added = b.AddTensor(0, "added", TensorType::kInt64, {2, 3});
  const int32_t subtracted = b.AddTensor(0, "subtracted", TensorType::kInt64, {2, 3});
  const int32_t product = b.AddTensor(0, "product", TensorType::kInt64, {2, 3});
  const int32_t first = b.AddConstant(0, "first", TensorType::kInt32, {1}, Int32Bytes({0}));
  const int32_t mean = b.AddTensor(0, "mean", TensorType::kInt64, {3});
  const int32_t squared = b.AddTensor(0, "squared", TensorType::kInt8, {2, 6}, Affine(0.05f, -128));
  const int32_t inverse = b.AddTensor(0, "inverse", TensorType::kInt8, {2, 6}, Affine(0.02f, -128));
  const int32_t product_q =
      b.AddTensor(0, "product_q", TensorType::kInt8, {2}, Affine(70.0f, -128));
  const int32_t k = b.AddTensor(0, "k", TensorType::kInt32, {2, 3});
  const int32_t divisor =
      b.AddConstant(0, "divisor", TensorType::kInt32, {3}, Int32Bytes({3, -2, 7}));
  const int32_t quotient = b.AddTensor(0, "quotient", TensorType::kInt32, {2, 3});
  const int32_t half = b.AddTensor(0, "half", TensorType::kFloat16, {2, 6});
  const int32_t widened = b.AddTensor(0, "widened", TensorType::kFloat32, {2, 6});
  Quantization int4_scale = Affine(0.5f, -1);
  const int32_t packed =
      b.AddConstant(0, "packed", TensorType::kInt4, {5}, {0x67, 0x89, 0x10}, int4_scale);
  const int32_t unpacked = b.AddTensor(0, "unpacked", TensorType::kFloat32, {5});
  b.AddNode(0, "EQUAL", {x, y}, {equal}, {}, 2);
  b.AddNode(0, "SQUARED_DIFFERENCE", {x, y}, {squared}, {}, 2);
  b.AddNode(0, "RSQRT", {squared}, {inverse}, {}, 2);
  b.AddNode(0, "REDUCE_PROD", {inverse, last}, {product_q}, {}, 2);
  b.AddNode(0, "DIV", {k, divisor}, {quotient}, {}, 2);
  b.AddNode(0, "CAST", {x}, {half});
  b.AddNode(0, "CAST", {half}, {widened});
  b.AddNode(0, "DEQUANTIZE", {packed}, {unpacked}, {}, 5);
  b.AddNode(0, "SUM", {x, last}, {sum}, {}, 2);
  b.AddNode(0, "ADD", {i, j}, {added}, {}, 4);
  b.AddNode(0, "SUB", {added, j}, {subtracted}, {}, 4);
  b.AddNode(0, "MUL", {subtracted, i}, {product}, {}, 6);
  b.AddNode(0, "MEAN", {product, first}, {mean});
  b.SetInputs(0, {x, y, i, j, k});
  b.SetOutputs(0, {equal, sum, mean, product_q, quotient, widened, unpacked});
  return testing::WriteSyntheticModel(std::move(b), "integer_types_int8_int64.tflite");
}

TEST(RunIntegerTypes, SixteenByEightOpsValidate) {
  const std::string model = SixteenByEightModel();
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
}

TEST(RunIntegerTypes, Int8Int32Int64Float16AndInt4OpsValidate) {
  const std::string model = Int8AndInt64Model();
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
}

}  // namespace
}  // namespace tfa
