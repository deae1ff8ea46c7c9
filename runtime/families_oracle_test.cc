// End to end on the model-family miniatures of the oracle (tests/oracle/families): transformers,
// an LLM decoder, LSTMs, RFFT2D, 3-D and transposed convolutions, 16x8 quantization, detection
// post-processing. The runtime's kernels must reproduce upstream's builtin kernels on the
// deterministic inputs: float outputs within 1e-4 of max(1, |upstream|), quantized outputs within
// one unit. Models whose token-id inputs upstream fills out of range run as their `__const_ids`
// twins.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>

#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using tfa::testing::OraclePath;
using tfa::testing::ReadJsonFile;

double ValueAt(const RuntimeTensor& tensor, size_t i) {
  switch (tensor.type) {
    case TensorType::kInt8:
      return tensor.Data<const int8_t>()[i];
    case TensorType::kInt16:
      return tensor.Data<const int16_t>()[i];
    case TensorType::kInt32:
      return tensor.Data<const int32_t>()[i];
    default:
      return tensor.Data<const float>()[i];
  }
}

// The largest difference from upstream's first values, in units of the tolerance: quantized
// outputs in stored units, float outputs relative to max(1, |upstream|) over 1e-4.
double WorstErrorInTolerances(Interpreter& run, const nlohmann::json& oracle) {
  double worst = 0;
  for (const auto& expected : oracle["output_tensors"]) {
    const RuntimeTensor& tensor = run.tensor(expected["tensor"].get<int32_t>());
    const auto values = expected["values"].get<std::vector<double>>();
    const size_t n = std::min(values.size(), static_cast<size_t>(tensor.NumElements()));
    EXPECT_EQ(n, values.size()) << "tensor " << expected["tensor"];
    const bool is_float = tensor.type == TensorType::kFloat32;
    for (size_t i = 0; i < n; ++i) {
      const double error = std::abs(ValueAt(tensor, i) - values[i]);
      worst = std::max(worst, is_float ? error / std::max(1.0, std::abs(values[i])) / 1e-4 : error);
    }
  }
  return worst;
}

class FamiliesOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FamiliesOracleTest, OutputsMatchUpstreamBuiltinKernels) {
  const std::string& name = GetParam();
  const auto oracle = ReadJsonFile(OraclePath("families/" + name + ".none.json"));
  ASSERT_FALSE(oracle["output_tensors"].empty()) << name;
  auto interpreter = Interpreter::Create(OraclePath("families/" + name + ".tflite"));
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  const double worst = WorstErrorInTolerances(run, oracle);
  std::cout << name << ": max error " << worst << " tolerances\n";
  EXPECT_LE(worst, 1.0) << name;
}

INSTANTIATE_TEST_SUITE_P(
    Families, FamiliesOracleTest,
    ::testing::Values("audio_rfft", "conv3d_small", "decoder_two_signatures__decode_const_ids",
                      "decoder_two_signatures__prefill_const_ids", "int16x8_convnet",
                      "int16x8_convnet__float_ref", "lstm_f32", "lstm_hybrid", "ssd_postprocess",
                      "transformer_encoder_f32__const_ids", "transformer_encoder_hybrid__const_ids",
                      "unet_transpose_conv"),
    [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfa::runtime
