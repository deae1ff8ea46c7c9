// The inputs of upstream's LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (tflite/kernels/lstm_shared.h:
// 20 inputs, or 24 with layer normalisation) and their sizes, checked once for the float, hybrid
// and integer kernels, which differ only in the element types each input must have.
#ifndef RUNTIME_KERNELS_CPU_LSTM_LAYOUT_H_
#define RUNTIME_KERNELS_CPU_LSTM_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "runtime/kernel.h"

namespace tfa::runtime::lstm {

inline constexpr size_t kInput = 0;
inline constexpr size_t kInputWeights[4] = {1, 2, 3, 4};      // input, forget, cell, output gates
inline constexpr size_t kRecurrentWeights[4] = {5, 6, 7, 8};  // the same gates
inline constexpr size_t kPeepholes[4] = {9, 10, 0, 11};       // the cell gate has none (0: unused)
inline constexpr size_t kBiases[4] = {12, 13, 14, 15};
inline constexpr size_t kProjectionWeights = 16, kProjectionBias = 17;
inline constexpr size_t kOutputState = 18, kCellState = 19;
inline constexpr size_t kLayerNorms[4] = {20, 21, 22, 23};
inline constexpr int kGates = 4, kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3;

// The element types a kernel evaluates. With `int8_weights_too`, int8 gate and projection weights
// (or uint8 ones, read as int8 as upstream reads them) are accepted beside `weights` (the hybrid
// kernel).
struct Types {
  TensorType input, weights;
  bool int8_weights_too = false;
  TensorType bias, peephole, projection_bias, output_state, cell_state, output;
  TensorType layer_norm = TensorType::kFloat32;
};

struct Layout {
  int32_t time = 0, batch = 0, n_input = 0, n_cell = 0, n_output = 0;
  bool cifg = false;         // no input gate: it is 1 - forget gate
  bool hybrid = false;       // 8-bit weights (and peepholes) where `Types::weights` is another type
  bool peephole = false;     // cell-to-gate weights
  bool layer_norm = false;   // layer normalisation coefficients (Types::layer_norm)
  bool projection = false;   // projection weights
  bool full_kernel = false;  // the LSTM op: one time step of a rank-2 input
};

// The sizes, after checking every input's presence, type and shape and the output's shape: the
// input's with the last dimension n_output + `other_direction_columns` (the columns a
// bidirectional kernel's other direction writes into the same merged output).
[[nodiscard]] Result<Layout> ReadLayout(const KernelContext& context, const Types& types,
                                        int32_t other_direction_columns = 0);

}  // namespace tfa::runtime::lstm

#endif  // RUNTIME_KERNELS_CPU_LSTM_LAYOUT_H_
