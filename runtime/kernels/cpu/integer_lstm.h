// UNIDIRECTIONAL_SEQUENCE_LSTM and the full LSTM kernel with int8 input ("8x8->16": int8 input,
// weights and output state, int16 cell state and gates, int32 biases), bit-exact to upstream's
// lstm_eval.cc EvalInteger8x8_16 with portable_tensor_utils.cc: each gate is the sum of its input
// and recurrent products, each rescaled to Q3.12 with the input zero point folded into an
// effective bias, then gemmlowp's fixed-point sigmoid or tanh (fixed_point_activations.h); the
// cell state (a power-of-two scale) is updated with rounding shifts and saturating adds; the output
// state is output_gate * tanh(cell) rescaled to the hidden intermediate (intermediate 4) or, with
// projection weights, projected. Peepholes, CIFG, projection and layer normalisation
// (int16 coefficients; the gate products at intermediates 0-3's scales, normalised with the gate
// bias added, integer_layer_norm.h) are supported. The gates live in upstream's six temporaries,
// the states update in place.
#ifndef RUNTIME_KERNELS_CPU_INTEGER_LSTM_H_
#define RUNTIME_KERNELS_CPU_INTEGER_LSTM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareIntegerLstm(KernelContext& context);
[[nodiscard]] Status EvalIntegerLstm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INTEGER_LSTM_H_
