#include "runtime/kernels/cpu/batch_matmul.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;

// Upstream's batch_matmul_test.cc operands: weights [10, 3] holding 1..10 (each three times) and
// two LHS rows.
const std::vector<float> kWeights = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5,  5,  5,
                                     6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10};
const std::vector<float> kSmallRows = {1, 2, 3, 4, 5, 6, 7, 8,  -9, -10,
                                       1, 2, 3, 4, 5, 6, 7, -8, 9,  -10};
const std::vector<float> kLargeRows = {11, 12, 13, 14, 15, 16, 17, 18,  -19, -20,
                                       11, 12, 13, 14, 15, 16, 17, -18, 19,  -20};

template <typename T>
std::vector<T> QuantizedValues(const std::vector<float>& real, float scale, int32_t zero_point) {
  std::vector<T> q;
  for (float v : real) q.push_back(static_cast<T>(std::lround(v / scale) + zero_point));
  return q;
}

// The planned temporaries of upstream's Prepare: the transposed LHS and RHS.
void AddTransposeTemporaries(KernelRunner& k, TensorType lhs, std::vector<int32_t> lhs_t,
                             TensorType rhs, std::vector<int32_t> rhs_t) {
  k.AddTemporary(lhs, std::move(lhs_t));
  k.AddTemporary(rhs, std::move(rhs_t));
}

// [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
TEST(BatchMatMulTest, PlainProduct) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 2, 2}, {1, 2, 3, 4});
  k.AddFloatInput({1, 2, 2}, {5, 6, 7, 8});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{19, 22, 43, 50}));
}

// adj_y: rhs stored transposed, [[5, 7], [6, 8]] read as [[5, 6], [7, 8]]; the result is the
// same. adj_x: lhs [[1, 3], [2, 4]] read as [[1, 2], [3, 4]].
TEST(BatchMatMulTest, AdjointsTransposeTheLastTwoDimensions) {
  KernelRunner k("BATCH_MATMUL");
  k.options().adj_x = true;
  k.options().adj_y = true;
  k.AddFloatInput({2, 2}, {1, 3, 2, 4});
  k.AddFloatInput({2, 2}, {5, 7, 6, 8});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{19, 22, 43, 50}));
}

// One lhs matrix [1, 2] against two rhs batches: [[1], [1]] and [[2], [3]].
TEST(BatchMatMulTest, BroadcastsBatchDimensions) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 1, 2}, {1, 2});
  k.AddFloatInput({2, 2, 1}, {1, 1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {2, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 8}));
}

// An empty operand (a dynamic model's zero-row batch) multiplies to an empty output, with or
// without the plan's temporaries to transpose into.
TEST(BatchMatMulTest, EmptyOperandsGiveAnEmptyOutput) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({0, 2}, {});
  k.AddFloatInput({2, 0}, {});
  k.AddOutput(TensorType::kFloat32, {0, 0});
  EXPECT_TRUE(k.Run().ok());
}

TEST(BatchMatMulTest, RefusesMismatchedDepth) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 3}, {1, 2, 3});
  k.AddFloatInput({2, 1}, {1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 1});
  EXPECT_FALSE(k.Run().ok());
}

// QuantizedBatchMatMulOpTest.SimpleTestQuantizedInt8: operands in [-63.5, 64] (scale 0.5, zero
// point -1), output in [-127, 128] (scale 1, zero point -1): stored 22, 22, 22, 56, 56, 56.
TEST(BatchMatMulTest, Int8MatchesUpstreamsTest) {
  const Quantization in = PerTensor(0.5f, -1), out = PerTensor(1.0f, -1);
  KernelRunner k("BATCH_MATMUL");
  k.AddInput(TensorType::kInt8, {2, 10}, QuantizedValues<int8_t>(kSmallRows, 0.5f, -1))
      .quantization = &in;
  k.AddInput(TensorType::kInt8, {10, 3}, QuantizedValues<int8_t>(kWeights, 0.5f, -1)).quantization =
      &in;
  k.AddOutput(TensorType::kInt8, {2, 3}).quantization = &out;
  AddTransposeTemporaries(k, TensorType::kInt8, {10, 2}, TensorType::kInt8, {3, 10});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{22, 22, 22, 56, 56, 56}));
}

// The same product without the plan's temporaries (transposed into the kernel's own buffers),
// and with adj_y (the RHS stored [3, 10], nothing to transpose): the same stored values.
TEST(BatchMatMulTest, Int8WithoutTemporariesAndWithAdjYAgree) {
  const Quantization in = PerTensor(0.5f, -1), out = PerTensor(1.0f, -1);
  std::vector<float> transposed(30);
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 3; ++c) transposed[c * 10 + r] = kWeights[r * 3 + c];
  for (const bool adj_y : {false, true}) {
    KernelRunner k("BATCH_MATMUL");
    k.options().adj_y = adj_y;
    k.AddInput(TensorType::kInt8, {2, 10}, QuantizedValues<int8_t>(kSmallRows, 0.5f, -1))
        .quantization = &in;
    k.AddInput(TensorType::kInt8, adj_y ? std::vector<int32_t>{3, 10} : std::vector<int32_t>{10, 3},
               QuantizedValues<int8_t>(adj_y ? transposed : kWeights, 0.5f, -1))
        .quantization = &in;
    k.AddOutput(TensorType::kInt8, {2, 3}).quantization = &out;
    ASSERT_TRUE(k.Run().ok());
    EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{22, 22, 22, 56, 56, 56})) << adj_y;
  }
}

// QuantizedBatchMatMulOpTest.SimpleTestQuantizedInt16: scale 10/32767, zero point 0, output
// scale 1: stored 23, 23, 23, 57, 57, 57.
TEST(BatchMatMulTest, Int16MatchesUpstreamsTest) {
  const float scale = 10.0f / 32767;
  const Quantization in = PerTensor(scale, 0), out = PerTensor(1.0f, 0);
  KernelRunner k("BATCH_MATMUL");
  k.AddInput(TensorType::kInt16, {2, 10}, QuantizedValues<int16_t>(kSmallRows, scale, 0))
      .quantization = &in;
  k.AddInput(TensorType::kInt16, {10, 3}, QuantizedValues<int16_t>(kWeights, scale, 0))
      .quantization = &in;
  k.AddOutput(TensorType::kInt16, {2, 3}).quantization = &out;
  AddTransposeTemporaries(k, TensorType::kInt16, {10, 2}, TensorType::kInt16, {3, 10});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{23, 23, 23, 57, 57, 57}));
}

TEST(BatchMatMulTest, Int16RefusesNonZeroZeroPoints) {
  const Quantization in = PerTensor(0.5f, 3), out = PerTensor(1.0f, 0);
  KernelRunner k("BATCH_MATMUL");
  k.AddInput(TensorType::kInt16, {1, 2}, std::vector<int16_t>{1, 2}).quantization = &in;
  k.AddInput(TensorType::kInt16, {2, 1}, std::vector<int16_t>{1, 2}).quantization = &in;
  k.AddOutput(TensorType::kInt16, {1, 1}).quantization = &out;
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("zero point 0"), std::string::npos) << status.message();
}

// 16x8: int16 LHS [1000, -2000] at 0.001 (1, -2) times int8 RHS [10, 20] at 0.1 (1, 2) is -3:
// the int64 sum -30000 times 0.001 * 0.1 / 0.01 stores -300.
TEST(BatchMatMulTest, Int16TimesInt8SumsInInt64AndRequantizes) {
  const Quantization lhs = PerTensor(0.001f, 0), rhs = PerTensor(0.1f, 0),
                     out = PerTensor(0.01f, 0);
  KernelRunner k("BATCH_MATMUL");
  k.AddInput(TensorType::kInt16, {1, 2}, std::vector<int16_t>{1000, -2000}).quantization = &lhs;
  k.AddInput(TensorType::kInt8, {2, 1}, std::vector<int8_t>{10, 20}).quantization = &rhs;
  k.AddOutput(TensorType::kInt16, {1, 1}).quantization = &out;
  AddTransposeTemporaries(k, TensorType::kInt16, {2, 1}, TensorType::kInt8, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{-300}));
}

// A per-channel RHS has legacy params of scale 0 (GetLegacyQuantization), so upstream's integer
// paths requantize by 0: every output is the output's zero point (int8), or 0 (16x8).
TEST(BatchMatMulTest, PerChannelRhsRequantizesByZeroAsUpstream) {
  Quantization per_channel;
  per_channel.scale = {0.5f, 0.25f};
  per_channel.zero_point = {0, 0};
  per_channel.quantized_dimension = 1;
  const Quantization in8 = PerTensor(0.5f, -1), out8 = PerTensor(1.0f, 5);
  const Quantization in16 = PerTensor(0.5f, 0), out16 = PerTensor(1.0f, 0);
  for (const TensorType lhs_type : {TensorType::kInt8, TensorType::kInt16}) {
    const bool int8 = lhs_type == TensorType::kInt8;
    KernelRunner k("BATCH_MATMUL");
    if (int8) {
      k.AddInput(lhs_type, {1, 2}, std::vector<int8_t>{40, -30}).quantization = &in8;
    } else {
      k.AddInput(lhs_type, {1, 2}, std::vector<int16_t>{40, -30}).quantization = &in16;
    }
    RuntimeTensor& w = k.AddInput(TensorType::kInt8, {2, 2}, std::vector<int8_t>{3, 4, 5, 6});
    w.quantization = &per_channel;
    w.is_constant = true;
    k.AddOutput(lhs_type, {1, 2}).quantization = int8 ? &out8 : &out16;
    ASSERT_TRUE(k.Run().ok());
    if (int8) {
      EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{5, 5}));
    } else {
      EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{0, 0}));
    }
  }
}

// int8 x int8 -> int32 adds the raw stored products: upstream ignores the zero points there.
TEST(BatchMatMulTest, Int8ToInt32AddsRawProducts) {
  const Quantization in = PerTensor(0.5f, 7);
  KernelRunner k("BATCH_MATMUL");
  k.AddInput(TensorType::kInt8, {1, 2}, std::vector<int8_t>{3, -4}).quantization = &in;
  k.AddInput(TensorType::kInt8, {2, 2}, std::vector<int8_t>{1, 2, 5, -6}).quantization = &in;
  k.AddOutput(TensorType::kInt32, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{3 - 20, 6 + 24}));
}

// The hybrid kernel (float LHS, int8 RHS of scale 10/127) with upstream's temporaries; the
// expected values and tolerances are Hybrid{Asymmetric,Symmetric}BatchMatMulOpTest's.
std::vector<float> RunHybrid(bool asymmetric, std::vector<int32_t> lhs_shape,
                             const std::vector<float>& lhs, std::vector<int32_t> out_shape) {
  const float scale = 10.0f / 127;
  static const Quantization weights = PerTensor(scale, 0);
  KernelRunner k("BATCH_MATMUL");
  k.options().asymmetric_quantize_inputs = asymmetric;
  const int32_t rows = lhs_shape[lhs_shape.size() - 2];
  int32_t lhs_rows = 1;
  for (size_t d = 0; d + 1 < lhs_shape.size(); ++d) lhs_rows *= lhs_shape[d];
  std::vector<int32_t> lhs_t = lhs_shape;
  std::swap(lhs_t[lhs_t.size() - 1], lhs_t[lhs_t.size() - 2]);
  k.AddFloatInput(lhs_shape, lhs);
  k.AddInput(TensorType::kInt8, {10, 3}, QuantizedValues<int8_t>(kWeights, scale, 0)).quantization =
      &weights;
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  k.AddTemporary(TensorType::kFloat32, lhs_t);
  k.AddTemporary(TensorType::kInt8, {3, 10});
  k.AddTemporary(TensorType::kInt8, lhs_shape);
  k.AddTemporary(TensorType::kFloat32, {lhs_rows});
  k.AddTemporary(TensorType::kInt32, {3, rows});
  k.AddTemporary(TensorType::kInt32, {lhs_rows});
  k.AddTemporary(TensorType::kInt32, {3});
  EXPECT_TRUE(k.Run().ok());
  return k.Output();
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << i;
}

TEST(BatchMatMulTest, HybridMatchesUpstreamsTests) {
  ExpectNear(RunHybrid(true, {2, 10}, kLargeRows, {2, 3}), {196, 196, 196, 246, 246, 246}, 0.64f);
  ExpectNear(RunHybrid(false, {2, 10}, kLargeRows, {2, 3}), {194, 194, 194, 248, 248, 248}, 0.64f);
  std::vector<float> both = kSmallRows;
  both.insert(both.end(), kLargeRows.begin(), kLargeRows.end());
  ExpectNear(RunHybrid(true, {2, 2, 10}, both, {2, 2, 3}),
             {24, 24, 24, 58, 58, 58, 196, 196, 196, 246, 246, 246}, 1.3f);
  ExpectNear(RunHybrid(false, {2, 2, 10}, both, {2, 2, 3}),
             {24, 24, 24, 56, 56, 56, 194, 194, 194, 248, 248, 248}, 1.3f);
}

// The int8 kernel (gemmlowp on transposed copies) stores what the definition gives, element by
// element: clamp(MultiplyByQuantizedMultiplier(sum (l - zl) (r - zr)) + zo), on random shapes,
// adjoints, broadcast batches, zero points and scales, with and without the plan's temporaries.
RC_GTEST_PROP(BatchMatMulProperty, Int8StoresTheDefinition, ()) {
  const int rows = *rc::gen::inRange(1, 7), cols = *rc::gen::inRange(1, 7);
  const int depth = *rc::gen::inRange(1, 9), batch = *rc::gen::inRange(1, 4);
  const bool lhs_batched = *rc::gen::arbitrary<bool>(), rhs_batched = *rc::gen::arbitrary<bool>();
  const bool adj_x = *rc::gen::arbitrary<bool>(), adj_y = *rc::gen::arbitrary<bool>();
  const bool temporaries = *rc::gen::arbitrary<bool>();
  const int lhs_batch = lhs_batched ? batch : 1, rhs_batch = rhs_batched ? batch : 1;
  const int out_batch = std::max(lhs_batch, rhs_batch);
  const auto values = [](int count) {
    return *rc::gen::container<std::vector<int8_t>>(static_cast<size_t>(count),
                                                    rc::gen::inRange<int8_t>(-128, 127));
  };
  // Logical matrices L [rows, depth] and R [depth, cols], stored as the adjoints say.
  const std::vector<int8_t> lhs = values(lhs_batch * rows * depth);
  const std::vector<int8_t> rhs = values(rhs_batch * depth * cols);
  const auto l = [&](int b, int r, int k) {
    return lhs[static_cast<size_t>(b * rows * depth + (adj_x ? k * rows + r : r * depth + k))];
  };
  const auto rv = [&](int b, int k, int c) {
    return rhs[static_cast<size_t>(b * depth * cols + (adj_y ? c * depth + k : k * cols + c))];
  };
  const Quantization lq = PerTensor(*rc::gen::inRange(1, 100) / 64.0f, *rc::gen::inRange(-20, 20));
  const Quantization rq = PerTensor(*rc::gen::inRange(1, 100) / 64.0f, *rc::gen::inRange(-20, 20));
  const Quantization oq = PerTensor(*rc::gen::inRange(1, 400) / 4.0f, *rc::gen::inRange(-20, 20));

  KernelRunner k("BATCH_MATMUL");
  k.options().adj_x = adj_x;
  k.options().adj_y = adj_y;
  k.AddInput(TensorType::kInt8, {lhs_batch, adj_x ? depth : rows, adj_x ? rows : depth}, lhs)
      .quantization = &lq;
  k.AddInput(TensorType::kInt8, {rhs_batch, adj_y ? cols : depth, adj_y ? depth : cols}, rhs)
      .quantization = &rq;
  k.AddOutput(TensorType::kInt8, {out_batch, rows, cols}).quantization = &oq;
  if (temporaries) {
    AddTransposeTemporaries(k, TensorType::kInt8, {lhs_batch, depth, rows}, TensorType::kInt8,
                            {rhs_batch, cols, depth});
  }
  RC_ASSERT(k.Run().ok());
  const QuantizedMultiplier m = QuantizeMultiplier(static_cast<double>(lq.scale[0] * rq.scale[0]) /
                                                   static_cast<double>(oq.scale[0]));
  const std::vector<int8_t> got = k.Output<int8_t>();
  for (int b = 0; b < out_batch; ++b) {
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        int32_t total = 0;
        for (int d = 0; d < depth; ++d) {
          total += (l(lhs_batched ? b : 0, r, d) - static_cast<int32_t>(lq.zero_point[0])) *
                   (rv(rhs_batched ? b : 0, d, c) - static_cast<int32_t>(rq.zero_point[0]));
        }
        const int32_t want = std::clamp(
            MultiplyByQuantizedMultiplier(total, m) + static_cast<int32_t>(oq.zero_point[0]), -128,
            127);
        RC_ASSERT(got[static_cast<size_t>((b * rows + r) * cols + c)] == want);
      }
    }
  }
}

}  // namespace
}  // namespace tfa::runtime
