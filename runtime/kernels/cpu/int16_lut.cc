#include "runtime/kernels/cpu/int16_lut.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tfa::runtime {

Int16Lut PopulateInt16Lut(float input_scale, int32_t input_zero_point, float output_scale,
                          int32_t output_zero_point, float (*transform)(float)) {
  constexpr int32_t kMin = std::numeric_limits<int16_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int16_t>::max();
  constexpr int kSteps = 512;
  const float input_min = input_scale * static_cast<float>(kMin - input_zero_point);
  const float input_max = input_scale * static_cast<float>(kMax - input_zero_point);
  const float output_min = output_scale * static_cast<float>(kMin - output_zero_point);
  const float output_max = output_scale * static_cast<float>(kMax - output_zero_point);
  const float step = (input_max - input_min) / kSteps;
  const float half_step = step / 2;
  const float output_scaling_inv = static_cast<float>(kMax - kMin + 1) / (output_max - output_min);
  const auto clamp = [](float v) {
    return static_cast<int16_t>(
        std::min(std::max(v, static_cast<float>(kMin)), static_cast<float>(kMax)));
  };
  Int16Lut lut{};
  for (int i = 0; i < kSteps; ++i) {
    const float value = transform(input_min + static_cast<float>(i) * step);
    const float midpoint = transform(input_min + static_cast<float>(i) * step + half_step);
    const float next = transform(input_min + static_cast<float>(i + 1) * step);
    const float sample = std::round(value * output_scaling_inv);
    const float interpolated =
        std::round((next * output_scaling_inv + std::round(value * output_scaling_inv)) / 2);
    const float midpoint_sample = std::round(midpoint * output_scaling_inv);
    const float bias = std::round((interpolated - midpoint_sample) / 2);
    lut[static_cast<size_t>(i)] = clamp(sample - bias);
  }
  lut[kSteps] = clamp(std::round(transform(input_max) * output_scaling_inv));
  return lut;
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
