// BIDIRECTIONAL_SEQUENCE_RNN, as upstream's tflite/kernels/bidirectional_sequence_rnn.cc: twelve
// inputs (the input [time, batch, input] when time-major, else [batch, time, input]; per
// direction input weights, recurrent weights, bias and a variable hidden state; an optional
// auxiliary input and per-direction auxiliary weights) and a forward and a backward output, or one
// output of both depths with merge_outputs. The forward cell steps through time forwards, the
// backward cell backwards, each step rnn_batch_step.h's RnnBatchStep; Eval updates both hidden
// states in place.
//
// The auxiliary input is added with its weights (stacking with cross links), or, without
// auxiliary weights, replaces the input of the backward cell (stacking without them). Upstream's
// Eval has three quirks this kernel keeps, since the bar is upstream's answer:
// - batch-major, the backward cell reads the input, not the auxiliary input that replaces it;
// - hybrid and time-major, the whole sequence runs `time` times over (an outer loop over time
//   around both cells' loops), the hidden states carried through, the last pass's outputs kept;
// - time-major, and in the hybrid kernel's cross links, the auxiliary input is indexed with the
//   input's size: Prepare refuses an auxiliary input of another size there.
// Types as rnn.h: float32 weights, or int8 / uint8 ones of one per-tensor scale (hybrid), all of
// one type.
#ifndef RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_RNN_H_
#define RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_RNN_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBidirectionalSequenceRnn(KernelContext& context);
[[nodiscard]] Status EvalBidirectionalSequenceRnn(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_RNN_H_
