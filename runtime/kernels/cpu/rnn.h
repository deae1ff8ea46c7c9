// RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN, as upstream's tflite/kernels/basic_rnn.cc and
// unidirectional_sequence_rnn.cc: five inputs (input, input weights [units, input size], recurrent
// weights [units, units], bias [units], the hidden state [batch, units]) and one output. Each step
// is rnn_batch_step.h's RnnBatchStep; the hidden state is a variable input Eval updates in place,
// so the next invocation continues the sequence. The sequence op steps through time with all
// batch rows at once when time-major ([time, batch, input]), else batch row by batch row
// ([batch, time, input]), as upstream does.
//
// Types, as upstream's Prepare and Eval take them: a float32 input with float32 weights, or with
// int8 or uint8 weights of one per-tensor scale ("hybrid": the input and hidden state quantized
// on the fly, asymmetric_quantize_inputs honoured, in upstream's temporaries). Prepare
// refuses what upstream refuses (other types, input and recurrent weights of different types,
// shapes that do not chain) and what upstream would read as another type (a bias, hidden state
// or output that is not float32).
#ifndef RUNTIME_KERNELS_CPU_RNN_H_
#define RUNTIME_KERNELS_CPU_RNN_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareRnn(KernelContext& context);
[[nodiscard]] Status EvalRnn(KernelContext& context);
[[nodiscard]] Status PrepareUnidirectionalSequenceRnn(KernelContext& context);
[[nodiscard]] Status EvalUnidirectionalSequenceRnn(KernelContext& context);

// The plain twins: float products in upstream's portable loops rather than on Eigen (the hybrid
// arithmetic is the same). rnn_property_test.cc holds the kernels to them.
[[nodiscard]] Status EvalRnnReference(KernelContext& context);
[[nodiscard]] Status EvalUnidirectionalSequenceRnnReference(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RNN_H_
