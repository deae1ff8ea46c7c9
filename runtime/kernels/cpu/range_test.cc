#include "runtime/kernels/cpu/range.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
Status RunRange(TensorType type, T start, T limit, T delta, int32_t size, std::vector<T>* out) {
  KernelRunner k("RANGE");
  k.AddInput<T>(type, {}, {start});
  k.AddInput<T>(type, {}, {limit});
  k.AddInput<T>(type, {}, {delta});
  k.AddOutput(type, {size});
  const Status status = k.Run();
  if (status.ok()) *out = k.Output<T>();
  return status;
}

// Figures of upstream's range_test.cc.
TEST(RangeTest, Integers) {
  std::vector<int32_t> out;
  ASSERT_TRUE(RunRange<int32_t>(TensorType::kInt32, 0, 4, 1, 4, &out).ok());
  EXPECT_EQ(out, (std::vector<int32_t>{0, 1, 2, 3}));
  ASSERT_TRUE(RunRange<int32_t>(TensorType::kInt32, 2, 9, 2, 4, &out).ok());
  EXPECT_EQ(out, (std::vector<int32_t>{2, 4, 6, 8}));
  ASSERT_TRUE(RunRange<int32_t>(TensorType::kInt32, 10, 3, -3, 3, &out).ok());
  EXPECT_EQ(out, (std::vector<int32_t>{10, 7, 4}));
  std::vector<int64_t> wide;
  ASSERT_TRUE(RunRange<int64_t>(TensorType::kInt64, 2, 9, 2, 4, &wide).ok());
  EXPECT_EQ(wide, (std::vector<int64_t>{2, 4, 6, 8}));
}

TEST(RangeTest, Floats) {
  std::vector<float> out;
  ASSERT_TRUE(RunRange<float>(TensorType::kFloat32, 0, 4, 1, 4, &out).ok());
  EXPECT_EQ(out, (std::vector<float>{0, 1, 2, 3}));
  ASSERT_TRUE(RunRange<float>(TensorType::kFloat32, 10, 3, -3, 3, &out).ok());
  EXPECT_EQ(out, (std::vector<float>{10, 7, 4}));
  ASSERT_TRUE(RunRange<float>(TensorType::kFloat32, 0, 1, 0.3f, 4, &out).ok());
  // Accumulated: 0.3f + 0.3f + 0.3f, not 3 * 0.3f.
  EXPECT_EQ(out[3], 0.3f + 0.3f + 0.3f);
}

TEST(RangeTest, BadDeltasAreOneLineErrors) {
  std::vector<int32_t> out;
  EXPECT_EQ(RunRange<int32_t>(TensorType::kInt32, 0, 4, 0, 0, &out).message(), "RANGE delta is 0");
  EXPECT_EQ(RunRange<int32_t>(TensorType::kInt32, 0, 4, -1, 0, &out).message(),
            "RANGE delta points away from the limit");
  EXPECT_EQ(RunRange<int32_t>(TensorType::kInt32, 0, 4, 1, 5, &out).message(),
            "output shape [5] differs from the computed [4]");
}

}  // namespace
}  // namespace tfa::runtime
