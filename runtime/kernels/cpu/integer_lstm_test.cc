#include "runtime/kernels/cpu/integer_lstm.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// One cell, zero weights: every gate is its int32 bias in Q3.12 (input, weights and gate scales
// make the effective scale exactly 1), chosen among the inputs of upstream's tensor_utils_test.cc
// so that its goldens give the activations: input gate sigmoid(-10500) = 2339, forget gate
// sigmoid(1398) = 19152, cell gate tanh(899) = 7076, output gate sigmoid(485) = 17350 (Q0.15).
// The cell state (scale 2^-12) after step 1 is round(2339 * 7076 / 2^18) = 63; after step 2
// round(19152 * 63 / 2^15) + 63 = 37 + 63 = 100. The output, hidden scale 2^-12, is
// 17350 * tanh(cell) / 2^18 with the fixed-point tanh, which runs a few units off at small inputs
// (upstream's golden for 27 is 220, not 216): 34 and 52 where float arithmetic gives 33.4 and 52.9.
struct ZeroWeightLstm {
  Quantization q12{{1.0f / 4096}, {0}, 0};
  Quantization unit{{1.0f}, {0}, 0};
  Quantization bias{{1.0f / 4096}, {0}, 0};
  Quantization coefficient{{1.0f / 4096}, {0}, 0};
  KernelRunner k{"UNIDIRECTIONAL_SEQUENCE_LSTM"};
  RuntimeTensor* cell_state = nullptr;

  explicit ZeroWeightLstm(bool layer_norm) {
    k.options().fused_activation = Activation::kTanh;
    k.options().time_major = true;
    k.AddInput(TensorType::kInt8, {2, 1, 1}, std::vector<int8_t>{0, 0}).quantization = &q12;
    for (int i = 0; i < 8; ++i)
      k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{0}).quantization = &unit;
    for (int i = 0; i < 3; ++i) k.AddAbsentInput();  // peepholes
    for (int32_t b : {-10500, 1398, 899, 485}) {
      const int32_t stored = layer_norm ? b * 1024 : b;
      k.AddInput(TensorType::kInt32, {1}, std::vector<int32_t>{stored}).quantization = &bias;
    }
    k.AddAbsentInput();  // projection weights
    k.AddAbsentInput();  // projection bias
    k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{0}).quantization = &q12;
    cell_state = &k.AddInput(TensorType::kInt16, {1, 1}, std::vector<int16_t>{0});
    cell_state->quantization = &q12;
    for (int i = 0; i < 4; ++i) {
      if (layer_norm) {
        k.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{1}).quantization = &coefficient;
      } else {
        k.AddAbsentInput();
      }
    }
    for (int i = 0; i < 4; ++i) k.AddIntermediate(TensorType::kInt16, &q12);
    k.AddIntermediate(TensorType::kInt8, &q12);  // the hidden state's scale
    k.AddOutput(TensorType::kInt8, {2, 1, 1}).quantization = &q12;
  }
};

TEST(IntegerLstmTest, GatesCellAndOutputFollowUpstreamsFixedPoint) {
  ZeroWeightLstm lstm(/*layer_norm=*/false);
  ASSERT_TRUE(lstm.k.Run().ok());
  EXPECT_EQ(lstm.k.Output<int8_t>(), (std::vector<int8_t>{34, 52}));
  EXPECT_EQ(lstm.cell_state->Data<int16_t>()[0], 100);
}

TEST(IntegerLstmTest, GatesLiveInUpstreamsTemporaries) {
  ZeroWeightLstm lstm(/*layer_norm=*/false);
  std::vector<RuntimeTensor*> gates;
  for (int i = 0; i < 4; ++i) gates.push_back(&lstm.k.AddTemporary(TensorType::kInt16, {1, 1}));
  lstm.k.AddTemporary(TensorType::kInt8, {1, 1});
  lstm.k.AddTemporary(TensorType::kInt32, {1, 1});
  ASSERT_TRUE(lstm.k.Run().ok());
  // The cell and output gates of the last step stay in their buffers (the input gate's buffer
  // ends with tanh(cell), as upstream's).
  EXPECT_EQ(gates[2]->Data<int16_t>()[0], 7076);
  EXPECT_EQ(gates[3]->Data<int16_t>()[0], 17350);
}

// Layer normalisation of one cell: its variance is 0, so the normalised value is 0 and each gate
// becomes its bias, (b + 512) / 1024 truncated, rescaled by the coefficients' scale 2^-12 into
// Q3.12 (ApplyLayerNorm's shift + 12): biases of 1024 times the ones above give the same gates,
// hence the same outputs. The gate products would be at intermediates 0-3's scales (2^-12 here).
TEST(IntegerLstmTest, LayerNormalisedGatesAddTheBiasAfterNormalising) {
  ZeroWeightLstm lstm(/*layer_norm=*/true);
  ASSERT_TRUE(lstm.k.Run().ok());
  EXPECT_EQ(lstm.k.Output<int8_t>(), (std::vector<int8_t>{34, 52}));
  EXPECT_EQ(lstm.cell_state->Data<int16_t>()[0], 100);
}

}  // namespace
}  // namespace tfa::runtime
