// REVERSE_SEQUENCE (tflite/kernels/reverse_sequence.cc, reference_ops ReverseSequence): for each
// index b along `batch_dim`, the first seq_lengths[b] elements along `seq_dim` are reversed and
// the rest copied. Input float32, uint8, int16, int32 or int64; seq_lengths int32 or int64, one
// per batch, each in [0, the seq_dim size] (anything else is an error, as upstream's Eval).
#ifndef RUNTIME_KERNELS_CPU_REVERSE_SEQUENCE_H_
#define RUNTIME_KERNELS_CPU_REVERSE_SEQUENCE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareReverseSequence(KernelContext& context);
[[nodiscard]] Status EvalReverseSequence(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_REVERSE_SEQUENCE_H_
