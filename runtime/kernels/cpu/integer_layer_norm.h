// The integer layer normalisation of upstream's 8x8->16 LSTM gates
// (tflite/kernels/internal/reference/portable_tensor_utils.cc PortableApplyLayerNorm): each batch
// row's mean and variance in fixed point (the mean times 1024), the inverse square root of the
// variance from gemmlowp's Newton iteration (common.h GetInvSqrtQuantizedMultiplierExp), then
// each value normalised, times its coefficient plus the gate bias, rescaled by the coefficients'
// scale into Q3.12.
#ifndef RUNTIME_KERNELS_CPU_INTEGER_LAYER_NORM_H_
#define RUNTIME_KERNELS_CPU_INTEGER_LAYER_NORM_H_

#include <cstdint>

#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {

// 1 / sqrt(input) as a multiplier and a left shift (upstream's reverse_shift -1 applied).
QuantizedMultiplier InverseSqrtMultiplier(int32_t input);

// `gate` [batch, n] normalised in place. `scale` is the coefficients' scale as a multiplier;
// `variance_guard` replaces a variance below 1.
void IntegerLayerNorm(int16_t* gate, const int16_t* coefficients, const int32_t* bias,
                      QuantizedMultiplier scale, int32_t variance_guard, int32_t batch, int32_t n);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INTEGER_LAYER_NORM_H_
