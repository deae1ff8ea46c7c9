#include "cli/run_reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::cli {
namespace {

runtime::RuntimeTensor Int8(std::vector<int8_t>& values, const Quantization& q) {
  runtime::RuntimeTensor t;
  t.type = TensorType::kInt8;
  t.shape = {static_cast<int32_t>(values.size())};
  t.bytes = values.size();
  t.data = reinterpret_cast<uint8_t*>(values.data());
  t.quantization = &q;
  return t;
}

runtime::RuntimeTensor Floats(std::vector<float>& values) {
  return runtime::testing::FloatView(values);
}

TEST(RunReference, QuantizedValuesMeetTheFloatModelInRealValues) {
  const Quantization q{.scale = {0.5f}, .zero_point = {-3}};
  std::vector<int8_t> stored = {-3, -1, 127, -128};
  auto real = RealValues(Int8(stored, q), "x");
  ASSERT_TRUE(real.ok()) << real.status().message();
  EXPECT_EQ(*real, (std::vector<double>{0.0, 1.0, 65.0, -62.5}));
  // Written back as QUANTIZE writes: rounded to nearest, clamped to the type.
  std::vector<int8_t> back(4);
  auto tensor = Int8(back, q);
  ASSERT_TRUE(WriteRealValues({0.0, 1.2, 1000.0, -1000.0}, tensor, "x").ok());
  EXPECT_EQ(back, (std::vector<int8_t>{-3, -1, 127, -128}));
}

TEST(RunReference, AQuantizedOutputIsHeldToStepsOfItsOwnScale) {
  const Quantization q{.scale = {0.5f}, .zero_point = {0}};
  std::vector<int8_t> stored = {2, 4};
  const runtime::RuntimeTensor got = Int8(stored, q);
  const std::vector<double> got_real = {1.0, 2.0};
  const OutputComparison near = CompareWithReference(got, got_real, {1.4, 2.0}, 5, "y", 1e-3, 1);
  EXPECT_TRUE(near.in_steps);
  EXPECT_NEAR(near.max_error, 0.8, 1e-9);
  EXPECT_TRUE(near.ok);
  const OutputComparison far = CompareWithReference(got, got_real, {2.1, 2.0}, 5, "y", 1e-3, 1);
  EXPECT_NEAR(far.max_error, 2.2, 1e-9);
  EXPECT_FALSE(far.ok);
}

TEST(RunReference, ANanIsBeyondAnyTolerance) {
  std::vector<float> got = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  const OutputComparison c =
      CompareWithReference(Floats(got), {1.0, std::nan("")}, {1.0, 2.0}, 0, "y", 1e9, 1);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(std::isinf(c.max_error));
}

TEST(RunReference, PerChannelOutputsAndOtherModelsAreRefusedByName) {
  const Quantization per_channel{.scale = {0.5f, 0.25f}, .zero_point = {0, 0}};
  std::vector<int8_t> stored = {1, 2};
  auto real = RealValues(Int8(stored, per_channel), "logits");
  ASSERT_FALSE(real.ok());
  EXPECT_NE(real.status().message().find("'logits' is int8 quantized per channel"),
            std::string::npos)
      << real.status().message();

  Subgraph run, reference;
  run.tensors.resize(2);
  run.tensors[0].shape = {1, 4};
  run.tensors[1].shape = {1, 2};
  run.inputs = {0};
  run.outputs = {1};
  reference = run;
  EXPECT_TRUE(CheckReferenceMatches(run, reference, "f.tflite").ok());
  reference.tensors[1].shape = {1, 3};
  reference.tensors[1].name = "scores";
  const Status s = CheckReferenceMatches(run, reference, "f.tflite");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--reference f.tflite: its output 0 ('scores')"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace tfa::cli
