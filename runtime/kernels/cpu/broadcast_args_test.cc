// The figures of upstream's tflite/kernels/broadcast_args_test.cc, int32 and int64.
#include "runtime/kernels/cpu/broadcast_args.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
Status Compute(TensorType type, const std::vector<T>& a, const std::vector<T>& b,
               std::vector<T>* out) {
  KernelRunner k("BROADCAST_ARGS");
  k.AddInput(type, {static_cast<int32_t>(a.size())}, a);
  k.AddInput(type, {static_cast<int32_t>(b.size())}, b);
  k.AddOutput(type, {static_cast<int32_t>(std::max(a.size(), b.size()))});
  const Status status = k.Run();
  if (status.ok()) *out = k.Output<T>();
  return status;
}

template <typename T>
void ExpectUpstreamFigures(TensorType type) {
  const std::vector<std::vector<T>> firsts = {{}, {1}, {1, 4, 6, 3, 1, 5}, {6, 3, 1, 5}};
  const std::vector<std::vector<T>> seconds = {
      {2, 4}, {2, 4}, {4, 4, 1, 3, 4, 1}, {4, 4, 1, 3, 4, 1}};
  const std::vector<std::vector<T>> expected = {
      {2, 4}, {2, 4}, {4, 4, 6, 3, 4, 5}, {4, 4, 6, 3, 4, 5}};
  for (size_t i = 0; i < firsts.size(); ++i) {
    std::vector<T> out;
    const Status status = Compute<T>(type, firsts[i], seconds[i], &out);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(out, expected[i]) << i;
  }
}

TEST(BroadcastArgsTest, UpstreamFigures) {
  ExpectUpstreamFigures<int32_t>(TensorType::kInt32);
  ExpectUpstreamFigures<int64_t>(TensorType::kInt64);
}

// ShapeNotBroadcastable: upstream dies.
TEST(BroadcastArgsTest, ShapesThatDoNotBroadcastAreRefused) {
  std::vector<int32_t> out;
  EXPECT_EQ(Compute<int32_t>(TensorType::kInt32, {2, 3, 4, 4}, {2, 2}, &out).message(),
            "shapes [2,3,4,4] and [2,2] do not broadcast (upstream's kernel aborts)");
}

}  // namespace
}  // namespace tfa::runtime
