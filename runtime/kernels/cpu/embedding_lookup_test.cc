#include "runtime/kernels/cpu/embedding_lookup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Upstream's test tables: row i holds i.00, i.01, i.02, i.03, i.10, ..., i.13 (row 1's second
// value negated for the signed tables).
std::vector<float> UpstreamTable(bool negative) {
  std::vector<float> table;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 4; ++k) table.push_back(i + j / 10.0f + k / 100.0f);
    }
  }
  if (negative) table[9] = -table[9];
  return table;
}

std::vector<float> RowsOneZeroTwo(const std::vector<float>& table) {
  std::vector<float> rows(table.begin() + 8, table.begin() + 16);
  rows.insert(rows.end(), table.begin(), table.begin() + 8);
  rows.insert(rows.end(), table.begin() + 16, table.end());
  return rows;
}

// Symmetric int8 values as upstream's test helpers make them (tensor_utils::SymmetricQuantizeFloats
// for one scale, q = round(x / scale) per row for per-row scales).
std::vector<int8_t> Quantize(const std::vector<float>& values, const std::vector<float>& scales) {
  std::vector<int8_t> q;
  const size_t row = values.size() / scales.size();
  for (size_t i = 0; i < values.size(); ++i) {
    const float scaled = std::round(values[i] / scales[i / row]);
    q.push_back(static_cast<int8_t>(std::clamp(scaled, -127.0f, 127.0f)));
  }
  return q;
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tolerance) << i;
}

// Upstream's SimpleTest.
TEST(EmbeddingLookupTest, CopiesTheRowsOfTheIds) {
  KernelRunner k("EMBEDDING_LOOKUP");
  k.AddInt32Input({3}, {1, 0, 2});
  k.AddFloatInput({3, 2, 4}, UpstreamTable(false));
  k.AddOutput(TensorType::kFloat32, {3, 2, 4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), RowsOneZeroTwo(UpstreamTable(false)));
}

// Upstream's HybridEmbeddingLookupHybridOpTest figures (tolerance 7.41e-3), for tables of rank 2,
// 3 and 4, int8 and uint8 (whose bytes upstream fills with the same int8 values).
TEST(EmbeddingLookupTest, HybridTablesDequantizeWithTheirScale) {
  for (TensorType type : {TensorType::kInt8, TensorType::kUInt8}) {
    for (const std::vector<int32_t>& shape :
         {std::vector<int32_t>{3, 8}, {3, 2, 4}, {3, 2, 2, 2}}) {
      const bool negative = type == TensorType::kInt8;
      const std::vector<float> table = UpstreamTable(negative);
      Quantization q;
      q.scale = {2.13f / 127.0f};
      q.zero_point = {0};
      KernelRunner k("EMBEDDING_LOOKUP");
      k.AddInt32Input({3}, {1, 0, 2});
      k.AddInput<int8_t>(type, shape, Quantize(table, q.scale)).quantization = &q;
      k.AddOutput(TensorType::kFloat32, shape);
      ASSERT_TRUE(k.Run().ok());
      ExpectNear(k.Output(), RowsOneZeroTwo(table), 7.41e-3f);
    }
  }
}

// Upstream's PerAxisHybridEmbeddingLookupHybridOpTest: one scale per row.
TEST(EmbeddingLookupTest, PerRowScales) {
  const std::vector<float> table = UpstreamTable(true);
  Quantization q;
  q.scale = {0.00102f, 0.0089f, 0.016772f};
  q.zero_point = {0, 0, 0};
  KernelRunner k("EMBEDDING_LOOKUP");
  k.AddInt32Input({3}, {1, 0, 2});
  k.AddInput<int8_t>(TensorType::kInt8, {3, 2, 4}, Quantize(table, q.scale)).quantization = &q;
  k.AddOutput(TensorType::kFloat32, {3, 2, 4});
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output(), RowsOneZeroTwo(table), 7.41e-3f);
}

// Upstream's Simple3DTestQuantized: a uint8 table into an int8 output copies the bytes.
TEST(EmbeddingLookupTest, SameSizeTypesCopyBytes) {
  std::vector<uint8_t> table;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 4; ++k) table.push_back(static_cast<uint8_t>(100 * i + 10 * j + k));
    }
  }
  KernelRunner k("EMBEDDING_LOOKUP");
  k.AddInt32Input({3}, {1, 0, 2});
  k.AddInput<uint8_t>(TensorType::kUInt8, {3, 2, 4}, table);
  k.AddOutput(TensorType::kInt8, {3, 2, 4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<uint8_t>(),
            (std::vector<uint8_t>{100, 101, 102, 103, 110, 111, 112, 113, 0,   1,   2,   3,
                                  10,  11,  12,  13,  200, 201, 202, 203, 210, 211, 212, 213}));
}

TEST(EmbeddingLookupTest, AnIdOutsideTheTableIsAnError) {
  KernelRunner k("EMBEDDING_LOOKUP");
  k.AddInt32Input({2}, {0, 3});
  k.AddFloatInput({3, 1}, {1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {2, 1});
  EXPECT_EQ(k.Run().message(), "id 3 is outside the table's rows [0, 3)");
}

TEST(EmbeddingLookupTest, AnAsymmetricHybridTableIsAnError) {
  Quantization q;
  q.scale = {0.5f};
  q.zero_point = {3};
  KernelRunner k("EMBEDDING_LOOKUP");
  k.AddInt32Input({1}, {0});
  k.AddInput<int8_t>(TensorType::kInt8, {1, 2}, {1, 2}).quantization = &q;
  k.AddOutput(TensorType::kFloat32, {1, 2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
