#include "runtime/kernels/cpu/embedding_lookup_sparse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

constexpr int32_t kSum = 0, kMean = 1, kSqrtn = 2;

// Upstream's Set3DWeightMatrix: params [4, 3, 2] with value i + j / 10 + k / 100.
std::vector<float> Params() {
  std::vector<float> values;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 2; ++k) values.push_back(i + j / 10.0f + k / 100.0f);
    }
  }
  return values;
}

struct Lookup {
  std::vector<int32_t> ids, indices, dense_shape;
  std::vector<float> weights;
};

KernelRunner& AddInputs(KernelRunner& k, const Lookup& l, int32_t combiner) {
  k.options().custom_options = EncodeEmbeddingLookupSparseCombiner(combiner);
  const auto n = static_cast<int32_t>(l.ids.size());
  const auto rank = static_cast<int32_t>(l.dense_shape.size());
  k.AddInt32Input({n}, l.ids);
  k.AddInt32Input({n, rank}, l.indices);
  k.AddInt32Input({rank}, l.dense_shape);
  k.AddFloatInput({n}, l.weights);
  k.AddFloatInput({4, 3, 2}, Params());
  return k;
}

std::vector<float> RunLookup(const Lookup& l, int32_t combiner, std::vector<int32_t> output_shape) {
  KernelRunner k("EMBEDDING_LOOKUP_SPARSE");
  AddInputs(k, l, combiner).AddOutput(TensorType::kFloat32, std::move(output_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << i;
}

const Lookup k2D = {{1, 3, 0}, {0, 0, 2, 0, 2, 1}, {3, 2}, {1.0f, 2.0f, 4.0f}};

// The figures of upstream's embedding_lookup_sparse_test.cc.
TEST(EmbeddingLookupSparseTest, UpstreamSimpleTest) {
  ExpectNear(RunLookup(k2D, kSum, {3, 3, 2}), {1.00f, 1.01f, 1.10f, 1.11f, 1.20f, 1.21f,  //
                                               0, 0, 0, 0, 0, 0,                          //
                                               6.00f, 6.06f, 6.60f, 6.66f, 7.20f, 7.26f});
}

TEST(EmbeddingLookupSparseTest, UpstreamSimpleTestMean) {
  ExpectNear(RunLookup(k2D, kMean, {3, 3, 2}), {1.00f, 1.01f, 1.10f, 1.11f, 1.20f, 1.21f,  //
                                                0, 0, 0, 0, 0, 0,                          //
                                                1.00f, 1.01f, 1.10f, 1.11f, 1.20f, 1.21f});
}

TEST(EmbeddingLookupSparseTest, UpstreamSimpleTestSqrtn) {
  const float r = std::sqrt(20.0f);
  ExpectNear(RunLookup(k2D, kSqrtn, {3, 3, 2}),
             {1.00f, 1.01f, 1.10f, 1.11f, 1.20f, 1.21f,  //
              0, 0, 0, 0, 0, 0,                          //
              6.00f / r, 6.06f / r, 6.60f / r, 6.66f / r, 7.20f / r, 7.26f / r});
}

TEST(EmbeddingLookupSparseTest, UpstreamIndices3DTest) {
  const Lookup l = {{1, 3, 0}, {0, 0, 0, 2, 0, 0, 2, 0, 1}, {3, 2, 2}, {1.0f, 2.0f, 4.0f}};
  std::vector<float> expected(36, 0.0f);
  const std::vector<float> first = {1.00f, 1.01f, 1.10f, 1.11f, 1.20f, 1.21f};
  const std::vector<float> last = {6.00f, 6.06f, 6.60f, 6.66f, 7.20f, 7.26f};
  std::copy(first.begin(), first.end(), expected.begin());
  std::copy(last.begin(), last.end(), expected.begin() + 24);
  ExpectNear(RunLookup(l, kSum, {3, 2, 3, 2}), expected);
}

std::string RefusalOf(const Lookup& l) {
  KernelRunner k("EMBEDDING_LOOKUP_SPARSE");
  AddInputs(k, l, kSum).AddOutput(TensorType::kFloat32, {3, 3, 2});
  return k.Run().message();
}

// Upstream's Eval logs and fails on both.
TEST(EmbeddingLookupSparseTest, OutOfRangeIdsAndIndicesAreErrors) {
  EXPECT_EQ(RefusalOf({{1, 4, 0}, k2D.indices, k2D.dense_shape, k2D.weights}),
            "id 4 is outside [0, 4)");
  EXPECT_EQ(RefusalOf({k2D.ids, {0, 0, 3, 0, 2, 1}, k2D.dense_shape, k2D.weights}),
            "index 3 at dimension 0 is outside [0, 3)");
}

}  // namespace
}  // namespace tfa::runtime
