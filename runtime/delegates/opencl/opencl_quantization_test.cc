#include "runtime/delegates/opencl/opencl_quantization.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/delegates/opencl/op_kernels_source.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/divergence_finder.h"

namespace tfa::runtime {
namespace {

using testing::ExpectPredictionMatches;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;

Quantization PerTensor(float scale, int64_t zero_point) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

RuntimeTensor Tensor(TensorType type, std::vector<int32_t> shape, const Quantization* q, void* data,
                     bool constant) {
  RuntimeTensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.quantization = q;
  t.data = static_cast<uint8_t*>(data);
  t.is_constant = constant;
  return t;
}

TEST(OpenClQuantizationTest, TwinsNonConstantEightBitTensorsOnly) {
  const Quantization q = PerTensor(0.5f, 3);
  int8_t data[4] = {};
  EXPECT_TRUE(HasFloatTwin(Tensor(TensorType::kInt8, {2, 2}, &q, nullptr, false)));
  EXPECT_TRUE(HasFloatTwin(Tensor(TensorType::kUInt8, {2, 2}, &q, nullptr, false)));
  EXPECT_FALSE(HasFloatTwin(Tensor(TensorType::kInt8, {2, 2}, &q, data, true)));
  EXPECT_FALSE(HasFloatTwin(Tensor(TensorType::kInt16, {2, 2}, &q, nullptr, false)));
  EXPECT_FALSE(HasFloatTwin(Tensor(TensorType::kFloat32, {2, 2}, nullptr, nullptr, false)));
  const RuntimeTensor twin = FloatTwin(Tensor(TensorType::kInt8, {2, 3}, &q, data, false));
  EXPECT_EQ(twin.type, TensorType::kFloat32);
  EXPECT_EQ(twin.bytes, 24u);
  EXPECT_EQ(twin.quantization, &q);
  EXPECT_EQ(twin.data, nullptr);
}

TEST(OpenClQuantizationTest, DequantizesPerChannelWeightsAndInt32Biases) {
  Quantization weights_q;
  weights_q.scale = {0.5f, 0.25f};
  weights_q.zero_point = {0, 0};
  weights_q.quantized_dimension = 0;
  int8_t weights[6] = {2, -4, 6, 8, -12, 16};  // [2, 3]: channel 0, then channel 1
  auto w = DequantizeConstant(Tensor(TensorType::kInt8, {2, 3}, &weights_q, weights, true));
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(*w, (std::vector<float>{1, -2, 3, 2, -3, 4}));

  Quantization bias_q;
  bias_q.scale = {0.125f, 2.0f};
  bias_q.zero_point = {0, 0};
  int32_t bias[2] = {8, -3};
  auto b = DequantizeConstant(Tensor(TensorType::kInt32, {2}, &bias_q, bias, true));
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(*b, (std::vector<float>{1, -6}));

  // Upstream reads int16 constants as float only without quantization: it refuses these.
  int16_t shorts[2] = {1, 2};
  EXPECT_FALSE(IsQuantizedConstant(Tensor(TensorType::kInt16, {2}, &bias_q, shorts, true)));
  Quantization mismatched = weights_q;
  mismatched.quantized_dimension = 1;
  EXPECT_FALSE(
      DequantizeConstant(Tensor(TensorType::kInt8, {2, 3}, &mismatched, weights, true)).ok());
}

// Any dimension the interpreter accepts: upstream's PerChannelDequantize picks each element's
// scale by its index along the quantized dimension, inner dimensions varying fastest.
TEST(OpenClQuantizationTest, DequantizesPerChannelOnAnyDimension) {
  int8_t values[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [2, 3, 2]
  for (int32_t dimension = 0; dimension < 3; ++dimension) {
    const std::vector<int32_t> shape = {2, 3, 2};
    Quantization q;
    for (int32_t c = 0; c < shape[static_cast<size_t>(dimension)]; ++c) {
      q.scale.push_back(static_cast<float>(c + 1));
      q.zero_point.push_back(c);
    }
    q.quantized_dimension = dimension;
    auto got = DequantizeConstant(Tensor(TensorType::kInt8, shape, &q, values, true));
    ASSERT_TRUE(got.ok()) << got.status().message();
    for (int32_t i = 0; i < 12; ++i) {
      const int32_t index[3] = {i / 6, i / 2 % 3, i % 2};
      const int32_t c = index[dimension];
      EXPECT_EQ((*got)[static_cast<size_t>(i)], static_cast<float>((c + 1) * (values[i] - c)))
          << "dimension " << dimension << " element " << i;
    }
  }
}

TEST(OpenClQuantizationTest, BoundaryConversionsRoundHalvesAwayFromZeroAndClamp) {
  const Quantization q = PerTensor(0.5f, -1);
  int8_t values[6] = {};
  RuntimeTensor tensor = Tensor(TensorType::kInt8, {6}, &q, values, false);
  const float floats[6] = {0.25f, -0.25f, 0.75f, 1000.0f, -1000.0f, NAN};
  ASSERT_TRUE(QuantizeFromFloat(floats, tensor).ok());
  // round(x / 0.5) - 1: 0.5 -> 1, -0.5 -> -1, 1.5 -> 2; clamped; NaN at the zero point.
  EXPECT_EQ(std::vector<int>(values, values + 6), (std::vector<int>{0, -2, 1, 127, -128, -1}));
  float back[6] = {};
  ASSERT_TRUE(DequantizeToFloat(tensor, back).ok());
  EXPECT_EQ(std::vector<float>(back, back + 6),
            (std::vector<float>{0.5f, -0.5f, 1, 64, -63.5f, 0}));

  uint8_t bytes[2] = {0, 255};
  const Quantization uq = PerTensor(0.1f, 128);
  float unsigned_back[2] = {};
  ASSERT_TRUE(
      DequantizeToFloat(Tensor(TensorType::kUInt8, {2}, &uq, bytes, false), unsigned_back).ok());
  EXPECT_FLOAT_EQ(unsigned_back[0], -12.8f);
  EXPECT_FLOAT_EQ(unsigned_back[1], 12.7f);
}

TEST(OpenClQuantizationTest, FakeQuantRangeIsUpstreamsPopulateQuantParams) {
  const Quantization q = PerTensor(0.5f, 10);
  auto int8 =
      FakeQuantRangeOf(Tensor(TensorType::kInt8, {1}, &q, nullptr, false), ClPrecision::kF32);
  ASSERT_TRUE(int8.ok()) << int8.status().message();
  EXPECT_EQ(int8->min, 0.5f * (-128 - 10));
  EXPECT_EQ(int8->max, 0.5f * (127 - 10));
  EXPECT_EQ(int8->scale, 0.5f);
  auto uint8 =
      FakeQuantRangeOf(Tensor(TensorType::kUInt8, {1}, &q, nullptr, false), ClPrecision::kF32);
  ASSERT_TRUE(uint8.ok());
  EXPECT_EQ(uint8->min, -5.0f);
  EXPECT_EQ(uint8->max, 0.5f * 245);

  // fp16 storage raises a scale below fp16's smallest normal number.
  const Quantization tiny = PerTensor(1e-6f, 0);
  const RuntimeTensor t = Tensor(TensorType::kInt8, {1}, &tiny, nullptr, false);
  EXPECT_EQ(FakeQuantRangeOf(t, ClPrecision::kF32)->scale, 1e-6f);
  EXPECT_EQ(FakeQuantRangeOf(t, ClPrecision::kF32F16)->scale, 0.000062f);

  Quantization per_channel;
  per_channel.scale = {0.5f, 0.25f};
  per_channel.zero_point = {0, 0};
  auto refused = FakeQuantRangeOf(Tensor(TensorType::kInt8, {2}, &per_channel, nullptr, false),
                                  ClPrecision::kF32);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("per-channel"), std::string::npos);
}

// The OpenCL part: one delegate for the binary (PoCL builds the op program once).
OpenClDelegate* SharedDelegate() {
  static std::unique_ptr<Delegate> delegate = [] {
    auto created = CreateOpenClDelegate();
    return created.ok() ? std::move(*created) : nullptr;
  }();
  return static_cast<OpenClDelegate*>(delegate.get());
}

std::string NoOpenClReason() { return CreateOpenClDelegate().status().message(); }

// The largest difference between two runs' int8 outputs, in quantization steps.
int MaxSteps(Interpreter& a, Interpreter& b) {
  int worst = 0;
  for (int32_t t : a.outputs()) {
    const RuntimeTensor& x = a.tensor(t);
    const RuntimeTensor& y = b.tensor(t);
    EXPECT_EQ(x.type, TensorType::kInt8);
    for (int64_t i = 0; i < x.NumElements(); ++i)
      worst = std::max(worst, std::abs(x.Data<const int8_t>()[i] - y.Data<const int8_t>()[i]));
  }
  return worst;
}

// int8 image -> CONV_2D (per-channel int8 weights, int32 bias, RELU) -> int8: the quantized
// boundary both ways, through the float temporaries the analyser plans.
SyntheticModel QuantizedConvModel(bool float_io) {
  ModelBuilder b(float_io ? "quantized_conv_floatio" : "quantized_conv");
  b.AddSubgraph("main");
  const std::vector<int32_t> in_shape = {1, 6, 7, 4}, out_shape = {1, 6, 7, 5};
  const Quantization in_q = PerTensor(0.02f, 5), out_q = PerTensor(0.05f, -20);
  Quantization weights_q;
  std::vector<int8_t> weights(5 * 3 * 3 * 4);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
  Quantization bias_q;
  for (int c = 0; c < 5; ++c) {
    weights_q.scale.push_back(0.002f * static_cast<float>(c + 1));
    weights_q.zero_point.push_back(0);
    bias_q.scale.push_back(in_q.scale[0] * weights_q.scale.back());
    bias_q.zero_point.push_back(0);
  }
  const int32_t w =
      b.AddConstant(0, "w", TensorType::kInt8, {5, 3, 3, 4}, Int8Bytes(weights), weights_q);
  const int32_t bias = b.AddConstant(0, "bias", TensorType::kInt32, {5},
                                     Int32Bytes({100, -200, 300, -400, 500}), bias_q);
  const int32_t q_in = b.AddTensor(0, "q_in", TensorType::kInt8, in_shape, in_q);
  const int32_t q_out = b.AddTensor(0, "q_out", TensorType::kInt8, out_shape, out_q);
  OpOptions conv;
  conv.padding = Padding::kSame;
  conv.stride_h = conv.stride_w = 1;
  conv.fused_activation = Activation::kRelu;
  if (!float_io) {
    b.SetInputs(0, {q_in});
    b.AddNode(0, "CONV_2D", {q_in, w, bias}, {q_out}, conv, /*version=*/3);
    b.SetOutputs(0, {q_out});
    return std::move(b).Finish();
  }
  const int32_t in = b.AddTensor(0, "in", TensorType::kFloat32, in_shape);
  const int32_t out = b.AddTensor(0, "out", TensorType::kFloat32, out_shape);
  b.SetInputs(0, {in});
  b.AddNode(0, "QUANTIZE", {in}, {q_in}, {}, /*version=*/2);
  b.AddNode(0, "CONV_2D", {q_in, w, bias}, {q_out}, conv, /*version=*/3);
  b.AddNode(0, "DEQUANTIZE", {q_out}, {out}, {}, /*version=*/2);
  b.SetOutputs(0, {out});
  return std::move(b).Finish();
}

TEST(OpenClQuantizedRunTest, ConvConvertsItsQuantizedBoundaryOnTheHost) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  const SyntheticModel model = QuantizedConvModel(false);
  const std::string path =
      testing::WriteTempFile("quantized_conv.tflite", WriteTflite(model.model, model.data));
  auto created = CreateOpenClDelegate();
  ASSERT_TRUE(created.ok()) << created.status().message();
  auto* delegate = static_cast<OpenClDelegate*>(created->get());
  auto gpu = RunModel(path, {delegate});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  const auto measured = Measure(*gpu);
  EXPECT_EQ(measured.delegated_partitions, 1);
  // The arena holds the float twins of the int8 input and output as the delegate node's
  // temporaries; the boundary bytes are the int8 tensors'.
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}, true), measured);
  EXPECT_EQ(measured.copies.bytes_to_delegate, 6u * 7 * 4);
  EXPECT_EQ(measured.copies.bytes_from_delegate, 6u * 7 * 5);
  // What really crosses to the device is the float twins.
  ASSERT_EQ(delegate->transfers().size(), 1u);
  EXPECT_EQ(delegate->transfers()[0]->bytes_to_device, 4 * 6u * 7 * 4);
  EXPECT_EQ(delegate->transfers()[0]->bytes_from_device, 4 * 6u * 7 * 5);
  // Weights and biases dequantized once: 180 + 5 floats.
  EXPECT_EQ(delegate->transfers()[0]->init_upload_bytes, 4u * (180 + 5));
  // Float arithmetic against the integer kernel: one rounding apart at most.
  EXPECT_LE(MaxSteps(*gpu, *cpu), 1);
}

TEST(OpenClQuantizedRunTest, QuantizeAndDequantizeNodesAreFakeQuantRoundTrips) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  const SyntheticModel model = QuantizedConvModel(true);
  const std::string path =
      testing::WriteTempFile("quantized_conv_floatio.tflite", WriteTflite(model.model, model.data));
  auto gpu = RunModel(path, {SharedDelegate()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(gpu && cpu);
  const auto measured = Measure(*gpu);
  EXPECT_EQ(measured.delegated_partitions, 1);
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}, true), measured);
  // DEQUANTIZE's output lies on its input's grid, within a step of the CPU's.
  const RuntimeTensor& got = gpu->tensor(gpu->outputs()[0]);
  const RuntimeTensor& want = cpu->tensor(cpu->outputs()[0]);
  const float scale = 0.05f, min = scale * (-128 + 20);
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    const float g = got.Data<const float>()[i];
    const float steps = (g - min) / scale;
    EXPECT_NEAR(steps, std::round(steps), 1e-3) << "element " << i;
    EXPECT_NEAR(g, want.Data<const float>()[i], scale * 1.001f) << "element " << i;
  }
}

// The step tolerance still names a real fault: a conv that adds 0.2 to every sum on the device
// lands four steps (of 0.05) away from the integer kernel, and the node-by-node check says so in
// steps.
TEST(OpenClQuantizedRunTest, DivergenceNamesAPlantedBugInQuantizationSteps) {
  if (!SharedDelegate()) GTEST_SKIP() << NoOpenClReason();
  std::string source = kOpKernelsSource;
  const std::string bias =
      "if (has_bias) sum = accumulated(sum + bias[p.w]);\n  out[gid] = "
      "clamp_act(sum, lo, hi);\n}\n\n// weights [OC, KH, KW, C]";
  ASSERT_NE(source.find(bias), std::string::npos);
  source.replace(source.find(bias), bias.size(),
                 "if (has_bias) sum = accumulated(sum + bias[p.w] + 0.2f);\n  out[gid] = "
                 "clamp_act(sum, lo, hi);\n}\n\n// weights [OC, KH, KW, C]");
  auto planted = CreateOpenClDelegateFromSource({}, source);
  ASSERT_TRUE(planted.ok()) << planted.status().message();
  const SyntheticModel model = QuantizedConvModel(false);
  const std::string path =
      testing::WriteTempFile("quantized_conv_planted.tflite", WriteTflite(model.model, model.data));
  auto found = FindFirstDivergence(path, **planted, {.tolerance = 1e-3, .tolerance_steps = 1});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_TRUE(found->first.has_value());
  EXPECT_EQ(found->first->op, "CONV_2D");
  EXPECT_TRUE(found->first->in_steps);
  EXPECT_EQ(found->first->max_error, 4.0);
  EXPECT_EQ(found->first->max_error, found->first->max_abs_error);
}

}  // namespace
}  // namespace tfa::runtime
