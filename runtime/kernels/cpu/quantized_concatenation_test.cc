#include "runtime/kernels/cpu/quantized_concatenation.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

TEST(QuantizedConcatenationTest, Uint8InputsAreRescaledToTheOutput) {
  QuantizedRunner r("CONCATENATION");
  r.runner().options().axis = 1;
  r.AddInput({TensorType::kUInt8, {2, 1}, {10, 20}, PerTensor(0.5f, 10)});     // 0, 5.0
  r.AddInput({TensorType::kUInt8, {2, 2}, {0, 1, 2, 3}, PerTensor(1.0f, 0)});  // same as out
  r.AddOutput(TensorType::kUInt8, {2, 3}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{0, 0, 1, 5, 2, 3}));
}

TEST(QuantizedConcatenationTest, Int8WithEqualParametersCopiesAndOtherwiseIsRefused) {
  QuantizedRunner same("CONCATENATION");
  same.AddInput({TensorType::kInt8, {1, 2}, {-1, 2}, PerTensor(0.5f, 3)});
  same.AddInput({TensorType::kInt8, {1, 2}, {5, -7}, PerTensor(0.5f, 3)});
  same.AddOutput(TensorType::kInt8, {2, 2}, PerTensor(0.5f, 3));
  ASSERT_TRUE(same.runner().Run().ok());
  EXPECT_EQ(same.Output(TensorType::kInt8), (std::vector<int32_t>{-1, 2, 5, -7}));

  QuantizedRunner differ("CONCATENATION");
  differ.AddInput({TensorType::kInt8, {1, 2}, {-1, 2}, PerTensor(0.5f, 3)});
  differ.AddInput({TensorType::kInt8, {1, 2}, {5, -7}, PerTensor(0.25f, 3)});
  differ.AddOutput(TensorType::kInt8, {2, 2}, PerTensor(0.5f, 3));
  const Status status = differ.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "input 1 quantization differs from the output's (int8 is not rescaled)");
}

}  // namespace
}  // namespace tfa::runtime
