// The logistic and tanh of gemmlowp's 16-bit fixed point (gemmlowp/fixedpoint/fixedpoint.h), as
// upstream's integer LSTM applies them (tflite/kernels/internal/reference/
// portable_tensor_utils.cc: ApplySigmoid, ApplyTanh): the input is a raw int16 with
// `integer_bits` integer bits (Q(integer_bits).(15 - integer_bits)), the result a raw int16 in
// Q0.15. Bit-exact: exp on [-1/4, 0) by a Taylor polynomial, the integer part by a barrel
// shifter of exp(-2^k) constants, and the division by three Newton-Raphson steps, every constant
// rounded from gemmlowp's 32-bit one as gemmlowp does for int16.
#ifndef RUNTIME_KERNELS_CPU_FIXED_POINT_ACTIVATIONS_H_
#define RUNTIME_KERNELS_CPU_FIXED_POINT_ACTIVATIONS_H_

#include <cstdint>

namespace tfa::runtime {

// logistic(x) in Q0.15; integer_bits in [0, 12].
int16_t FixedPointLogistic(int16_t raw, int integer_bits);
// tanh(x) in Q0.15; integer_bits in [0, 11].
int16_t FixedPointTanh(int16_t raw, int integer_bits);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FIXED_POINT_ACTIVATIONS_H_
