// Hybrid (dynamic-range) CONV_2D end to end: the analyser plans upstream's temporaries for it, the
// kernel works in them, and the outputs follow the float convolution of the dequantized filter
// within the input's 8-bit quantization.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/interpreter.h"
#include "tests/support/tool_runner.h"

namespace tfa::runtime {
namespace {

struct ConvCase {
  std::string name;
  int32_t stride = 1;
  std::vector<float> scales;  // one: per tensor; three, not all equal: per channel
};

constexpr int32_t kIn = 5, kChannels = 2, kOut = 3, kWindow = 3;

std::vector<int8_t> FilterValues() {
  std::vector<int8_t> v(static_cast<size_t>(kOut * kWindow * kWindow * kChannels));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int8_t>((static_cast<int>(i) * 37) % 255 - 127);
  return v;
}

// The model with the int8 filter (hybrid) or with its dequantized float twin.
std::unique_ptr<Interpreter> Build(const ConvCase& c, bool hybrid) {
  ModelBuilder b(c.name);
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", TensorType::kFloat32, {1, kIn, kIn, kChannels});
  const std::vector<int8_t> q = FilterValues();
  int32_t filter = -1;
  if (hybrid) {
    Quantization quantization;
    quantization.scale = c.scales;
    quantization.zero_point.assign(c.scales.size(), 0);
    filter = b.AddConstant(0, "filter", TensorType::kInt8, {kOut, kWindow, kWindow, kChannels},
                           Int8Bytes(q), quantization);
  } else {
    std::vector<float> f(q.size());
    const size_t per_channel = q.size() / kOut;
    for (size_t i = 0; i < q.size(); ++i)
      f[i] = q[i] * c.scales[c.scales.size() == 1 ? 0 : i / per_channel];
    filter = b.AddConstant(0, "filter", TensorType::kFloat32, {kOut, kWindow, kWindow, kChannels},
                           FloatBytes(f));
  }
  const int32_t bias =
      b.AddConstant(0, "bias", TensorType::kFloat32, {kOut}, FloatBytes({0.5f, -0.25f, 0.0f}));
  const int32_t out_size = (kIn + c.stride - 1) / c.stride;
  const int32_t output =
      b.AddTensor(0, "output", TensorType::kFloat32, {1, out_size, out_size, kOut});
  OpOptions options;
  options.padding = Padding::kSame;
  options.stride_h = options.stride_w = c.stride;
  b.AddNode(0, "CONV_2D", {input, filter, bias}, {output}, options, hybrid ? 2 : 1);
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  SyntheticModel model = std::move(b).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  const std::string path =
      tfa::testing::WriteTempFile(c.name + (hybrid ? "_hybrid" : "_float") + ".tflite",
                                  std::string(bytes.begin(), bytes.end()));
  auto interpreter = Interpreter::Create(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  return interpreter.ok() ? std::move(interpreter).value() : nullptr;
}

std::vector<float> InvokeOnAWave(Interpreter& run) {
  RuntimeTensor& in = run.tensor(run.inputs()[0]);
  float* x = in.Data<float>();
  for (int64_t i = 0; i < in.NumElements(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.7f);
  EXPECT_TRUE(run.Invoke().ok());
  const RuntimeTensor& out = run.tensor(run.outputs()[0]);
  return std::vector<float>(out.Data<const float>(), out.Data<const float>() + out.NumElements());
}

TEST(HybridConvModelTest, RunsInUpstreamsTemporariesAndFollowsTheFloatConvolution) {
  for (const ConvCase& c : {ConvCase{"per_tensor_stride_2", 2, {0.01f}},
                            ConvCase{"per_channel_same", 1, {0.01f, 0.02f, 0.005f}}}) {
    auto hybrid = Build(c, true);
    auto reference = Build(c, false);
    ASSERT_NE(hybrid, nullptr);
    ASSERT_NE(reference, nullptr);
    const Node& conv = hybrid->execution_graph().nodes[0];
    // im2col, input_quantized, scaling_factors, accum_scratch (+ input_offsets, row_sums).
    EXPECT_EQ(conv.temporaries.size(), c.scales.size() == 1 ? 4u : 6u) << c.name;
    const std::vector<float> got = InvokeOnAWave(*hybrid);
    const std::vector<float> want = InvokeOnAWave(*reference);
    ASSERT_EQ(got.size(), want.size());
    float largest = 0;
    for (float v : want) largest = std::max(largest, std::abs(v));
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 0.02f * largest) << c.name << " element " << i;
    // The kernel wrote its temporaries, the highest of them at the arena's top.
    EXPECT_EQ(hybrid->stats().arena_bytes_written, hybrid->arena_plan().arena_size) << c.name;
  }
}

}  // namespace
}  // namespace tfa::runtime
