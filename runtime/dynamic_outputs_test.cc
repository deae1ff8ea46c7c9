// Kernels whose output shapes depend on values computed at run time (upstream's Prepare calls
// SetTensorToDynamic): those outputs leave the arena, get buffers of their own at Eval, and the
// plan stops at them; the outputs the same Prepare still sizes stay in the arena.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/interpreter.h"
#include "tests/support/tool_runner.h"

namespace tfa::runtime {
namespace {

std::unique_ptr<Interpreter> CreateFrom(SyntheticModel model, const std::string& name) {
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  const std::string path =
      tfa::testing::WriteTempFile(name + ".tflite", std::string(bytes.begin(), bytes.end()));
  auto interpreter = Interpreter::Create(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  return interpreter.ok() ? std::move(interpreter).value() : nullptr;
}

template <typename T>
std::vector<T> Values(const RuntimeTensor& t) {
  std::vector<T> v(static_cast<size_t>(t.NumElements()));
  if (!v.empty()) std::memcpy(v.data(), t.data, v.size() * sizeof(T));
  return v;
}

// where.cc: a condition that is not a constant makes the output dynamic; at Eval it holds one
// row of coordinates per true element, in row-major order.
TEST(DynamicOutputsTest, WhereSizesItsOutputFromTheConditionAtEval) {
  ModelBuilder b("where_dynamic");
  b.AddSubgraph("main");
  const int32_t condition = b.AddTensor(0, "condition", TensorType::kBool, {2, 3});
  const int32_t coordinates =
      b.AddTensor(0, "coordinates", TensorType::kInt64, {1, 2}, {}, {-1, 2});
  b.AddNode(0, "WHERE", {condition}, {coordinates});
  b.SetInputs(0, {condition});
  b.SetOutputs(0, {coordinates});
  auto run = CreateFrom(std::move(b).Finish(), "where_dynamic");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(coordinates)].arena, ArenaKind::kNone);
  const std::vector<uint8_t> truth = {1, 0, 1, 0, 0, 1};
  std::memcpy(run->tensor(condition).data, truth.data(), truth.size());
  ASSERT_TRUE(run->Invoke().ok());
  const RuntimeTensor& out = run->tensor(coordinates);
  EXPECT_EQ(out.shape, (std::vector<int32_t>{3, 2}));
  EXPECT_EQ(Values<int64_t>(out), (std::vector<int64_t>{0, 0, 0, 2, 1, 2}));
  EXPECT_EQ(run->stats().dynamic_bytes, 3u * 2 * sizeof(int64_t));

  // A second Invoke with fewer true elements shrinks the output.
  const std::vector<uint8_t> one = {0, 0, 0, 0, 1, 0};
  std::memcpy(run->tensor(condition).data, one.data(), one.size());
  ASSERT_TRUE(run->Invoke().ok());
  EXPECT_EQ(run->tensor(coordinates).shape, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(Values<int64_t>(run->tensor(coordinates)), (std::vector<int64_t>{1, 1}));
}

// reshape.cc: a shape input that is not a constant makes the output dynamic; the ADD after it is
// prepared once the RESHAPE ran, and upstream's arena planning stops at the RESHAPE.
TEST(DynamicOutputsTest, ReshapeToAShapeGivenAtRunTimeIsDynamic) {
  ModelBuilder b("reshape_dynamic");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {2, 3});
  const int32_t shape = b.AddTensor(0, "shape", TensorType::kInt32, {2});
  const int32_t reshaped = b.AddTensor(0, "reshaped", TensorType::kFloat32, {3, 2}, {}, {-1, -1});
  std::vector<uint8_t> one(sizeof(float));
  const float value = 1.0f;
  std::memcpy(one.data(), &value, sizeof(float));
  const int32_t offset = b.AddConstant(0, "one", TensorType::kFloat32, {1}, one);
  const int32_t out = b.AddTensor(0, "out", TensorType::kFloat32, {3, 2}, {}, {-1, -1});
  b.AddNode(0, "RESHAPE", {x, shape}, {reshaped});
  b.AddNode(0, "ADD", {reshaped, offset}, {out});
  b.SetInputs(0, {x, shape});
  b.SetOutputs(0, {out});
  auto run = CreateFrom(std::move(b).Finish(), "reshape_dynamic");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(reshaped)].arena, ArenaKind::kNone);
  const std::vector<float> input = {1, 2, 3, 4, 5, 6};
  std::memcpy(run->tensor(x).data, input.data(), sizeof(float) * input.size());
  const std::vector<int32_t> new_shape = {6, 1};
  std::memcpy(run->tensor(shape).data, new_shape.data(), sizeof(int32_t) * new_shape.size());
  ASSERT_TRUE(run->Invoke().ok());
  EXPECT_EQ(run->tensor(reshaped).shape, (std::vector<int32_t>{6, 1}));
  EXPECT_EQ(run->tensor(out).shape, (std::vector<int32_t>{6, 1}));
  EXPECT_EQ(Values<float>(run->tensor(out)), (std::vector<float>{2, 3, 4, 5, 6, 7}));
  EXPECT_GE(run->stats().dynamic_bytes, 6u * sizeof(float));
}

// non_max_suppression.cc: a max_output_size that is not a constant makes the selected indices
// and scores dynamic (sized from its value at Eval); the count stays in the arena.
TEST(DynamicOutputsTest, NmsSizesItsSelectionsFromMaxOutputSizeAtEval) {
  ModelBuilder b("nms_dynamic");
  b.AddSubgraph("main");
  const int32_t boxes = b.AddTensor(0, "boxes", TensorType::kFloat32, {6, 4});
  const int32_t scores = b.AddTensor(0, "scores", TensorType::kFloat32, {6});
  const int32_t size = b.AddTensor(0, "max_output_size", TensorType::kInt32, {});
  const int32_t iou = b.AddConstant(0, "iou", TensorType::kFloat32, {}, FloatBytes({0.5f}));
  const int32_t threshold =
      b.AddConstant(0, "threshold", TensorType::kFloat32, {}, FloatBytes({0.0f}));
  const int32_t sigma = b.AddConstant(0, "sigma", TensorType::kFloat32, {}, FloatBytes({0.5f}));
  const int32_t indices = b.AddTensor(0, "indices", TensorType::kInt32, {1}, {}, {-1});
  const int32_t selected = b.AddTensor(0, "selected", TensorType::kFloat32, {1}, {}, {-1});
  const int32_t count = b.AddTensor(0, "count", TensorType::kInt32, {});
  b.AddNode(0, "NON_MAX_SUPPRESSION_V5", {boxes, scores, size, iou, threshold, sigma},
            {indices, selected, count});
  b.SetInputs(0, {boxes, scores, size});
  b.SetOutputs(0, {indices, selected, count});
  auto run = CreateFrom(std::move(b).Finish(), "nms_dynamic");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(indices)].arena, ArenaKind::kNone);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(selected)].arena, ArenaKind::kNone);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(count)].arena, ArenaKind::kRw);
  // Upstream's test boxes and scores (non_max_suppression_test.cc, V5 TestDynamicOutput).
  const std::vector<float> box_values = {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, .9f, 1, -0.1f,
                                         0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101, 0, 100};
  const std::vector<float> score_values = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};
  std::memcpy(run->tensor(boxes).data, box_values.data(), sizeof(float) * box_values.size());
  std::memcpy(run->tensor(scores).data, score_values.data(), sizeof(float) * score_values.size());
  for (int32_t max_output_size : {2, 1, 3}) {
    std::memcpy(run->tensor(size).data, &max_output_size, sizeof(int32_t));
    ASSERT_TRUE(run->Invoke().ok());
    EXPECT_EQ(run->tensor(indices).shape, (std::vector<int32_t>{max_output_size}));
    EXPECT_EQ(run->tensor(selected).shape, (std::vector<int32_t>{max_output_size}));
    EXPECT_EQ(Values<int32_t>(run->tensor(count)), (std::vector<int32_t>{max_output_size}));
  }
  EXPECT_EQ(Values<int32_t>(run->tensor(indices)), (std::vector<int32_t>{3, 0, 5}));
  EXPECT_FLOAT_EQ(Values<float>(run->tensor(selected))[2], 0.3f);
}

// unique.cc: the unique values are always dynamic; the index output, shaped like the input, is
// in the arena.
TEST(DynamicOutputsTest, UniqueSizesItsValuesFromTheDistinctOnesAtEval) {
  ModelBuilder b("unique_dynamic");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {7});
  const int32_t values = b.AddTensor(0, "values", TensorType::kFloat32, {1}, {}, {-1});
  const int32_t index = b.AddTensor(0, "index", TensorType::kInt32, {7});
  b.AddNode(0, "UNIQUE", {x}, {values, index});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {values, index});
  auto run = CreateFrom(std::move(b).Finish(), "unique_dynamic");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(values)].arena, ArenaKind::kNone);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(index)].arena, ArenaKind::kRw);
  const std::vector<float> input = {2, 3, 5, 7, 2, 7, 3};  // unique_test.cc SomeDuplicates
  std::memcpy(run->tensor(x).data, input.data(), sizeof(float) * input.size());
  ASSERT_TRUE(run->Invoke().ok());
  EXPECT_EQ(Values<float>(run->tensor(values)), (std::vector<float>{2, 3, 5, 7}));
  EXPECT_EQ(Values<int32_t>(run->tensor(index)), (std::vector<int32_t>{0, 1, 2, 3, 0, 3, 1}));
  EXPECT_EQ(run->stats().dynamic_bytes, 4u * sizeof(float));
}

// sparse_to_dense.cc: an output_shape that is not a constant makes the output dynamic.
TEST(DynamicOutputsTest, SparseToDenseSizesItsOutputFromTheShapeAtEval) {
  ModelBuilder b("sparse_to_dense_dynamic");
  b.AddSubgraph("main");
  const int32_t indices = b.AddConstant(0, "indices", TensorType::kInt32, {3, 3},
                                        Int32Bytes({0, 0, 0, 1, 2, 1, 2, 0, 1}));
  const int32_t shape = b.AddTensor(0, "shape", TensorType::kInt32, {3});
  const int32_t values =
      b.AddConstant(0, "values", TensorType::kFloat32, {3}, FloatBytes({2, 4, 6}));
  const int32_t fill = b.AddConstant(0, "fill", TensorType::kFloat32, {1}, FloatBytes({-1}));
  const int32_t dense = b.AddTensor(0, "dense", TensorType::kFloat32, {1, 1, 1}, {}, {-1, -1, -1});
  b.AddNode(0, "SPARSE_TO_DENSE", {indices, shape, values, fill}, {dense});
  b.SetInputs(0, {shape});
  b.SetOutputs(0, {dense});
  auto run = CreateFrom(std::move(b).Finish(), "sparse_to_dense_dynamic");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->arena_plan().tensors[static_cast<size_t>(dense)].arena, ArenaKind::kNone);
  const std::vector<int32_t> dims = {3, 3, 3};
  std::memcpy(run->tensor(shape).data, dims.data(), sizeof(int32_t) * dims.size());
  ASSERT_TRUE(run->Invoke().ok());
  EXPECT_EQ(run->tensor(dense).shape, dims);
  std::vector<float> expected(27, -1);
  expected[0] = 2;
  expected[16] = 4;
  expected[19] = 6;
  EXPECT_EQ(Values<float>(run->tensor(dense)), expected);
}

}  // namespace
}  // namespace tfa::runtime
