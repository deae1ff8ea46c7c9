// The builtin LSTM op's basic kernel (LSTMOptions kernel_type BASIC), as upstream's
// tflite/kernels/lstm.cc `basic` namespace runs it: five inputs (input, previous activation,
// weights, bias, previous state) and four outputs (activation, state, and the two intermediates
// upstream keeps as outputs: the concatenation and the fully connected result).
//
// One step of a cell: concat = [input, previous activation] along depth; gates = weights . concat
// + bias, four blocks of `depth` (input gate, input modulation, forget gate, output gate);
// state = sigmoid(i) * tanh(g) + sigmoid(f) * previous state; activation = sigmoid(o) *
// tanh(state). Eval then copies the new activation and state over the two state inputs, as
// upstream's does, so the next invocation continues the sequence.
//
// Two type combinations, as upstream's Eval takes them:
// - float32 everywhere (optimized_ops::LstmCell): the product on Eigen's GEMM (gemm.h);
// - uint8 activations and weights, int32 bias, int16 state (LstmCell<4>): the product exact in
//   int32 (gemmlowp, quantized_gemm.h), rescaled to 16 bits with 3 integer bits by
//   4096 * bias scale, then gemmlowp's 16-bit fixed-point logistic and tanh; the state has 4
//   integer bits (a scale of 2^-11) and the activation is stored as uint8 with zero point 128.
//   Bit-exact to upstream.
// Prepare refuses what upstream's Prepare or Eval refuses: other types, shapes that do not
// chain, a state scale that is not 2^-11.
#ifndef RUNTIME_KERNELS_CPU_BASIC_LSTM_H_
#define RUNTIME_KERNELS_CPU_BASIC_LSTM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

// Whether the node is an LSTM with the basic kernel (the LSTM registration dispatches on it).
bool IsBasicLstm(const KernelContext& context);

[[nodiscard]] Status PrepareBasicLstm(KernelContext& context);
[[nodiscard]] Status EvalBasicLstm(KernelContext& context);

// The plain twin: upstream's reference_ops::LstmCell loop for loop (a triple-loop product, no
// GEMM). The property test (basic_lstm_property_test.cc) holds EvalBasicLstm to it.
[[nodiscard]] Status EvalBasicLstmReference(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BASIC_LSTM_H_
