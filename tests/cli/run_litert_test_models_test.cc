// `run --validate` on models built as LiteRT's own single-op test models are
// (litert/test/testdata/*.mlir): a 3-D transposed convolution with a height dilation and no bias
// (simple_transpose_conv3d), an int64 input cast to float32 and broadcast into an ADD
// (simple_cast_and_add_op), and int32 FLOOR_MOD (simple_floor_mod).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kI32 = TensorType::kInt32;

// input [1,3,1,1,1] -> CONV_3D_TRANSPOSE (output_shape [1,3,3,2,2], filter [1,2,2,2,1] of ones,
// no bias, VALID, dilation_h 2) -> [1,3,3,2,2].
std::string TransposeConv3dModel() {
  ModelBuilder b("simple_transpose_conv3d.tflite");
  b.AddSubgraph("main");
  const int32_t output_shape =
      b.AddConstant(0, "output_shape", kI32, {5}, Int32Bytes({1, 3, 3, 2, 2}));
  const int32_t filter =
      b.AddConstant(0, "filter", kF32, {1, 2, 2, 2, 1}, FloatBytes(std::vector<float>(8, 1.0f)));
  const int32_t input = b.AddTensor(0, "input", kF32, {1, 3, 1, 1, 1});
  const int32_t output = b.AddTensor(0, "output", kF32, {1, 3, 3, 2, 2});
  OpOptions o;
  o.padding = Padding::kValid;
  o.dilation_h = 2;
  b.AddNode(0, "CONV_3D_TRANSPOSE", {output_shape, filter, input, -1}, {output}, o);
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  return testing::WriteSyntheticModel(std::move(b), "simple_transpose_conv3d.tflite");
}

// a, b [1,128] float32 and c [1] int64 -> CAST c to float32; ADD a, b; ADD the cast, the sum.
std::string CastAndAddModel() {
  ModelBuilder b("simple_cast_and_add_op.tflite");
  b.AddSubgraph("main");
  const int32_t a = b.AddTensor(0, "a", kF32, {1, 128});
  const int32_t x = b.AddTensor(0, "b", kF32, {1, 128});
  const int32_t c = b.AddTensor(0, "c", TensorType::kInt64, {1});
  const int32_t cast = b.AddTensor(0, "cast", kF32, {1});
  const int32_t sum = b.AddTensor(0, "sum", kF32, {1, 128});
  const int32_t out = b.AddTensor(0, "out", kF32, {1, 128});
  b.AddNode(0, "CAST", {c}, {cast});
  b.AddNode(0, "ADD", {a, x}, {sum});
  b.AddNode(0, "ADD", {cast, sum}, {out});
  b.SetInputs(0, {a, x, c});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b), "simple_cast_and_add_op.tflite");
}

// a, b [5] int32 -> FLOOR_MOD.
std::string FloorModModel() {
  ModelBuilder b("simple_floor_mod.tflite");
  b.AddSubgraph("main");
  const int32_t a = b.AddTensor(0, "a", kI32, {5});
  const int32_t x = b.AddTensor(0, "b", kI32, {5});
  const int32_t out = b.AddTensor(0, "out", kI32, {5});
  b.AddNode(0, "FLOOR_MOD", {a, x}, {out});
  b.SetInputs(0, {a, x});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b), "simple_floor_mod.tflite");
}

TEST(RunLitertTestModels, SingleOpModelsValidate) {
  for (const std::string& model : {TransposeConv3dModel(), CastAndAddModel(), FloorModModel()}) {
    auto run = RunTool("run --validate --json --input-seed 1 " + model);
    EXPECT_EQ(run.exit_code, 0) << model << run.err << run.out;
    const auto j = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_TRUE(!j.is_discarded() && j.value("validated", false)) << model << run.out;
  }
}

}  // namespace
}  // namespace tfa
