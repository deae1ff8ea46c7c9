// UNIDIRECTIONAL_SEQUENCE_LSTM with float32 activations and float32 or int8 ("hybrid") weights,
// as upstream's lstm_eval.cc EvalFloat / EvalHybrid step by step: every gate starts at its bias,
// accumulates its input and recurrent products (hybrid: each operand row quantized to int8 on
// the fly), then sigmoid (gates) or the cell activation; the cell state is clipped by cell_clip;
// the output state is output_gate * activation(cell). The two variable state inputs (18, 19) are
// updated in place. CIFG (no input gate) is supported; peepholes, projection and layer norm are
// not yet, and are refused at Prepare.
#ifndef RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
#define RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnidirectionalSequenceLstm(KernelContext& context);
[[nodiscard]] Status EvalUnidirectionalSequenceLstm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
