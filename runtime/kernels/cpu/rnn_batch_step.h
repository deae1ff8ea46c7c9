// One time step of upstream's basic RNN cell over a batch of rows, the step RNN,
// UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN share
// (tflite/kernels/internal/kernel_utils.cc RnnBatchStep):
//   output = activation(bias + input_weights . input [+ aux_weights . aux_input]
//                       + recurrent_weights . hidden), then hidden = output,
// each product accumulated onto the output in that order. Float weights multiply on Eigen (or, for
// the property test's twin, in upstream's plain portable loops). Hybrid weights (int8, or uint8
// bytes read as int8 as upstream does) multiply each operand quantized to int8 per batch row on
// the fly (hybrid_math.h's quantizers), in int32, rescaled to float; an operand that is all zeros
// is skipped, as upstream skips it; the weights' scale is their per-tensor one only (upstream
// reads TfLiteTensor::params.scale: 0 for a per-channel tensor).
#ifndef RUNTIME_KERNELS_CPU_RNN_BATCH_STEP_H_
#define RUNTIME_KERNELS_CPU_RNN_BATCH_STEP_H_

#include <cstdint>
#include <initializer_list>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// The activations upstream's ApplyActivationToVector applies; refuses Activation::kUnknown.
[[nodiscard]] Status CheckRnnActivation(Activation activation);

// Whether cells with these weights are hybrid: a float32 input with float32 weights (false), or
// with int8 or uint8 ones (true), all of one type, as upstream's Prepare and Eval take them; an
// error names what they do not take. Null weights (an absent auxiliary input) are skipped.
[[nodiscard]] Result<bool> RnnWeightsAreHybrid(const RuntimeTensor& input,
                                               std::initializer_list<const RuntimeTensor*> weights);

// Errors unless `tensor` is float32: the bias, hidden state and output upstream reads as floats.
[[nodiscard]] Status CheckRnnFloat(const RuntimeTensor& tensor, const char* role);

// One direction's cell: its weights (tensors of the node), bias and sizes, and how to multiply.
struct RnnCell {
  const RuntimeTensor* input_weights = nullptr;      // [units, input_size]
  const RuntimeTensor* aux_weights = nullptr;        // [units, aux_size], or null
  const RuntimeTensor* recurrent_weights = nullptr;  // [units, units]
  const float* bias = nullptr;                       // [units]
  int32_t units = 0, input_size = 0, aux_size = 0;
  Activation activation = Activation::kNone;
  bool hybrid = false;     // 8-bit weights
  bool reference = false;  // float: upstream's portable loops instead of Eigen
  // Hybrid only, all in upstream's temporaries: asymmetric_quantize_inputs; where each operand's
  // rows are quantized (batch x its size bytes each); each row's scaling factor (its scale times
  // the weights') and, asymmetric, its zero point [batch]; asymmetric, the weights' row sums
  // [input, auxiliary (with an auxiliary input), recurrent; units each].
  bool asymmetric = false;
  int8_t* quantized_input = nullptr;
  int8_t* quantized_aux = nullptr;
  int8_t* quantized_hidden = nullptr;
  float* scaling_factors = nullptr;
  int32_t* zero_points = nullptr;
  int32_t* row_sums = nullptr;
};

// One step for `batch` rows: `input` [batch, input_size] and `aux_input` [batch, aux_size] (null
// without) contiguous, `hidden` [batch, units] read then overwritten, output row b at
// `output + b * output_stride`.
void RnnBatchStep(const RnnCell& cell, const float* input, const float* aux_input, int32_t batch,
                  float* hidden, float* output, int64_t output_stride);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RNN_BATCH_STEP_H_
