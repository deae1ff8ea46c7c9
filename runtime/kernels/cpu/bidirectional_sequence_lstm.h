// BIDIRECTIONAL_SEQUENCE_LSTM (tflite/kernels/bidirectional_sequence_lstm.cc): two LSTMs over the
// same sequence, the forward one from the first time step and the backward one from the last,
// each run as UNIDIRECTIONAL_SEQUENCE_LSTM's pass (lstm_eval.cc EvalFloat / EvalHybrid), float32
// or hybrid (int8 weights, or uint8 ones read as int8, float activations). 48 inputs: the input,
// forward weights (1-17), backward weights (18-34), the four variable states (35-38), an optional
// auxiliary input (39) and its forward and backward weights (40-47). With auxiliary weights, both
// directions add the auxiliary input's product to every gate (stacked layers with cross links);
// with an auxiliary input but no weights, the backward direction reads the auxiliary input instead
// of the input. Two outputs, or one whose rows hold the forward then the backward output
// (merge_outputs).
//
// Upstream's Prepare checks both directions' tensors against each direction's sizes, so the two
// must have equal cell and output counts; cases where upstream's Eval reads or writes outside its
// tensors (see the .cc) are refused.
#ifndef RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_LSTM_H_
#define RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_LSTM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBidirectionalSequenceLstm(KernelContext& context);
[[nodiscard]] Status EvalBidirectionalSequenceLstm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BIDIRECTIONAL_SEQUENCE_LSTM_H_
