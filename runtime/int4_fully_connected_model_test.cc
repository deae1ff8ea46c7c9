// FULLY_CONNECTED with constant per-channel INT4 weights end to end: the analyser plans the packed
// 4-bit kernel's temporaries, the kernel works in them, and the outputs follow the float product
// of the dequantized weights within the input's 8-bit quantization.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/interpreter.h"
#include "tests/support/tool_runner.h"

namespace tfa::runtime {
namespace {

constexpr int32_t kBatch = 2, kDepth = 64, kUnits = 8;

// Weights in [-7, 7] (no -8, which upstream's packing counts as +8).
int8_t Weight(int32_t unit, int32_t column) {
  return static_cast<int8_t>((unit * 5 + column * 3) % 15 - 7);
}

float Scale(int32_t unit) { return 0.01f * static_cast<float>(unit + 1); }

std::unique_ptr<Interpreter> Build() {
  ModelBuilder b("int4_fc");
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", TensorType::kFloat32, {kBatch, kDepth});
  std::vector<uint8_t> packed(static_cast<size_t>(kUnits * kDepth / 2), 0);
  for (int32_t u = 0; u < kUnits; ++u) {
    for (int32_t c = 0; c < kDepth; ++c) {
      const int32_t i = u * kDepth + c;
      packed[static_cast<size_t>(i / 2)] |=
          static_cast<uint8_t>((Weight(u, c) & 0xF) << (i % 2 == 0 ? 0 : 4));
    }
  }
  Quantization quantization;
  for (int32_t u = 0; u < kUnits; ++u) quantization.scale.push_back(Scale(u));
  quantization.zero_point.assign(kUnits, 0);
  const int32_t weights =
      b.AddConstant(0, "weights", TensorType::kInt4, {kUnits, kDepth}, packed, quantization);
  const int32_t output = b.AddTensor(0, "output", TensorType::kFloat32, {kBatch, kUnits});
  b.AddNode(0, "FULLY_CONNECTED", {input, weights}, {output}, OpOptions{}, 1);
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  SyntheticModel model = std::move(b).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  const std::string path =
      tfa::testing::WriteTempFile("int4_fc.tflite", std::string(bytes.begin(), bytes.end()));
  auto interpreter = Interpreter::Create(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(interpreter.ok()) << interpreter.status().message();
  return interpreter.ok() ? std::move(interpreter).value() : nullptr;
}

TEST(Int4FullyConnectedModelTest, PackedPathRunsInUpstreamsTemporaries) {
  auto run = Build();
  ASSERT_NE(run, nullptr);
  // input_quantized, scaling_factors, accumulators, input_offsets (the 5th is never sized).
  EXPECT_GE(run->execution_graph().nodes[0].temporaries.size(), 4u);
  RuntimeTensor& in = run->tensor(run->inputs()[0]);
  float* x = in.Data<float>();
  for (int64_t i = 0; i < in.NumElements(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.7f);
  ASSERT_TRUE(run->Invoke().ok());
  const float* got = run->tensor(run->outputs()[0]).Data<const float>();
  for (int32_t b = 0; b < kBatch; ++b) {
    for (int32_t u = 0; u < kUnits; ++u) {
      float want = 0, largest = 0;
      for (int32_t c = 0; c < kDepth; ++c) {
        want += x[b * kDepth + c] * static_cast<float>(Weight(u, c)) * Scale(u);
        largest += std::abs(static_cast<float>(Weight(u, c)) * Scale(u));
      }
      EXPECT_NEAR(got[b * kUnits + u], want, largest / 127) << b << " " << u;
    }
  }
  // The kernel wrote its temporaries, the highest of them at the arena's top.
  EXPECT_EQ(run->stats().arena_bytes_written, run->arena_plan().arena_size);
}

}  // namespace
}  // namespace tfa::runtime
