#include "runtime/kernels/cpu/reduce_generic.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::QuantizedRunner;

// upstream's reduce_test.cc data: 1..24 shaped {4, 3, 2}.
std::vector<float> OneToTwentyFour() {
  std::vector<float> v(24);
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

std::vector<float> RunFloatReduce(const char* op, const std::vector<int32_t>& axes, bool keep,
                                  std::vector<int32_t> out_shape) {
  KernelRunner k(op);
  k.options().keep_dims = keep;
  k.AddFloatInput({4, 3, 2}, OneToTwentyFour());
  k.AddInt32Input({static_cast<int32_t>(axes.size())}, axes).is_constant = true;
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << op << ": " << status.message();
  return k.Output();
}

// Figures of upstream's reduce_test.cc ConstFloat{Max,Min,Prod}OpTest.
TEST(ReduceGenericTest, MaxMinProdOfFloats) {
  EXPECT_EQ(RunFloatReduce("REDUCE_MAX", {1, 0, -3, -3}, false, {2}), (std::vector<float>{23, 24}));
  EXPECT_EQ(RunFloatReduce("REDUCE_MAX", {0, 2}, true, {1, 3, 1}),
            (std::vector<float>{20, 22, 24}));
  EXPECT_EQ(RunFloatReduce("REDUCE_MIN", {1, 0, -3, -3}, false, {2}), (std::vector<float>{1, 2}));
  EXPECT_EQ(RunFloatReduce("REDUCE_MIN", {0, 2}, true, {1, 3, 1}), (std::vector<float>{1, 3, 5}));
  const auto all = RunFloatReduce("REDUCE_PROD", {1, 0, -3, -3}, false, {2});
  EXPECT_FLOAT_EQ(all[0], 3.16234143225e+11f);
  EXPECT_FLOAT_EQ(all[1], 1.9619905536e+12f);
  const auto kept = RunFloatReduce("REDUCE_PROD", {0, 2}, true, {1, 3, 1});
  EXPECT_FLOAT_EQ(kept[0], 7.74592e+06f);
  EXPECT_FLOAT_EQ(kept[1], 1.197504e+08f);
  EXPECT_FLOAT_EQ(kept[2], 6.6889152e+08f);
}

// Upstream's ConstInt8MaxOpTest / ConstInt8MinOpTest: {0.4, 0.2, 0.3, 0.4, 0.5, 0.6} on
// [-1, 127/128] (scale 1/128, zero point 0) stores {51, 26, 38, 51, 64, 77}; over axis 1 of
// {1, 3, 2} the maxima are {0.5, 0.6} and the minima {0.3, 0.2}, as stored values.
TEST(ReduceGenericTest, Int8ExtremaCompareStoredValues) {
  for (const char* op : {"REDUCE_MAX", "REDUCE_MIN"}) {
    QuantizedRunner q(op);
    q.AddInput({TensorType::kInt8, {1, 3, 2}, {51, 26, 38, 51, 64, 77}, PerTensor(1 / 128.0f, 0)});
    q.runner().AddInt32Input({1}, {1}).is_constant = true;
    q.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1 / 128.0f, 0));
    ASSERT_TRUE(q.runner().Run().ok()) << op;
    EXPECT_EQ(q.Output(TensorType::kInt8), std::string(op) == "REDUCE_MAX"
                                               ? (std::vector<int32_t>{64, 77})
                                               : (std::vector<int32_t>{38, 26}));
  }
}

TEST(ReduceGenericTest, Int8NeedsTheOutputsQuantization) {
  QuantizedRunner q("REDUCE_MAX");
  q.AddInput({TensorType::kInt8, {2}, {1, 2}, PerTensor(0.5f, 0)});
  q.runner().AddInt32Input({1}, {0}).is_constant = true;
  q.AddOutput(TensorType::kInt8, {}, PerTensor(0.25f, 0));
  EXPECT_EQ(q.runner().Run().message(), "input and output must share scale and zero point");
}

// Figures of upstream's reduce_test.cc Const{Any,All}OpTest.
TEST(ReduceGenericTest, AnyAndAll) {
  const auto run = [](const char* op, const std::vector<uint8_t>& data,
                      const std::vector<int32_t>& axes, bool keep, std::vector<int32_t> shape) {
    KernelRunner k(op);
    k.options().keep_dims = keep;
    k.AddInput<uint8_t>(TensorType::kBool, {2, 3, 2}, data);
    k.AddInt32Input({static_cast<int32_t>(axes.size())}, axes).is_constant = true;
    k.AddOutput(TensorType::kBool, std::move(shape));
    EXPECT_TRUE(k.Run().ok()) << op;
    return k.Output<uint8_t>();
  };
  const std::vector<uint8_t> any_data = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(run("REDUCE_ANY", any_data, {1, 0, -3, -3}, false, {2}), (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(run("REDUCE_ANY", any_data, {0, 2}, true, {1, 3, 1}), (std::vector<uint8_t>{1, 0, 1}));
  const std::vector<uint8_t> all_data = {1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(run("REDUCE_ALL", all_data, {1, 0, -3, -3}, false, {2}), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(run("REDUCE_ALL", all_data, {0, 2}, true, {1, 3, 1}), (std::vector<uint8_t>{1, 1, 0}));
}

// Figures of upstream's reduce_test.cc EmptyInputButScalarOutput: the init values.
TEST(ReduceGenericTest, AnEmptyReductionGivesTheInitValue) {
  const auto run = [](const char* op) {
    KernelRunner k(op);
    k.AddInt32Input({0}, {});
    k.AddInt32Input({1}, {0}).is_constant = true;
    k.AddOutput(TensorType::kInt32, {});
    EXPECT_TRUE(k.Run().ok()) << op;
    return k.Output<int32_t>()[0];
  };
  EXPECT_EQ(run("REDUCE_MIN"), 2147483647);
  EXPECT_EQ(run("REDUCE_MAX"), -2147483647 - 1);
  EXPECT_EQ(run("REDUCE_PROD"), 1);
}

// The resolved axes go to temporary 1 and the normalized dims to temporary 3, as upstream's.
TEST(ReduceGenericTest, WritesItsTemporaries) {
  KernelRunner k("REDUCE_MAX");
  k.AddFloatInput({4, 3, 2}, OneToTwentyFour());
  k.AddInt32Input({3}, {2, 0, -3}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {3});
  k.AddTemporary(TensorType::kInt32, {3});
  RuntimeTensor& axes = k.AddTemporary(TensorType::kInt32, {3});
  k.AddTemporary(TensorType::kFloat32, {3});
  RuntimeTensor& dims = k.AddTemporary(TensorType::kInt32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{20, 22, 24}));
  EXPECT_EQ(std::vector<int32_t>(axes.Data<int32_t>(), axes.Data<int32_t>() + 2),
            (std::vector<int32_t>{2, 0}));
  EXPECT_EQ(std::vector<int32_t>(dims.Data<int32_t>(), dims.Data<int32_t>() + 3),
            (std::vector<int32_t>{4, 3, 2}));
}

// Upstream's reduce_test.cc ConstInt8ProdOpTest.NotKeepDimsLarge (facts copied): 1..24 over
// int8 [0, 24], the products of the odd and the even elements into int8 [0, 1.96e12], within
// upstream's tolerance of two output steps per reduced factor.
TEST(ReduceGenericTest, QuantizedInt8ProdUpstreamCase) {
  std::vector<float> data(24);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i + 1);
  const float in_scale = 24.0f / 255, out_scale = 1.9619905536e12f / 255;
  testing::QuantizedRunner r("REDUCE_PROD");
  r.AddInput({TensorType::kInt8,
              {4, 3, 2},
              testing::Quantize(data, in_scale, -128, TensorType::kInt8),
              testing::PerTensor(in_scale, -128)});
  r.runner().AddInt32Input({4}, {1, 0, -3, -3});
  r.AddOutput(TensorType::kInt8, {2}, testing::PerTensor(out_scale, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto real = testing::Dequantize(r.Output(TensorType::kInt8), out_scale, -128);
  EXPECT_NEAR(real[0], 3.162341376e11f, 12 * 2 * out_scale);
  EXPECT_NEAR(real[1], 1.9619905536e12f, 12 * 2 * out_scale);
}

}  // namespace
}  // namespace tfa::runtime
