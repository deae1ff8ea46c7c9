#include "runtime/kernels/cpu/bucketize.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<int32_t> RunBucketize(TensorType type, const std::vector<T>& values,
                                  std::vector<float> boundaries) {
  KernelRunner k("BUCKETIZE");
  k.options().boundaries = std::move(boundaries);
  k.AddInput<T>(type, {3, 2}, values);
  k.AddOutput(TensorType::kInt32, {3, 2});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<int32_t>();
}

// Figures of upstream's bucketize_test.cc: buckets (-inf, 0), [0, 10), [10, 100), [100, +inf).
TEST(BucketizeTest, UpstreamFigures) {
  const std::vector<int32_t> expected = {0, 3, 3, 2, 1, 3};
  EXPECT_EQ(RunBucketize<float>(TensorType::kFloat32, {-5, 10000, 150, 10, 5, 100}, {0, 10, 100}),
            expected);
  EXPECT_EQ(RunBucketize<int32_t>(TensorType::kInt32, {-5, 10000, 150, 10, 5, 100}, {0, 10, 100}),
            expected);
  EXPECT_EQ(RunBucketize<int64_t>(TensorType::kInt64, {-5, 10000, 150, 10, 5, 100}, {0, 10, 100}),
            expected);
  EXPECT_EQ(RunBucketize<double>(TensorType::kFloat64, {-5, 10000, 150, 10, 5, 100}, {0, 10, 100}),
            expected);
}

TEST(BucketizeTest, NoBoundariesIsOneBucket) {
  EXPECT_EQ(RunBucketize<float>(TensorType::kFloat32, {-1, 0, 1, 2, 3, 4}, {}),
            (std::vector<int32_t>(6, 0)));
}

// Upstream's UnsortedBuckets.
TEST(BucketizeTest, UnsortedBoundariesAreAnError) {
  KernelRunner k("BUCKETIZE");
  k.options().boundaries = {0, 10, -10};
  k.AddInt32Input({1}, {1});
  k.AddOutput(TensorType::kInt32, {1});
  EXPECT_EQ(k.Run().message(), "the boundaries are not sorted");
}

}  // namespace
}  // namespace tfa::runtime
