// UNIDIRECTIONAL_SEQUENCE_LSTM, and the full LSTM kernel as one time step of it, with float32
// activations and float32 or int8 ("hybrid"; uint8 read as int8, as upstream reads it) weights, as
// upstream's lstm_eval.cc EvalFloat / EvalHybrid step by step: every gate starts at its bias (at
// zero with layer normalisation), accumulates its input and recurrent products (hybrid: each
// operand row quantized to int8 on the fly) and its peephole product, is normalised per batch row
// (layer norm: then scaled by its coefficients and biased), then sigmoid (gates) or the cell
// activation; the cell state is clipped by cell_clip; the output state is output_gate *
// activation(cell), projected (and clipped by proj_clip) when there are projection weights. The two
// variable state inputs (18, 19) are updated in place. CIFG (no input gate) is supported. The gates
// live in upstream's scratch temporary (0) and the hybrid operands are quantized into its
// temporaries 1 to 3; hybrid peephole weights are int8 like the others, recovered as floats into
// its temporary 7.
//
// The sequence is one pass of lstm_eval.cc's EvalFloat / EvalHybrid, which
// BIDIRECTIONAL_SEQUENCE_LSTM runs once per direction: `LstmPass` says what differs there.
#ifndef RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
#define RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_

#include <cstdint>

#include "runtime/kernel.h"

namespace tfa::runtime {

// How one pass runs over a context in UNIDIRECTIONAL_SEQUENCE_LSTM's layout (20 inputs, one
// output, the temporaries 0 to 3 and 7 as above, 8 the quantized auxiliary input).
struct LstmPass {
  bool forward = true;  // false: from the last time step to the first
  // Stacked bidirectional layers' second input: its product with `aux_weights[gate]` joins each
  // gate's input product (the input gate's is null with CIFG).
  const RuntimeTensor* aux_input = nullptr;
  const RuntimeTensor* aux_weights[4] = {};
  // Merged outputs: the output's columns the other direction writes, and where this one starts.
  int32_t other_direction_columns = 0;
  int32_t output_offset = 0;
};

[[nodiscard]] Status PrepareLstmPass(KernelContext& context, const LstmPass& pass);
[[nodiscard]] Status EvalLstmPass(const KernelContext& context, const LstmPass& pass);

[[nodiscard]] Status PrepareUnidirectionalSequenceLstm(KernelContext& context);
[[nodiscard]] Status EvalUnidirectionalSequenceLstm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
