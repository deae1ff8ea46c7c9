// upstream's int16 lookup table (tflite/kernels/internal/common.h LUTPopulateInt16, LUTLookup):
// 513 samples of f over the input's range, each nudged by half the error of interpolating its
// midpoint, looked up by the value's top 9 bits and interpolated over the low 7.
#ifndef RUNTIME_KERNELS_CPU_INT16_LUT_H_
#define RUNTIME_KERNELS_CPU_INT16_LUT_H_

#include <array>
#include <cstdint>

namespace tfa::runtime {

using Int16Lut = std::array<int16_t, 513>;

// The table of `transform` from int16 values at (input_scale, input_zero_point) to int16 values
// at (output_scale, output_zero_point), built in float as upstream builds it. The output zero
// point cancels out of upstream's output range, so it shifts nothing.
Int16Lut PopulateInt16Lut(float input_scale, int32_t input_zero_point, float output_scale,
                          int32_t output_zero_point, float (*transform)(float));
// The same in double, as upstream builds its int16 SOFTMAX tables.
Int16Lut PopulateInt16Lut(double input_scale, int32_t input_zero_point, double output_scale,
                          int32_t output_zero_point, double (*transform)(double));

int16_t Int16LutLookup(int16_t value, const Int16Lut& lut);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT16_LUT_H_
