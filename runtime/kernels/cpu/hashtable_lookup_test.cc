#include "runtime/kernels/cpu/hashtable_lookup.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Lookup {
  std::vector<float> output;
  std::vector<uint8_t> hits;
};

Lookup RunLookup(std::vector<int32_t> value_shape, const std::vector<float>& values) {
  KernelRunner k("HASHTABLE_LOOKUP");
  k.AddInt32Input({4}, {1234, -292, -11, 0});
  k.AddInt32Input({3}, {-11, 0, 1234});
  k.AddFloatInput(value_shape, values);
  std::vector<int32_t> out_shape = value_shape;
  out_shape[0] = 4;
  k.AddOutput(TensorType::kFloat32, out_shape);
  k.AddOutput(TensorType::kUInt8, {4});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return {k.Output<float>(0), k.Output<uint8_t>(1)};
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << i;
}

// The figures of upstream's hashtable_lookup_test.cc: values i + j / 10 (2-D) and i * i / 10.
TEST(HashtableLookupTest, UpstreamTest2DInput) {
  const Lookup l = RunLookup({3, 2}, {0.0f, 0.1f, 1.0f, 1.1f, 2.0f, 2.1f});
  ExpectNear(l.output, {2.0f, 2.1f, 0, 0, 0.0f, 0.1f, 1.0f, 1.1f});
  EXPECT_EQ(l.hits, (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(HashtableLookupTest, UpstreamTest1DInput) {
  const Lookup l = RunLookup({3}, {0.0f, 0.1f, 0.4f});
  ExpectNear(l.output, {0.4f, 0, 0.0f, 0.1f});
  EXPECT_EQ(l.hits, (std::vector<uint8_t>{1, 0, 1, 1}));
}

// bsearch's comparator subtracts: INT32_MIN - 1 wraps to a positive difference, so upstream's
// search goes right of the key it wants, which sits on the left, and misses it.
TEST(HashtableLookupTest, FarApartKeysFollowUpstreamsWrappingComparator) {
  KernelRunner k("HASHTABLE_LOOKUP");
  k.AddInt32Input({1}, {INT32_MIN});
  k.AddInt32Input({3}, {INT32_MIN, 1, 2});
  k.AddInt32Input({3}, {7, 8, 9});
  k.AddOutput(TensorType::kInt32, {1});
  k.AddOutput(TensorType::kUInt8, {1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(0), (std::vector<int32_t>{0}));
  EXPECT_EQ(k.Output<uint8_t>(1), (std::vector<uint8_t>{0}));
}

TEST(HashtableLookupTest, StringValuesAreNotRun) {
  KernelRunner k("HASHTABLE_LOOKUP");
  k.AddInt32Input({1}, {0});
  k.AddInt32Input({1}, {0});
  k.AddInput<uint8_t>(TensorType::kString, {1}, {0, 0, 0, 0});
  k.AddOutput(TensorType::kString, {1});
  k.AddOutput(TensorType::kUInt8, {1});
  EXPECT_EQ(k.Run().message(), "the runtime has no kernel for string values");
}

}  // namespace
}  // namespace tfa::runtime
