// UNIDIRECTIONAL_SEQUENCE_LSTM, and the full LSTM kernel as one time step of it, with float32
// activations and float32 or int8 ("hybrid") weights, as upstream's lstm_eval.cc EvalFloat /
// EvalHybrid step by step: every gate starts at its bias (at zero with layer normalisation),
// accumulates its input and recurrent products (hybrid: each operand row quantized to int8 on the
// fly) and its peephole product, is normalised per batch row (layer norm: then scaled by its
// coefficients and biased), then sigmoid (gates) or the cell activation; the cell state is clipped
// by cell_clip; the output state is output_gate * activation(cell), projected (and clipped by
// proj_clip) when there are projection weights. The two variable state inputs (18, 19) are
// updated in place. CIFG (no input gate) is supported. The gates live in upstream's scratch
// temporary (0) and the hybrid operands are quantized into its temporaries 1 to 3; hybrid
// peephole weights are int8 like the others, recovered as floats into its temporary 7.
#ifndef RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
#define RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnidirectionalSequenceLstm(KernelContext& context);
[[nodiscard]] Status EvalUnidirectionalSequenceLstm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
