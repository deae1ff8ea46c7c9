// FULLY_CONNECTED with int4 weights, on the paths upstream's builtin kernel takes
// (tflite/kernels/fully_connected.cc):
// - int8 or int16 input: the weights unpacked to int8 and the int8-weight kernel run on them;
// - float32 input with constant weights, an even input depth of at least 32 and at least 4 units:
//   the packed 4-bit kernel (optimized/4bit/fully_connected_reference.cc), in the node's planned
//   temporaries, or for blockwise weights EvalBlockwise4Bit (float16 scales per block, in the
//   tensor the interpreter passes after the node's own intermediates);
// - any other float32 input: the weights unpacked and the hybrid kernel run on them.
// Blockwise weights anywhere but the packed path are refused with upstream's own check.
#ifndef RUNTIME_KERNELS_CPU_INT4_FULLY_CONNECTED_H_
#define RUNTIME_KERNELS_CPU_INT4_FULLY_CONNECTED_H_

#include <cstdint>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// Two int4 values a byte, the even element in the low nibble, each sign-extended
// (portable_tensor_utils.cc UnpackPackedIntToInt8).
std::vector<int8_t> UnpackInt4(const uint8_t* packed, int64_t count);

// The weights the packed 4-bit kernel multiplies with, as signed values: its prepacking pairs
// element p with p + 16 of every 32-wide block into one byte of (w + 7) nibbles without masking
// the second, so a -8 there sets the whole byte and both elements count as +8 (a -8 first in the
// pair counts as +8 alone). `row` is one unpacked row of `cols` values.
std::vector<int8_t> PackedKernelRow(const int8_t* row, int64_t cols);

// Runs `kernel` on a copy of the node whose input 1 (the weights) is the int4 one unpacked to
// int8, as upstream's kernels unpack it before their int8-weight paths.
[[nodiscard]] Status WithUnpackedWeights(KernelContext& context, KernelFunction kernel);

bool HasInt4Weights(const KernelContext& context);

[[nodiscard]] Status PrepareInt4FullyConnected(KernelContext& context);
[[nodiscard]] Status EvalInt4FullyConnected(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT4_FULLY_CONNECTED_H_
