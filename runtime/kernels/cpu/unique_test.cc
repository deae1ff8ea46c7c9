// The figures of upstream's tflite/kernels/unique_test.cc, and the types it refuses.
#include "runtime/kernels/cpu/unique.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Unique {
  std::vector<float> values;
  std::vector<int64_t> indices;
};

// The interpreter sizes the values' output from UniqueOutputShapes, then runs the kernel.
template <typename Index = int32_t>
Unique Compute(const std::vector<float>& input) {
  const TensorType index_type = sizeof(Index) == 8 ? TensorType::kInt64 : TensorType::kInt32;
  const auto n = static_cast<int32_t>(input.size());
  KernelContext context;
  Node node;
  context.node = &node;
  std::vector<float> copy = input;
  RuntimeTensor in = testing::FloatView(copy);
  RuntimeTensor values_shape, index_shape;
  values_shape.type = TensorType::kFloat32;
  index_shape.type = index_type;
  index_shape.shape = {n};
  context.inputs = {&in};
  context.outputs = {&values_shape, &index_shape};
  auto sized = UniqueOutputShapes(context);
  EXPECT_TRUE(sized.ok()) << sized.status().message();
  if (!sized.ok()) return {};
  EXPECT_EQ(sized->at(1), (std::vector<int32_t>{n}));

  KernelRunner k("UNIQUE");
  k.AddFloatInput({n}, input);
  k.AddOutput(TensorType::kFloat32, sized->at(0));
  k.AddOutput(index_type, {n});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  Unique u;
  u.values = k.Output<float>(0);
  for (Index i : k.Output<Index>(1)) u.indices.push_back(i);
  return u;
}

TEST(UniqueTest, OneElement) {
  const Unique u = Compute({5});
  EXPECT_EQ(u.values, (std::vector<float>{5}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0}));
}

TEST(UniqueTest, AllUnique) {
  const Unique u = Compute({5, 2, 3, 51, 6, 72, 7, 8});
  EXPECT_EQ(u.values, (std::vector<float>{5, 2, 3, 51, 6, 72, 7, 8}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(UniqueTest, AllDuplicates) {
  const Unique u = Compute({5, 5, 5, 5, 5, 5, 5});
  EXPECT_EQ(u.values, (std::vector<float>{5}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0}));
}

TEST(UniqueTest, SomeDuplicates) {
  const Unique u = Compute({2, 3, 5, 7, 2, 7, 3});
  EXPECT_EQ(u.values, (std::vector<float>{2, 3, 5, 7}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 1, 2, 3, 0, 3, 1}));
}

TEST(UniqueTest, RepeatedDuplicates) {
  const Unique u = Compute({-1, -1, -2, -2, -3, -3});
  EXPECT_EQ(u.values, (std::vector<float>{-1, -2, -3}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 0, 1, 1, 2, 2}));
}

TEST(UniqueTest, SomeDuplicatesIndexInt64) {
  const Unique u = Compute<int64_t>({2, 3, 5, 7, 2, 7, 3});
  EXPECT_EQ(u.values, (std::vector<float>{2, 3, 5, 7}));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 1, 2, 3, 0, 3, 1}));
}

// As std::map keys, -0.0 equals 0.0: the first one seen stands for both.
TEST(UniqueTest, NegativeZeroIsZero) {
  const Unique u = Compute({-0.0f, 1, 0.0f});
  ASSERT_EQ(u.values.size(), 2u);
  EXPECT_TRUE(std::signbit(u.values[0]));
  EXPECT_EQ(u.indices, (std::vector<int64_t>{0, 1, 0}));
}

TEST(UniqueTest, IntegerInputs) {
  KernelRunner k("UNIQUE");
  k.AddInput<int8_t>(TensorType::kInt8, {5}, {-3, 4, -3, 4, 0});
  k.AddOutput(TensorType::kInt8, {3});
  k.AddOutput(TensorType::kInt32, {5});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(0), (std::vector<int8_t>{-3, 4, 0}));
  EXPECT_EQ(k.Output<int32_t>(1), (std::vector<int32_t>{0, 1, 0, 1, 2}));
}

// unique_test.cc's UniqueOpSecurityTest: a values type other than the input's, an index type
// other than int32 / int64; and a NaN, which upstream's std::map cannot order.
TEST(UniqueTest, RefusesWhatUpstreamRefuses) {
  KernelRunner values("UNIQUE");
  values.AddFloatInput({7}, std::vector<float>(7));
  values.AddOutput(TensorType::kInt8, {1});
  values.AddOutput(TensorType::kInt32, {7});
  EXPECT_FALSE(values.Run().ok());

  KernelRunner index("UNIQUE");
  index.AddFloatInput({7}, std::vector<float>(7));
  index.AddOutput(TensorType::kFloat32, {1});
  index.AddOutput(TensorType::kInt8, {7});
  EXPECT_FALSE(index.Run().ok());

  KernelRunner nan("UNIQUE");
  nan.AddFloatInput({2}, {1, std::numeric_limits<float>::quiet_NaN()});
  nan.AddOutput(TensorType::kFloat32, {2});
  nan.AddOutput(TensorType::kInt32, {2});
  EXPECT_EQ(nan.Run().message(), "input holds NaN, which upstream's map cannot order");

  KernelRunner rank("UNIQUE");
  rank.AddFloatInput({1, 2}, {1, 2});
  rank.AddOutput(TensorType::kFloat32, {2});
  rank.AddOutput(TensorType::kInt32, {1, 2});
  EXPECT_FALSE(rank.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
