#include "runtime/kernels/cpu/int16_lut.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tfa::runtime {

namespace {

// The float and double tables share one body, as upstream's LUTPopulateInt16<FloatT> does.
template <typename FloatT>
Int16Lut Populate(FloatT input_scale, int32_t input_zero_point, FloatT output_scale,
                  int32_t output_zero_point, FloatT (*transform)(FloatT)) {
  constexpr int32_t kMin = std::numeric_limits<int16_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int16_t>::max();
  constexpr int kSteps = 512;
  const FloatT input_min = input_scale * static_cast<FloatT>(kMin - input_zero_point);
  const FloatT input_max = input_scale * static_cast<FloatT>(kMax - input_zero_point);
  const FloatT output_min = output_scale * static_cast<FloatT>(kMin - output_zero_point);
  const FloatT output_max = output_scale * static_cast<FloatT>(kMax - output_zero_point);
  const FloatT step = (input_max - input_min) / kSteps;
  const FloatT half_step = step / 2;
  const FloatT output_scaling_inv =
      static_cast<FloatT>(kMax - kMin + 1) / (output_max - output_min);
  const auto clamp = [](FloatT v) {
    return static_cast<int16_t>(
        std::min(std::max(v, static_cast<FloatT>(kMin)), static_cast<FloatT>(kMax)));
  };
  Int16Lut lut{};
  for (int i = 0; i < kSteps; ++i) {
    const FloatT value = transform(input_min + static_cast<FloatT>(i) * step);
    const FloatT midpoint = transform(input_min + static_cast<FloatT>(i) * step + half_step);
    const FloatT next = transform(input_min + static_cast<FloatT>(i + 1) * step);
    const FloatT sample = std::round(value * output_scaling_inv);
    const FloatT interpolated =
        std::round((next * output_scaling_inv + std::round(value * output_scaling_inv)) / 2);
    const FloatT midpoint_sample = std::round(midpoint * output_scaling_inv);
    const FloatT bias = std::round((interpolated - midpoint_sample) / 2);
    lut[static_cast<size_t>(i)] = clamp(sample - bias);
  }
  lut[kSteps] = clamp(std::round(transform(input_max) * output_scaling_inv));
  return lut;
}

}  // namespace

Int16Lut PopulateInt16Lut(float input_scale, int32_t input_zero_point, float output_scale,
                          int32_t output_zero_point, float (*transform)(float)) {
  return Populate(input_scale, input_zero_point, output_scale, output_zero_point, transform);
}

Int16Lut PopulateInt16Lut(double input_scale, int32_t input_zero_point, double output_scale,
                          int32_t output_zero_point, double (*transform)(double)) {
  return Populate(input_scale, input_zero_point, output_scale, output_zero_point, transform);
}

int16_t Int16LutLookup(int16_t value, const Int16Lut& lut) {
  const auto index = static_cast<size_t>(256 + (value >> 7));
  const int offset = value & 0x7f;
  const int base = lut[index];
  // The slope is an int16 in upstream's lookup, so a step across the whole range wraps.
  const auto slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int delta = (slope * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

}  // namespace tfa::runtime
