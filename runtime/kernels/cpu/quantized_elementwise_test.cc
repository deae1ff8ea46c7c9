#include "runtime/kernels/cpu/quantized_elementwise.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::PseudoRandomValues;
using testing::QuantizedRunner;
using testing::QuantizedValues;

TEST(QuantizedElementwiseTest, AddRescalesBothInputsToTheOutputByHand) {
  QuantizedRunner r("ADD");
  // 1.0 + 0.5, -0.5 + 1.0, 2.0 + (-1.0), with different input scales.
  r.AddInput({TensorType::kInt8, {3}, {10, -5, 20}, PerTensor(0.1f, 0)});
  r.AddInput({TensorType::kInt8, {3}, {3, 5, -3}, PerTensor(0.25f, 1)});
  r.AddOutput(TensorType::kInt8, {3}, PerTensor(0.5f, -2));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{1, -1, 0}));
}

TEST(QuantizedElementwiseTest, MulAndFusedReluByHand) {
  QuantizedRunner r("MUL");
  r.runner().options().fused_activation = Activation::kRelu;
  r.AddInput({TensorType::kUInt8, {2}, {130, 120}, PerTensor(0.5f, 128)});   // 1.0, -4.0
  r.AddInput({TensorType::kUInt8, {2}, {140, 140}, PerTensor(0.25f, 128)});  // 3.0, 3.0
  r.AddOutput(TensorType::kUInt8, {2}, PerTensor(0.5f, 100));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{106, 100}));  // 3.0, relu(-12)
}

void ExpectMatchesFloat(const std::string& op, const QuantizedValues& a, const QuantizedValues& b,
                        const std::vector<int32_t>& out_shape, const Quantization& out_q) {
  QuantizedRunner q(op);
  q.AddInput(a);
  q.AddInput(b);
  q.AddOutput(a.type, out_shape, out_q);
  ASSERT_TRUE(q.runner().Run().ok());
  KernelRunner f(op);
  f.AddFloatInput(a.shape, a.Dequantized());
  f.AddFloatInput(b.shape, b.Dequantized());
  f.AddOutput(TensorType::kFloat32, out_shape);
  ASSERT_TRUE(f.Run().ok());
  const auto expected = testing::Quantize(f.Output(), out_q.scale[0],
                                          static_cast<int32_t>(out_q.zero_point[0]), a.type);
  const auto actual = q.Output(a.type);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    ASSERT_LE(std::abs(actual[i] - expected[i]), 1) << op << " element " << i;
}

TEST(QuantizedElementwiseTest, BroadcastAddSubMulMatchFloatWithinOneUnit) {
  const QuantizedValues a{
      TensorType::kInt8, {2, 3, 4}, PseudoRandomValues(24, -128, 127, 1), PerTensor(0.07f, 3)};
  const QuantizedValues b{
      TensorType::kInt8, {3, 1}, PseudoRandomValues(3, -128, 127, 2), PerTensor(0.02f, -9)};
  ExpectMatchesFloat("ADD", a, b, {2, 3, 4}, PerTensor(0.1f, 1));
  ExpectMatchesFloat("SUB", a, b, {2, 3, 4}, PerTensor(0.1f, -1));
  ExpectMatchesFloat("MUL", a, b, {2, 3, 4}, PerTensor(0.02f, 0));
}

TEST(QuantizedElementwiseTest, MixedTypesAreRefused) {
  QuantizedRunner r("ADD");
  r.AddInput({TensorType::kInt8, {1}, {1}, PerTensor(1.0f, 0)});
  r.AddInput({TensorType::kUInt8, {1}, {1}, PerTensor(1.0f, 0)});
  r.AddOutput(TensorType::kInt8, {1}, PerTensor(1.0f, 0));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "the runtime has no uint8 kernel for this op's input 1 (it has int8)");
}

}  // namespace
}  // namespace tfa::runtime
