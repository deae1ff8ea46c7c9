#include "runtime/delegates/opencl/opencl_delegate.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "corpus/generator/model_builder.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/delegates/testing/delegate_test_graphs.h"
#include "runtime/divergence_finder.h"
#include "runtime/model_data.h"
#include "tests/support/gpu_mutants.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using testing::Binary;
using testing::Constant;
using testing::Count;
using testing::ExpectPredictionMatches;
using testing::Float;
using testing::Ints;
using testing::MaxOutputError;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;
using testing::Unary;
using testing::Values;
using testing::Window;

// One delegate for the whole binary: PoCL builds the op program once (about a second).
OpenClDelegate* SharedDelegate() {
  static std::unique_ptr<Delegate> delegate = [] {
    auto created = CreateOpenClDelegate();
    return created.ok() ? std::move(*created) : nullptr;
  }();
  return static_cast<OpenClDelegate*>(delegate.get());
}

std::string NoOpenClReason() { return CreateOpenClDelegate().status().message(); }

// One small model per case: an input, the op under test, constants as needed.
struct OpCase {
  std::string name;
  std::function<void(ModelBuilder&, int32_t input)> build;  // adds nodes, sets outputs
  std::vector<int32_t> input_shape = {1, 6, 7, 4};
};

std::vector<OpCase> OpCases() {
  std::vector<OpCase> cases;
  cases.push_back({"conv_same_stride2_relu6", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {5, 3, 3, 4}, 1);
                     const int32_t bias = Constant(b, "bias", {5}, 2);
                     const int32_t out = Float(b, "out", {1, 3, 4, 5});
                     b.AddNode(0, "CONV_2D", {in, w, bias}, {out},
                               Window(Padding::kSame, 2, Activation::kRelu6));
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"conv_valid_1x1", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {3, 1, 1, 4}, 3);
                     const int32_t bias = Constant(b, "bias", {3}, 4);
                     const int32_t out = Float(b, "out", {1, 6, 7, 3});
                     b.AddNode(0, "CONV_2D", {in, w, bias}, {out}, Window(Padding::kValid, 1));
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"depthwise_multiplier2", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {1, 3, 3, 8}, 5);
                     const int32_t bias = Constant(b, "bias", {8}, 6);
                     const int32_t out = Float(b, "out", {1, 6, 7, 8});
                     OpOptions o = Window(Padding::kSame, 1, Activation::kRelu);
                     o.depth_multiplier = 2;
                     b.AddNode(0, "DEPTHWISE_CONV_2D", {in, w, bias}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back(
      {"transpose_conv_stride2", [](ModelBuilder& b, int32_t in) {
         const int32_t shape = Ints(b, "shape", {4}, {1, 12, 14, 3});
         const int32_t w = Constant(b, "w", {3, 3, 3, 4}, 8);
         const int32_t out = Float(b, "out", {1, 12, 14, 3});
         b.AddNode(0, "TRANSPOSE_CONV", {shape, w, in}, {out}, Window(Padding::kSame, 2));
         b.SetOutputs(0, {out});
       }});
  cases.push_back({"fully_connected", [](ModelBuilder& b, int32_t in) {
                     const int32_t shape = Ints(b, "shape", {2}, {1, 168});
                     const int32_t flat = Float(b, "flat", {1, 168});
                     b.AddNode(0, "RESHAPE", {in, shape}, {flat});
                     const int32_t w = Constant(b, "w", {10, 168}, 9);
                     const int32_t bias = Constant(b, "bias", {10}, 10);
                     const int32_t out = Float(b, "out", {1, 10});
                     b.AddNode(0, "FULLY_CONNECTED", {flat, w, bias}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"add_broadcast_relu", {Binary("ADD", {4}, Activation::kRelu)}});
  cases.push_back({"sub_broadcast_rows", {Binary("SUB", {1, 6, 1, 4})}});
  cases.push_back({"mul_same_shape", {Binary("MUL", {1, 6, 7, 4})}});
  cases.push_back({"maximum", {Binary("MAXIMUM", {4})}});
  cases.push_back({"prelu", {Binary("PRELU", {1, 1, 4})}});
  for (const char* op : {"RELU", "RELU6", "LOGISTIC", "TANH", "HARD_SWISH", "ELU"}) {
    cases.push_back({std::string("unary_") + op, Unary(op)});
  }
  cases.push_back({"average_pool_same", [](ModelBuilder& b, int32_t in) {
                     OpOptions o = Window(Padding::kSame, 2);
                     o.filter_h = o.filter_w = 3;
                     const int32_t out = Float(b, "out", {1, 3, 4, 4});
                     b.AddNode(0, "AVERAGE_POOL_2D", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"max_pool_valid", [](ModelBuilder& b, int32_t in) {
                     OpOptions o = Window(Padding::kValid, 2);
                     o.filter_h = o.filter_w = 2;
                     const int32_t out = Float(b, "out", {1, 3, 3, 4});
                     b.AddNode(0, "MAX_POOL_2D", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"concatenation_channels", [](ModelBuilder& b, int32_t in) {
                     const int32_t relu = Float(b, "relu", {1, 6, 7, 4});
                     b.AddNode(0, "RELU", {in}, {relu});
                     const int32_t other = Constant(b, "other", {1, 6, 7, 2}, 11);
                     const int32_t out = Float(b, "out", {1, 6, 7, 10});
                     OpOptions o;
                     o.axis = 3;
                     b.AddNode(0, "CONCATENATION", {in, other, relu}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"resize_bilinear_half_pixel", [](ModelBuilder& b, int32_t in) {
                     const int32_t size = Ints(b, "size", {2}, {12, 11});
                     const int32_t out = Float(b, "out", {1, 12, 11, 4});
                     OpOptions o;
                     o.half_pixel_centers = true;
                     b.AddNode(0, "RESIZE_BILINEAR", {in, size}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"resize_bilinear_align_corners", [](ModelBuilder& b, int32_t in) {
                     const int32_t size = Ints(b, "size", {2}, {11, 13});
                     const int32_t out = Float(b, "out", {1, 11, 13, 4});
                     OpOptions o;
                     o.align_corners = true;
                     b.AddNode(0, "RESIZE_BILINEAR", {in, size}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"resize_nearest", [](ModelBuilder& b, int32_t in) {
                     const int32_t size = Ints(b, "size", {2}, {12, 14});
                     const int32_t out = Float(b, "out", {1, 12, 14, 4});
                     b.AddNode(0, "RESIZE_NEAREST_NEIGHBOR", {in, size}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"pad", [](ModelBuilder& b, int32_t in) {
                     const int32_t paddings = Ints(b, "paddings", {4, 2}, {0, 0, 1, 2, 0, 1, 3, 0});
                     const int32_t out = Float(b, "out", {1, 9, 8, 7});
                     b.AddNode(0, "PAD", {in, paddings}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"mean_spatial", [](ModelBuilder& b, int32_t in) {
                     const int32_t axes = Ints(b, "axes", {2}, {1, 2});
                     const int32_t out = Float(b, "out", {1, 1, 1, 4});
                     OpOptions o;
                     o.keep_dims = true;
                     b.AddNode(0, "MEAN", {in, axes}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"softmax", [](ModelBuilder& b, int32_t in) {
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     OpOptions o;
                     o.beta = 1.0f;  // the GPU delegate takes SOFTMAX with beta 1 only
                     b.AddNode(0, "SOFTMAX", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"slice", [](ModelBuilder& b, int32_t in) {
                     const int32_t begin = Ints(b, "begin", {4}, {0, 1, 2, 1});
                     const int32_t size = Ints(b, "size", {4}, {1, 4, -1, 2});
                     const int32_t out = Float(b, "out", {1, 4, 5, 2});
                     b.AddNode(0, "SLICE", {in, begin, size}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"strided_slice_stride2", [](ModelBuilder& b, int32_t in) {
                     const int32_t begin = Ints(b, "begin", {4}, {0, 1, 0, 0});
                     const int32_t end = Ints(b, "end", {4}, {1, 6, 7, 4});
                     const int32_t strides = Ints(b, "strides", {4}, {1, 2, 3, 1});
                     const int32_t out = Float(b, "out", {1, 3, 3, 4});
                     b.AddNode(0, "STRIDED_SLICE", {in, begin, end, strides}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"transpose", [](ModelBuilder& b, int32_t in) {
                     const int32_t perm = Ints(b, "perm", {4}, {0, 2, 1, 3});
                     const int32_t out = Float(b, "out", {1, 7, 6, 4});
                     b.AddNode(0, "TRANSPOSE", {in, perm}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"mirror_pad_reflect", [](ModelBuilder& b, int32_t in) {
                     const int32_t paddings = Ints(b, "paddings", {4, 2}, {0, 0, 2, 1, 1, 2, 0, 0});
                     const int32_t out = Float(b, "out", {1, 9, 10, 4});
                     b.AddNode(0, "MIRROR_PAD", {in, paddings}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"sum_channels", [](ModelBuilder& b, int32_t in) {
                     const int32_t axes = Ints(b, "axes", {1}, {3});
                     const int32_t out = Float(b, "out", {1, 6, 7, 1});
                     OpOptions o;
                     o.keep_dims = true;
                     b.AddNode(0, "SUM", {in, axes}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"max_pool_argmax_then_unpool", [](ModelBuilder& b, int32_t in) {
                     // MediaPipe's custom pair, TfLitePoolParams: SAME, stride 2, 2x2, no
                     // activation.
                     const int32_t params[8] = {1, 2, 2, 2, 2, 0, -1, -1};
                     std::vector<uint8_t> options(sizeof(params));
                     std::memcpy(options.data(), params, sizeof(params));
                     const int32_t pooled = Float(b, "pooled", {1, 3, 4, 4});
                     const int32_t indices = Float(b, "indices", {1, 3, 4, 4});
                     b.AddCustomNode(0, "MaxPoolingWithArgmax2D", {in}, {pooled, indices}, options);
                     const int32_t out = Float(b, "out", {1, 6, 8, 4});
                     b.AddCustomNode(0, "MaxUnpooling2D", {pooled, indices}, {out}, options);
                     b.SetOutputs(0, {pooled, out});
                   }});
  cases.push_back({"fp16_weights_dequantized_at_prepare", [](ModelBuilder& b, int32_t in) {
                     const int32_t w16 = b.AddConstant(0, "w16", TensorType::kFloat16, {5, 3, 3, 4},
                                                       Float16Bytes(Values(180, 12)));
                     const int32_t w = Float(b, "w", {5, 3, 3, 4});
                     b.AddNode(0, "DEQUANTIZE", {w16}, {w});
                     const int32_t out = Float(b, "out", {1, 6, 7, 5});
                     b.AddNode(0, "CONV_2D", {in, w}, {out}, Window(Padding::kSame, 1));
                     b.SetOutputs(0, {out});
                   }});
  return cases;
}

class OpenClOpTest : public ::testing::TestWithParam<OpCase> {};

TEST_P(OpenClOpTest, MatchesTheCpuKernel) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  const OpCase& op = GetParam();
  ModelBuilder builder(op.name);
  builder.AddSubgraph("main");
  const int32_t input = Float(builder, "input", op.input_shape);
  builder.SetInputs(0, {input});
  op.build(builder, input);
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile(op.name + ".tflite", WriteTflite(model.model, model.data));
  auto gpu = RunModel(path, {SharedDelegate()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  const auto measured = Measure(*gpu);
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 1);
  EXPECT_LE(MaxOutputError(*gpu, *cpu), 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Ops, OpenClOpTest, ::testing::ValuesIn(OpCases()),
                         [](const auto& info) { return info.param.name; });

// Ops the runtime has no CPU kernel for: the expected outputs (all float32 outputs, in order,
// concatenated) are computed here from the [1, 6, 7, 4] input.
struct ReferenceCase {
  std::string name;
  std::function<void(ModelBuilder&, int32_t input)> build;
  std::function<std::vector<float>(const std::vector<float>& x)> expected;
};

// Element (h, w, c) of the [1, 6, 7, 4] input.
float At(const std::vector<float>& x, int h, int w, int c) {
  return x[static_cast<size_t>((h * 7 + w) * 4 + c)];
}

std::vector<float> Map(const std::vector<float>& x, float (*f)(float)) {
  std::vector<float> out;
  for (float v : x) out.push_back(f(v));
  return out;
}

std::vector<ReferenceCase> ReferenceCases() {
  std::vector<ReferenceCase> cases;
  cases.push_back({"cast_float_int_float",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t ten = Constant(b, "ten", {1}, 0);
                     const int32_t scaled = Float(b, "scaled", {1, 6, 7, 4});
                     b.AddNode(0, "MUL", {in, ten}, {scaled});
                     const int32_t ints = b.AddTensor(0, "ints", TensorType::kInt32, {1, 6, 7, 4});
                     b.AddNode(0, "CAST", {scaled}, {ints});
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     b.AddNode(0, "CAST", {ints}, {out});
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     const float ten = Values(1, 0)[0];
                     std::vector<float> out;
                     for (float v : x)
                       out.push_back(static_cast<float>(static_cast<int32_t>(v * ten)));
                     return out;
                   }});
  cases.push_back({"tile",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t multiples = Ints(b, "multiples", {4}, {1, 2, 1, 3});
                     const int32_t out = Float(b, "out", {1, 12, 7, 12});
                     b.AddNode(0, "TILE", {in, multiples}, {out});
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     std::vector<float> out;
                     for (int h = 0; h < 12; ++h)
                       for (int w = 0; w < 7; ++w)
                         for (int c = 0; c < 12; ++c) out.push_back(At(x, h % 6, w, c % 4));
                     return out;
                   }});
  cases.push_back({"add_n",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t relu = Float(b, "relu", {1, 6, 7, 4});
                     b.AddNode(0, "RELU", {in}, {relu});
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     b.AddNode(0, "ADD_N", {in, relu}, {out});  // the GPU delegate takes 2
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     return Map(x, [](float v) { return v + std::max(v, 0.0f); });
                   }});
  cases.push_back({"reduce_max_width",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t axes = Ints(b, "axes", {1}, {2});
                     const int32_t out = Float(b, "out", {1, 6, 1, 4});
                     OpOptions o;
                     o.keep_dims = true;
                     b.AddNode(0, "REDUCE_MAX", {in, axes}, {out}, o);
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     std::vector<float> out;
                     for (int h = 0; h < 6; ++h)
                       for (int c = 0; c < 4; ++c) {
                         float m = At(x, h, 0, c);
                         for (int w = 1; w < 7; ++w) m = std::max(m, At(x, h, w, c));
                         out.push_back(m);
                       }
                     return out;
                   }});
  cases.push_back({"batch_matmul",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t weights = Constant(b, "weights", {4, 3}, 5);
                     const int32_t out = Float(b, "out", {1, 6, 7, 3});
                     b.AddNode(0, "BATCH_MATMUL", {in, weights}, {out});
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     const std::vector<float> weights = Values(12, 5);
                     std::vector<float> out;
                     for (int h = 0; h < 6; ++h)
                       for (int w = 0; w < 7; ++w)
                         for (int n = 0; n < 3; ++n) {
                           float sum = 0;
                           for (int k = 0; k < 4; ++k)
                             sum += At(x, h, w, k) * weights[static_cast<size_t>(k * 3 + n)];
                           out.push_back(sum);
                         }
                     return out;
                   }});
  cases.push_back({"floor_mod",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t divisor =
                         b.AddConstant(0, "divisor", TensorType::kFloat32, {1}, FloatBytes({0.3f}));
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     b.AddNode(0, "FLOOR_MOD", {in, divisor}, {out});
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     return Map(x, [](float v) {
                       float r = std::fmod(v, 0.3f);
                       if (r != 0.0f && r < 0.0f) r += 0.3f;
                       return r;
                     });
                   }});
  // The GPU delegate takes a comparison only when a CAST or SELECT turns its one use into floats.
  cases.push_back({"compare_select_and_cast",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t zero =
                         b.AddConstant(0, "zero", TensorType::kFloat32, {1}, FloatBytes({0.0f}));
                     const int32_t half =
                         b.AddConstant(0, "half", TensorType::kFloat32, {1}, FloatBytes({0.5f}));
                     const std::vector<int32_t> shape = {1, 6, 7, 4};
                     const int32_t positive = b.AddTensor(0, "positive", TensorType::kBool, shape);
                     b.AddNode(0, "GREATER", {in, zero}, {positive});
                     const int32_t kept = Float(b, "kept", shape);
                     b.AddNode(0, "SELECT_V2", {positive, in, zero}, {kept});
                     const int32_t small = b.AddTensor(0, "small", TensorType::kBool, shape);
                     b.AddNode(0, "LESS", {in, half}, {small});
                     const int32_t flags = Float(b, "flags", shape);
                     b.AddNode(0, "CAST", {small}, {flags});
                     const int32_t relu = Float(b, "relu", shape);
                     b.AddNode(0, "RELU", {flags}, {relu});
                     b.SetOutputs(0, {kept, relu});
                   },
                   [](const std::vector<float>& x) {
                     std::vector<float> out = Map(x, [](float v) { return v > 0.0f ? v : 0.0f; });
                     for (float v : x) out.push_back(v < 0.5f ? 1.0f : 0.0f);
                     return out;
                   }});
  cases.push_back({"sign",
                   [](ModelBuilder& b, int32_t in) {
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     b.AddNode(0, "SIGN", {in}, {out});
                     b.SetOutputs(0, {out});
                   },
                   [](const std::vector<float>& x) {
                     return Map(x, [](float v) { return v > 0 ? 1.0f : (v < 0 ? -1.0f : 0.0f); });
                   }});
  return cases;
}

class OpenClReferenceOpTest : public ::testing::TestWithParam<ReferenceCase> {};

TEST_P(OpenClReferenceOpTest, MatchesTheReference) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  const ReferenceCase& op = GetParam();
  ModelBuilder builder(op.name);
  builder.AddSubgraph("main");
  const int32_t input = Float(builder, "input", {1, 6, 7, 4});
  builder.SetInputs(0, {input});
  op.build(builder, input);
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile(op.name + ".tflite", WriteTflite(model.model, model.data));
  auto gpu = RunModel(path, {SharedDelegate()});
  ASSERT_TRUE(gpu);
  const auto measured = Measure(*gpu);
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 1);
  const RuntimeTensor& in = gpu->tensor(input);
  const std::vector<float> x(in.Data<const float>(), in.Data<const float>() + in.NumElements());
  std::vector<float> got;
  for (int32_t t : gpu->outputs()) {
    const RuntimeTensor& out = gpu->tensor(t);
    got.insert(got.end(), out.Data<const float>(), out.Data<const float>() + out.NumElements());
  }
  const std::vector<float> want = op.expected(x);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(Ops, OpenClReferenceOpTest, ::testing::ValuesIn(ReferenceCases()),
                         [](const auto& info) { return info.param.name; });

TEST(OpenClDelegateTest, ListsAtLeastOneDevice) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  auto devices = ListOpenClDevices();
  ASSERT_TRUE(devices.ok()) << devices.status().message();
  ASSERT_FALSE(devices->empty());
  EXPECT_EQ((*devices)[0].platform_index, 0);
  EXPECT_FALSE((*devices)[0].device_name.empty());
  EXPECT_NE((*devices)[0].version.find("OpenCL"), std::string::npos);
}

TEST(OpenClDelegateTest, DeviceOutOfRangeIsAnError) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  auto delegate = CreateOpenClDelegate({{"platform", "0"}, {"device", "99"}});
  ASSERT_FALSE(delegate.ok());
  EXPECT_NE(delegate.status().message().find("has no device 99"), std::string::npos)
      << delegate.status().message();
  auto bad = CreateOpenClDelegate({{"device", "first"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'first'"), std::string::npos);
}

TEST(OpenClDelegateTest, ProgramIsBuiltOnceForAllKernels) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  for (const OpCase& op : OpCases()) {
    if (op.name != "softmax" && op.name != "pad") continue;
    ModelBuilder builder(op.name);
    builder.AddSubgraph("main");
    builder.AddSubgraph("main");
    const int32_t input = Float(builder, "input", op.input_shape);
    builder.SetInputs(0, {input});
    op.build(builder, input);
    SyntheticModel model = std::move(builder).Finish();
    ASSERT_TRUE(RunModel(
        testing::WriteTempFile("once_" + op.name + ".tflite", WriteTflite(model.model, model.data)),
        {SharedDelegate()}));
  }
  EXPECT_EQ(SharedDelegate()->program_builds(), 1);
}

// Upstream's GPU delegate builds its inference context once, at the kernel's init; a subgraph
// prepared again (a WHILE body on every iteration) keeps it. A Prepare with the shapes the kernel
// built for allocates and uploads nothing more; one after a resize builds again in place of the
// old, so the device memory is that of the new shapes, counted once.
TEST(OpenClDelegateTest, APartitionPreparedAgainKeepsWhatItBuilt) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  ModelBuilder builder("prepared_again");
  builder.AddSubgraph("main");
  const int32_t input = Float(builder, "input", {1, 6, 7, 4});
  builder.SetInputs(0, {input});
  Binary("ADD", {4})(builder, input);
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile("prepared_again.tflite", WriteTflite(model.model, model.data));
  auto data = ModelData::Open(path);
  ASSERT_TRUE(data.ok()) << data.status().message();
  Subgraph graph = model.model.subgraphs[0];
  std::vector<RuntimeTensor> tensors(graph.tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = graph.tensors[i];
    tensors[i].type = t.type;
    tensors[i].shape.assign(t.shape.begin(), t.shape.end());
    tensors[i].bytes = t.bytes_or_zero();
    tensors[i].is_constant = t.is_constant();
    if (t.is_constant()) {
      const auto bytes = (*data)->TensorData(0, static_cast<int32_t>(i));
      tensors[i].data = const_cast<uint8_t*>(bytes.data());
    }
  }
  const DelegatePartition partition{.subgraph = &graph,
                                    .nodes = {0},
                                    .inputs = {input},
                                    .outputs = {graph.outputs[0]},
                                    .tensors = &tensors,
                                    .model_data = data->get()};
  auto prepared = [&](OpenClDelegate& delegate) {
    auto kernel = delegate.CreateKernel(partition);
    EXPECT_TRUE(kernel.ok()) << kernel.status().message();
    return kernel.ok() ? std::move(*kernel) : std::unique_ptr<DelegateKernel>();
  };
  auto created = CreateOpenClDelegate();
  ASSERT_TRUE(created.ok());
  auto& delegate = static_cast<OpenClDelegate&>(**created);
  auto kernel = prepared(delegate);
  ASSERT_TRUE(kernel);
  KernelContext context;
  ASSERT_TRUE(kernel->Prepare(context).ok());
  const DeviceTransfers once = *delegate.transfers().back();
  EXPECT_EQ(once.staging_bytes, 2u * 6 * 7 * 4 * 4);
  ASSERT_TRUE(kernel->Prepare(context).ok());
  const DeviceTransfers& again = *delegate.transfers().back();
  EXPECT_EQ(again.shared_tensor_bytes, once.shared_tensor_bytes);
  EXPECT_EQ(again.staging_bytes, once.staging_bytes);
  EXPECT_EQ(again.constant_bytes, once.constant_bytes);
  EXPECT_EQ(again.init_upload_bytes, once.init_upload_bytes);

  // Resized to half the rows: the counts are those of a kernel built for them from the start.
  for (int32_t t : {input, graph.outputs[0]}) {
    graph.tensors[static_cast<size_t>(t)].shape = {1, 3, 7, 4};
    graph.tensors[static_cast<size_t>(t)].bytes = 3 * 7 * 4 * 4;
    tensors[static_cast<size_t>(t)].shape = {1, 3, 7, 4};
    tensors[static_cast<size_t>(t)].bytes = 3 * 7 * 4 * 4;
  }
  ASSERT_TRUE(kernel->Prepare(context).ok());
  auto fresh = prepared(delegate);
  ASSERT_TRUE(fresh);
  ASSERT_TRUE(fresh->Prepare(context).ok());
  const DeviceTransfers& resized = *delegate.transfers()[0];
  const DeviceTransfers& built = *delegate.transfers()[1];
  EXPECT_EQ(resized.staging_bytes, 2u * 3 * 7 * 4 * 4);
  EXPECT_EQ(resized.shared_tensor_bytes, built.shared_tensor_bytes);
  EXPECT_EQ(resized.staging_bytes, built.staging_bytes);
  EXPECT_EQ(resized.constant_bytes, built.constant_bytes);
  EXPECT_EQ(resized.init_upload_bytes, built.init_upload_bytes);
}

// The segmentation head of the pose landmark models, where the delegate once differed from the
// CPU by up to 0.73: bilinear upsampling by 2 (version 3, half-pixel centers) into chains of ADD
// with skip inputs, then 3x3 convolutions at 256x256x8.
TEST(OpenClSegmentationHeadTest, MatchesTheCpuRun) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  ModelBuilder b("segmentation_head");
  b.AddSubgraph("main");
  const int32_t features = Float(b, "features", {1, 32, 32, 16});
  const int32_t skip64 = Float(b, "skip64", {1, 64, 64, 8});
  const int32_t skip128 = Float(b, "skip128", {1, 128, 128, 8});
  b.SetInputs(0, {features, skip64, skip128});
  OpOptions half_pixel;
  half_pixel.half_pixel_centers = true;
  const auto upsample = [&](int32_t in, int32_t size, const std::string& name) {
    const int32_t out = Float(b, name, {1, size, size, 8});
    b.AddNode(0, "RESIZE_BILINEAR", {in, Ints(b, name + "_size", {2}, {size, size})}, {out},
              half_pixel, /*version=*/3);
    return out;
  };
  const auto add = [&](int32_t x, int32_t y, const std::string& name, int32_t size,
                       Activation activation = Activation::kNone) {
    const int32_t out = Float(b, name, {1, size, size, 8});
    OpOptions o;
    o.fused_activation = activation;
    b.AddNode(0, "ADD", {x, y}, {out}, o, /*version=*/1);
    return out;
  };
  const auto conv3x3 = [&](int32_t in, int32_t out_channels, int32_t in_channels, uint32_t seed,
                           const std::string& name, Activation activation) {
    const int32_t w = Constant(b, name + "_w", {out_channels, 3, 3, in_channels}, seed);
    const int32_t bias = Constant(b, name + "_b", {out_channels}, seed + 1);
    const int32_t out = Float(b, name, {1, 256, 256, out_channels});
    b.AddNode(0, "CONV_2D", {in, w, bias}, {out}, Window(Padding::kSame, 1, activation));
    return out;
  };
  const int32_t w1 = Constant(b, "reduce_w", {8, 1, 1, 16}, 20);
  const int32_t reduced = Float(b, "reduced", {1, 32, 32, 8});
  b.AddNode(0, "CONV_2D", {features, w1}, {reduced}, Window(Padding::kSame, 1));
  const int32_t up64 = upsample(reduced, 64, "up64");
  const int32_t sum64 = add(up64, skip64, "sum64", 64, Activation::kRelu);
  const int32_t up128 = upsample(sum64, 128, "up128");
  const int32_t sum128 = add(add(up128, skip128, "sum128", 128), up128, "sum128b", 128);
  const int32_t up256 = upsample(sum128, 256, "up256");
  const int32_t refined = conv3x3(up256, 8, 8, 30, "refined", Activation::kRelu);
  const int32_t residual = add(refined, up256, "residual", 256);
  const int32_t segmentation = conv3x3(residual, 1, 8, 40, "segmentation", Activation::kNone);
  b.SetOutputs(0, {segmentation});
  SyntheticModel model = std::move(b).Finish();
  const std::string path =
      testing::WriteTempFile("segmentation_head.tflite", WriteTflite(model.model, model.data));
  auto gpu = RunModel(path, {SharedDelegate()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  EXPECT_EQ(Measure(*gpu).delegated_partitions, 1);
  EXPECT_LE(MaxOutputError(*gpu, *cpu), 1e-4);
  // Node by node too: every resize, add and convolution of the head on its own.
  auto found = FindFirstDivergence(path, *SharedDelegate(), {.tolerance = 1e-4});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->nodes.size(), 10u);
  EXPECT_FALSE(found->first.has_value()) << found->first->node << " " << found->first->op;
}

// The head's output convolution (3x3, 8 -> 1 at 256x256, SAME, fp16 weights and bias through
// DEQUANTIZE) adds its bias after the window sum, as upstream's conv kernels do
// (tflite/delegates/gpu/common/tasks/conv_generic.cc, depthwise_conv.cc) and the CPU kernels do.
// Starting the sum at the bias rounds every partial sum at the bias's magnitude; on the pose
// models that doubled the GPU's distance from an exact (double) run of the head. Here the taps are
// integers times multiples of 1/1024, so every window sum is exact and only the final bias
// addition rounds: bias last gives the CPU's bits exactly, bias first does not.
TEST(OpenClSegmentationHeadTest, AddsTheBiasAfterTheWindowSum) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  ModelBuilder b("segmentation_output_conv");
  b.AddSubgraph("main");
  const int32_t input = Float(b, "input", {1, 256, 256, 8});
  b.SetInputs(0, {input});
  const int32_t scaled = Float(b, "scaled", {1, 256, 256, 8});
  b.AddNode(0, "MUL",
            {input, b.AddConstant(0, "eight", TensorType::kFloat32, {1}, FloatBytes({8.0f}))},
            {scaled});
  const int32_t ints = b.AddTensor(0, "ints", TensorType::kInt32, {1, 256, 256, 8});
  b.AddNode(0, "CAST", {scaled}, {ints});
  const int32_t levels = Float(b, "levels", {1, 256, 256, 8});  // integers in [-7, 7]
  b.AddNode(0, "CAST", {ints}, {levels});
  std::vector<float> taps;
  for (float v : Values(72, 50)) taps.push_back(std::round(v * 2000.0f) / 1024.0f);
  const auto dequantized = [&](const std::string& name, std::vector<int32_t> shape,
                               const std::vector<float>& values) {
    const int32_t half =
        b.AddConstant(0, name + "_fp16", TensorType::kFloat16, shape, Float16Bytes(values));
    const int32_t out = Float(b, name, std::move(shape));
    b.AddNode(0, "DEQUANTIZE", {half}, {out}, {}, /*version=*/2);
    return out;
  };
  const int32_t w = dequantized("w", {1, 3, 3, 8}, taps);
  const int32_t bias = dequantized("bias", {1}, {40000.0f});  // float32 spacing 1/256 there
  const int32_t out = Float(b, "segmentation", {1, 256, 256, 1});
  b.AddNode(0, "CONV_2D", {levels, w, bias}, {out}, Window(Padding::kSame, 1));
  b.SetOutputs(0, {out});
  SyntheticModel model = std::move(b).Finish();
  const std::string path = testing::WriteTempFile("segmentation_output_conv.tflite",
                                                  WriteTflite(model.model, model.data));
  auto gpu = RunModel(path, {SharedDelegate()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  EXPECT_EQ(Measure(*gpu).delegated_partitions, 1);
  const RuntimeTensor& got = gpu->tensor(out);
  const RuntimeTensor& want = cpu->tensor(out);
  int64_t differing = 0;
  for (int64_t i = 0; i < want.NumElements(); ++i)
    differing += got.Data<const float>()[i] != want.Data<const float>()[i];
  EXPECT_EQ(differing, 0);
}

// A chain CONV_2D -> ADD -> MUL -> ADD, all delegated; returns the model's path.
std::string ChainModel(int32_t* mul_node, int32_t* mul_output) {
  ModelBuilder b("chain");
  b.AddSubgraph("main");
  const int32_t input = Float(b, "input", {1, 6, 7, 4});
  b.SetInputs(0, {input});
  const int32_t w = Constant(b, "w", {4, 3, 3, 4}, 1);
  const int32_t conv = Float(b, "conv", {1, 6, 7, 4});
  b.AddNode(0, "CONV_2D", {input, w}, {conv}, Window(Padding::kSame, 1, Activation::kRelu));
  const int32_t sum = Float(b, "sum", {1, 6, 7, 4});
  b.AddNode(0, "ADD", {conv, Constant(b, "bias", {4}, 2)}, {sum});
  *mul_output = Float(b, "scaled", {1, 6, 7, 4});
  *mul_node = b.AddNode(0, "MUL", {sum, Constant(b, "scale", {4}, 3)}, {*mul_output});
  const int32_t out = Float(b, "out", {1, 6, 7, 4});
  b.AddNode(0, "ADD", {*mul_output, input}, {out});
  b.SetOutputs(0, {out});
  SyntheticModel model = std::move(b).Finish();
  return testing::WriteTempFile("chain.tflite", WriteTflite(model.model, model.data));
}

TEST(OpenClDivergenceTest, HealthyKernelsStayWithinTheTolerance) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  int32_t mul_node = 0, mul_output = 0;
  const std::string path = ChainModel(&mul_node, &mul_output);
  auto found = FindFirstDivergence(path, *SharedDelegate(), {.tolerance = 1e-4});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_FALSE(found->first.has_value());
  EXPECT_EQ(found->nodes.size(), 4u);
  EXPECT_EQ(found->runs, 2);  // a chain: every other node in one run
}

// A bug planted in the MUL kernel (one element off by 0.5) is named: the node, its op, its
// output tensor and the error, though ADD runs the same `binary` kernel.
TEST(OpenClDivergenceTest, NamesTheNodeOfAPlantedKernelBug) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  std::string source = kOpKernelsSource;
  const std::string mul = "case 2: r = x * y; break;";
  ASSERT_NE(source.find(mul), std::string::npos);
  source.replace(source.find(mul), mul.size(),
                 "case 2: r = x * y + (gid == 5 ? 0.5f : 0.0f); break;");
  auto planted = CreateOpenClDelegateFromSource({}, source);
  ASSERT_TRUE(planted.ok()) << planted.status().message();
  int32_t mul_node = 0, mul_output = 0;
  const std::string path = ChainModel(&mul_node, &mul_output);
  auto found = FindFirstDivergence(path, **planted, {.tolerance = 1e-3});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_TRUE(found->first.has_value());
  EXPECT_EQ(found->first->node, mul_node);
  EXPECT_EQ(found->first->op, "MUL");
  EXPECT_EQ(found->first->tensor, mul_output);
  EXPECT_EQ(found->first->tensor_name, "scaled");
  EXPECT_NEAR(found->first->max_abs_error, 0.5, 1e-3);
  // The ADD after it reads the CPU's MUL output: its own error stays small.
  EXPECT_LT(found->nodes.back().max_error, 1e-4);
}

// A delegated node two steps downstream of another, through a CPU node that amplifies: MUL by 0
// (planted 2e-4 off on the device, within the tolerance) -> CEIL (the gpu profile rejects it) ->
// ADD. Both delegated nodes land in one batch; fed what the CPU computed from the device's MUL,
// the ADD would read CEIL(2e-4) = 1 for 0 and be named, though its kernel is right.
TEST(OpenClDivergenceTest, NodesReadTheCpuRunsInputsThroughCpuNodes) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  std::string source = kOpKernelsSource;
  const std::string mul = "case 2: r = x * y; break;";
  ASSERT_NE(source.find(mul), std::string::npos);
  source.replace(source.find(mul), mul.size(), "case 2: r = x * y + 2e-4f; break;");
  auto planted = CreateOpenClDelegateFromSource({{"max_delegated_partitions", "2"}}, source);
  ASSERT_TRUE(planted.ok()) << planted.status().message();
  ModelBuilder b("amplified");
  b.AddSubgraph("main");
  const int32_t input = Float(b, "input", {1, 6, 7, 4});
  b.SetInputs(0, {input});
  const int32_t zeros =
      b.AddConstant(0, "zeros", TensorType::kFloat32, {4}, FloatBytes(std::vector<float>(4, 0.0f)));
  const int32_t scaled = Float(b, "scaled", {1, 6, 7, 4});
  const int32_t mul_node = b.AddNode(0, "MUL", {input, zeros}, {scaled});
  const int32_t ceiled = Float(b, "ceiled", {1, 6, 7, 4});
  b.AddNode(0, "CEIL", {scaled}, {ceiled});
  const int32_t out = Float(b, "out", {1, 6, 7, 4});
  const int32_t add_node = b.AddNode(0, "ADD", {ceiled, input}, {out});
  b.SetOutputs(0, {out});
  SyntheticModel model = std::move(b).Finish();
  const std::string path =
      testing::WriteTempFile("amplified.tflite", WriteTflite(model.model, model.data));
  auto found = FindFirstDivergence(path, **planted, {.tolerance = 1e-3});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->runs, 1);
  ASSERT_EQ(found->nodes.size(), 2u);
  EXPECT_EQ(found->nodes[0].node, mul_node);
  EXPECT_NEAR(found->nodes[0].max_abs_error, 2e-4, 1e-6);
  EXPECT_EQ(found->nodes[1].node, add_node);
  EXPECT_LT(found->nodes[1].max_error, 1e-6);
  EXPECT_FALSE(found->first.has_value()) << found->first->node << " " << found->first->op;
}

TEST(OpenClPrecisionDelegateTest, PrecisionLossFallsBackToFloat32WithoutFp16) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  auto created = CreateOpenClDelegate({{"is_precision_loss_allowed", "1"}});
  ASSERT_TRUE(created.ok()) << created.status().message();
  const auto* delegate = static_cast<const OpenClDelegate*>(created->get());
  EXPECT_EQ(delegate->precision(),
            delegate->device_info().supports_fp16 ? ClPrecision::kF16 : ClPrecision::kF32);
  EXPECT_EQ(SharedDelegate()->precision(), ClPrecision::kF32);
  auto bad = CreateOpenClDelegate({{"inference_priority1", "FASTEST"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'FASTEST'"), std::string::npos);
}

// The fp16 kernels (what an fp16 GPU runs at F32_F16 and F16) on any device: the outputs move
// away from the CPU's by fp16 rounding, and stay within the tolerance `run --validate` allows.
TEST(OpenClPrecisionDelegateTest, Fp16KernelsStayWithinTheWidenedTolerance) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  int32_t mul_node = 0, mul_output = 0;
  const std::string path = ChainModel(&mul_node, &mul_output);
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(cpu);
  for (ClPrecision precision : {ClPrecision::kF32F16, ClPrecision::kF16}) {
    SCOPED_TRACE(ClPrecisionName(precision));
    auto profile = ResolveDelegateProfile("gpu");
    ASSERT_TRUE(profile.ok());
    auto device = OpenClDevice::Open(0, 0);
    ASSERT_TRUE(device.ok());
    OpenClDelegate delegate(std::move(profile).value(), std::move(*device), precision);
    auto gpu = RunModel(path, {&delegate});
    ASSERT_TRUE(gpu);
    const double error = MaxOutputError(*gpu, *cpu);
    EXPECT_GT(error, 1e-5);
    EXPECT_LE(error, Fp16ValidationTolerance(precision));
  }
}

// The GPU mutants: the delegate takes only part of each model (fp16 DEQUANTIZE nodes left on the
// CPU, inputs rewired to fp16 constants). Every mutant the runtime's CPU kernels can run is
// created with the default, --max-partitions 3 and unlimited settings: the partitions, their
// boundary tensors, the bytes uploaded once and both arenas equal the analyser's prediction.
// Outputs are compared on the small ones only (PoCL runs the kernels on the CPU).
class OpenClMutantTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    mutants_ = std::make_unique<tfa::testing::RebuiltGpuMutants>("gpu_mutants");
  }
  static void TearDownTestSuite() { mutants_.reset(); }
  static const std::map<std::string, std::string>& paths() { return mutants_->paths(); }

  static std::unique_ptr<tfa::testing::RebuiltGpuMutants> mutants_;
};

std::unique_ptr<tfa::testing::RebuiltGpuMutants> OpenClMutantTest::mutants_;

// upstream's max_delegated_partitions of the oracle's configs: default, gpu-max3, gpu-unlimited.
const std::vector<std::optional<int32_t>>& MaxPartitionSettings() {
  static const std::vector<std::optional<int32_t>> kSettings = {
      std::nullopt, 3, std::numeric_limits<int32_t>::max()};
  return kSettings;
}

std::unique_ptr<Delegate> MutantDelegate(std::optional<int32_t> max_partitions) {
  DelegateOptions options;
  if (max_partitions)
    options.emplace_back("max_delegated_partitions", std::to_string(*max_partitions));
  auto created = CreateOpenClDelegate(options);
  EXPECT_TRUE(created.ok()) << created.status().message();
  return created.ok() ? std::move(*created) : nullptr;
}

// The mutants whose every CPU node has a CPU kernel in the runtime: all but hlf_custom_early
// (an unknown custom op).
const std::vector<std::string>& RunnableMutants() {
  static const std::vector<std::string> kNames = {
      "fds_mirrorpad_x3",  "fds_version_concat_pool", "fdf_version_resize_pool",
      "fl_bcast_x3",       "hlf_dwmult_x4",           "ss_version_avgpool_x2",
      "fdsp_signbit_x5",   "fla_signbit_x2",          "hll_signbit_conv_mid",
      "pdf_signbit_x2",    "ss_signbit_mul_x3",       "fdf_int16_x3",
      "hll_int16_x2",      "pdl_ceil_round_x3",       "ssl_swap_logistic_x2",
      "pdf_int32chain_mid"};
  return kNames;
}

TEST_F(OpenClMutantTest, PartitionsBoundariesAndArenasAsPredicted) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  EXPECT_EQ(paths().size(), 17u);
  for (const std::string& name : RunnableMutants()) {
    for (const std::optional<int32_t>& max_partitions : MaxPartitionSettings()) {
      SCOPED_TRACE(name + " max_partitions " +
                   (max_partitions ? std::to_string(*max_partitions) : std::string("default")));
      auto delegate = MutantDelegate(max_partitions);
      ASSERT_TRUE(delegate);
      InterpreterOptions options;
      options.delegates = {delegate.get()};
      auto interpreter = Interpreter::Create(paths().at(name), options);
      ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
      const auto predicted =
          PredictDelegation(paths().at(name), {{"gpu", max_partitions}}, /*plan_arena=*/true);
      const auto measured = Measure(**interpreter);
      EXPECT_GT(measured.delegated_partitions, 0);
      ExpectPredictionMatches(predicted, measured, /*invoked=*/false);
    }
  }
}

TEST_F(OpenClMutantTest, SmallMutantsRunAsPredicted) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  for (const char* name : {"fds_version_concat_pool", "fds_mirrorpad_x3", "ss_signbit_mul_x3"}) {
    SCOPED_TRACE(name);
    auto delegate = MutantDelegate(3);
    ASSERT_TRUE(delegate);
    auto gpu = RunModel(paths().at(name), {delegate.get()});
    auto cpu = RunModel(paths().at(name), {});
    ASSERT_TRUE(gpu && cpu);
    const auto measured = Measure(*gpu);
    EXPECT_GT(measured.delegated_partitions, 1);
    ExpectPredictionMatches(PredictDelegation(paths().at(name), {{"gpu", 3}}, true), measured);
    EXPECT_LE(MaxOutputError(*gpu, *cpu), 1e-3);
  }
}

// End to end on corpus models (the sparse one through DENSIFY folded at Prepare; the one with
// attention delegated in part, its custom ops on the CPU and delegated nodes rewired to fp16
// constants): the partitioning and boundary bytes the analyser predicts, the bytes the kernel
// really moved, and outputs within 1e-3 of the CPU run.
class OpenClCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OpenClCorpusTest, RunsAsPredicted) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  const std::string path = tfa::testing::CorpusModelPath(GetParam());
  auto created = CreateOpenClDelegate();
  ASSERT_TRUE(created.ok()) << created.status().message();
  auto* delegate = static_cast<OpenClDelegate*>(created->get());
  auto gpu = RunModel(path, {delegate});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  const auto measured = Measure(*gpu);
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}), measured);
  ASSERT_EQ(delegate->transfers().size(), static_cast<size_t>(measured.delegated_partitions));
  uint64_t to_device = 0, from_device = 0;
  for (const auto& transfers : delegate->transfers()) {
    to_device += transfers->bytes_to_device;
    from_device += transfers->bytes_from_device;
  }
  EXPECT_EQ(to_device, measured.copies.bytes_to_delegate);
  EXPECT_EQ(from_device, measured.copies.bytes_from_delegate);
  const double error = MaxOutputError(*gpu, *cpu);
  EXPECT_LE(error, 1e-3);

  // Latency after the first run (PoCL compiles lazily on first launch).
  auto time_invoke = [](Interpreter& run) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(run.Invoke().ok());
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  const double gpu_ms = time_invoke(*gpu), cpu_ms = time_invoke(*cpu);
  std::cout << GetParam() << ": partitions " << measured.delegated_partitions << ", to device "
            << to_device << " B, from device " << from_device << " B, max error " << error
            << ", CPU " << cpu_ms << " ms, OpenCL " << gpu_ms << " ms on "
            << delegate->device_info().device_name << "\n";
}

// Every corpus model. Under AddressSanitizer (CI's second stage) the CPU reference runs are
// tens of times slower, so that stage keeps four models that cover the delegate's paths (whole
// model, DENSIFY folded at Prepare, partial fp16 delegation, transposed convolutions); the
// release stage runs them all.
std::vector<std::string> OpenClCorpusModels() {
#if defined(__SANITIZE_ADDRESS__)
  return {"face_detection__face_detection_short_range",
          "face_detection__face_detection_full_range_sparse",
          "face_mesh__face_landmark_with_attention", "selfie_segmentation__selfie_segmentation"};
#else
  return tfa::testing::CorpusModelNames();
#endif
}

INSTANTIATE_TEST_SUITE_P(Corpus, OpenClCorpusTest, ::testing::ValuesIn(OpenClCorpusModels()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfa::runtime
