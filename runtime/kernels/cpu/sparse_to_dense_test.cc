// The figures of upstream's tflite/kernels/sparse_to_dense_test.cc (a constant output shape; the
// dynamic one is DynamicOutputsTest's).
#include "runtime/kernels/cpu/sparse_to_dense.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

const std::vector<int32_t> kIndices = {0, 0, 0, 1, 2, 1, 2, 0, 1};

template <typename T, typename I = int32_t>
Status Densify(TensorType type, TensorType index_type, std::vector<int32_t> indices_shape,
               const std::vector<I>& indices, const std::vector<int32_t>& output_shape,
               std::vector<int32_t> values_shape, const std::vector<T>& values, T fill,
               std::vector<T>* out) {
  KernelRunner k("SPARSE_TO_DENSE");
  k.AddInput(index_type, std::move(indices_shape), indices);
  k.AddInt32Input({static_cast<int32_t>(output_shape.size())}, output_shape).is_constant = true;
  k.AddInput(type, std::move(values_shape), values);
  k.AddInput(type, {1}, std::vector<T>{fill});
  k.AddOutput(type, output_shape);
  const Status status = k.Run();
  if (status.ok()) *out = k.Output<T>();
  return status;
}

TEST(SparseToDenseTest, ZeroAndOneDimension) {
  std::vector<float> out;
  ASSERT_TRUE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {1}, std::vector{3}, {5},
                             {1}, {7}, 0, &out)
                  .ok());
  EXPECT_EQ(out, (std::vector<float>{0, 0, 0, 7, 0}));
  ASSERT_TRUE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3}, std::vector{1, 3, 5},
                             {7}, {3}, {2, 4, 6}, 0, &out)
                  .ok());
  EXPECT_EQ(out, (std::vector<float>{0, 2, 0, 4, 0, 6, 0}));
}

template <typename T>
std::vector<T> ThreeByThreeByThree(T fill) {
  std::vector<T> v(27, fill);
  v[0] = 2;
  v[16] = 4;
  v[19] = 6;
  return v;
}

TEST(SparseToDenseTest, TwoDimensionalIndicesOfEachType) {
  std::vector<float> f;
  ASSERT_TRUE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                             {3}, {2, 4, 6}, 0, &f)
                  .ok());
  EXPECT_EQ(f, ThreeByThreeByThree<float>(0));
  ASSERT_TRUE((Densify<float, int64_t>(TensorType::kFloat32, TensorType::kInt64, {3, 3},
                                       std::vector<int64_t>(kIndices.begin(), kIndices.end()),
                                       {3, 3, 3}, {3}, {2, 4, 6}, -1, &f))
                  .ok());
  EXPECT_EQ(f, ThreeByThreeByThree<float>(-1));
  std::vector<int32_t> i32;
  ASSERT_TRUE(Densify<int32_t>(TensorType::kInt32, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                               {3}, {2, 4, 6}, -1, &i32)
                  .ok());
  EXPECT_EQ(i32, ThreeByThreeByThree<int32_t>(-1));
  std::vector<int64_t> i64;
  ASSERT_TRUE(Densify<int64_t>(TensorType::kInt64, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                               {3}, {2, 4, 6}, -1, &i64)
                  .ok());
  EXPECT_EQ(i64, ThreeByThreeByThree<int64_t>(-1));
  std::vector<int8_t> i8;
  ASSERT_TRUE(Densify<int8_t>(TensorType::kInt8, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                              {3}, {2, 4, 6}, -1, &i8)
                  .ok());
  EXPECT_EQ(i8, ThreeByThreeByThree<int8_t>(-1));
  std::vector<uint8_t> u8;
  ASSERT_TRUE(Densify<uint8_t>(TensorType::kUInt8, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                               {3}, {2, 4, 6}, 1, &u8)
                  .ok());
  EXPECT_EQ(u8, ThreeByThreeByThree<uint8_t>(1));
}

TEST(SparseToDenseTest, AScalarValueGoesToEveryIndex) {
  std::vector<float> out;
  ASSERT_TRUE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3, 3}, kIndices, {3, 3, 3},
                             {}, {5}, 0, &out)
                  .ok());
  std::vector<float> expected(27, 0);
  expected[0] = expected[16] = expected[19] = 5;
  EXPECT_EQ(out, expected);
}

TEST(SparseToDenseTest, IndicesOutsideTheOutputAreErrors) {
  std::vector<float> out;
  std::vector<int32_t> past = kIndices, negative = kIndices;
  past[4] = 5;
  negative[4] = -1;
  EXPECT_FALSE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3, 3}, past, {3, 3, 3},
                              {3}, {2, 4, 6}, 0, &out)
                   .ok());
  EXPECT_FALSE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3, 3}, negative, {3, 3, 3},
                              {3}, {2, 4, 6}, 0, &out)
                   .ok());
  EXPECT_FALSE(Densify<float>(TensorType::kFloat32, TensorType::kInt32, {3, 3}, past, {3, 3, 3}, {},
                              {2}, 0, &out)
                   .ok());
}

}  // namespace
}  // namespace tfa::runtime
