// The recurrent kernels' Prepare memory effects (LSTM, RNN and SVDF families of upstream's
// tflite/kernels): they reserve their tensors in Init (numbered right after the model's tensors,
// see KernelInitTensorCount) and size the ones their kernel variant uses in Prepare: one float
// scratch buffer for the float kernels; quantized copies of the input and states, scaling
// factors, zero points, int32 accumulators and persistent row sums for the hybrid kernels (float
// activations, 8-bit weights); int16/int8/int32 gate buffers for the integer kernels. The state
// tensors are variables, planned in the persistent arena like every variable.
#ifndef LIBANALYSIS_PREPARE_RECURRENT_KERNEL_PREPARE_H_
#define LIBANALYSIS_PREPARE_RECURRENT_KERNEL_PREPARE_H_

#include <cstdint>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

// Tensors the recurrent builtin `node`'s Init reserves; 0 for other ops.
int32_t RecurrentKernelInitTensorCount(const Node& node);

// tflite/kernels/unidirectional_sequence_lstm.cc.
[[nodiscard]] Result<KernelPrepareEffect> PrepareUnidirectionalSequenceLstm(
    const Subgraph& subgraph, const Node& node);

// tflite/kernels/lstm.cc (full and basic kernels).
[[nodiscard]] Result<KernelPrepareEffect> PrepareLstm(const Subgraph& subgraph, const Node& node);

// tflite/kernels/basic_rnn.cc (RNN) and unidirectional_sequence_rnn.cc.
[[nodiscard]] Result<KernelPrepareEffect> PrepareRnn(const Subgraph& subgraph, const Node& node);

// tflite/kernels/svdf.cc.
[[nodiscard]] Result<KernelPrepareEffect> PrepareSvdf(const Subgraph& subgraph, const Node& node);

// tflite/kernels/bidirectional_sequence_lstm.cc.
[[nodiscard]] Result<KernelPrepareEffect> PrepareBidirectionalSequenceLstm(const Subgraph& subgraph,
                                                                           const Node& node);

// tflite/kernels/bidirectional_sequence_rnn.cc.
[[nodiscard]] Result<KernelPrepareEffect> PrepareBidirectionalSequenceRnn(const Subgraph& subgraph,
                                                                          const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_RECURRENT_KERNEL_PREPARE_H_
