#include "runtime/kernels/cpu/audio_spectrogram.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/flexbuffer_map.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct SpectrogramOptions {
  int64_t window_size = 0;
  int64_t stride = 0;
  bool magnitude_squared = false;
};

// Upstream reads the options with AsInt64 / AsBool, so absent ones are 0 / false; its
// Spectrogram::Initialize then refuses a window under 2 samples or a stride under 1.
Result<SpectrogramOptions> ReadOptions(const KernelContext& context) {
  if (!context.node_data) return Status::Error("the node has no custom options");
  auto map = FlexbufferMap::Read(context.node_data->custom_options);
  if (!map.ok()) return map.status();
  SpectrogramOptions o;
  auto window = map->AsInt64("window_size");
  if (!window.ok()) return window.status();
  auto stride = map->AsInt64("stride");
  if (!stride.ok()) return stride.status();
  o.window_size = *window;
  o.stride = *stride;
  if (map->Has("magnitude_squared")) {
    auto squared = map->Bool("magnitude_squared");
    if (!squared.ok()) return squared.status();
    o.magnitude_squared = *squared;
  }
  // Upstream stores both in int; the window's FFT length must fit uint32.
  if (o.window_size < 2 || o.window_size > (int64_t{1} << 30)) {
    return Status::Error("window_size " + std::to_string(o.window_size) +
                         " is outside [2, 2^30] (upstream's Spectrogram::Initialize fails)");
  }
  if (o.stride < 1 || o.stride > INT32_MAX) {
    return Status::Error("stride " + std::to_string(o.stride) + " is not a positive int");
  }
  return o;
}

int64_t FftLength(int64_t window_size) {
  int64_t n = 1;
  while (n < window_size) n *= 2;
  return n;
}

int64_t Frames(int64_t samples, const SpectrogramOptions& o) {
  return samples < o.window_size ? 0 : 1 + (samples - o.window_size) / o.stride;
}

}  // namespace

Status PrepareAudioSpectrogram(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckRank(in, 2, "input"));
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto o = ReadOptions(context);
  if (!o.ok()) return o.status();
  const int64_t frames = Frames(in.Dim(0), *o);
  const int64_t bins = FftLength(o->window_size) / 2 + 1;
  if (frames > INT32_MAX || bins > INT32_MAX) return Status::Error("the spectrogram is too large");
  return CheckOutputShape(context.output(0),
                          {in.Dim(1), static_cast<int32_t>(frames), static_cast<int32_t>(bins)});
}

Status EvalAudioSpectrogram(KernelContext& context) {
  auto o = ReadOptions(context);
  if (!o.ok()) return o.status();
  const RuntimeTensor& in = context.input(0);
  const int64_t samples = in.Dim(0);
  const int64_t channels = in.Dim(1);
  const int64_t n = FftLength(o->window_size);
  const int64_t bins = n / 2 + 1;
  const int64_t frames = Frames(samples, *o);
  // Upstream's periodic Hann window, with its pi = 4 atan(1).
  const double pi = std::atan(1.0) * 4.0;
  std::vector<double> window(static_cast<size_t>(o->window_size));
  for (size_t i = 0; i < window.size(); ++i) {
    window[i] = 0.5 - 0.5 * std::cos((2.0 * pi * static_cast<double>(i)) /
                                     static_cast<double>(o->window_size));
  }
  // cos and sin of 2 pi m / n for every m: the DFT's angles, j k reduced mod n.
  std::vector<double> cosines(static_cast<size_t>(n)), sines(static_cast<size_t>(n));
  for (int64_t m = 0; m < n; ++m) {
    const double angle = 2.0 * pi * static_cast<double>(m) / static_cast<double>(n);
    cosines[static_cast<size_t>(m)] = std::cos(angle);
    sines[static_cast<size_t>(m)] = std::sin(angle);
  }
  const float* x = in.Data<const float>();
  float* out = context.output(0).Data<float>();
  std::vector<double> windowed(static_cast<size_t>(o->window_size));
  for (int64_t channel = 0; channel < channels; ++channel) {
    for (int64_t frame = 0; frame < frames; ++frame) {
      const int64_t start = frame * o->stride;
      for (int64_t j = 0; j < o->window_size; ++j) {
        windowed[static_cast<size_t>(j)] =
            static_cast<double>(x[(start + j) * channels + channel]) *
            window[static_cast<size_t>(j)];
      }
      float* row = out + (channel * frames + frame) * bins;
      for (int64_t k = 0; k < bins; ++k) {
        double re = 0.0, im = 0.0;
        int64_t m = 0;  // j * k mod n
        for (int64_t j = 0; j < o->window_size; ++j) {
          re += windowed[static_cast<size_t>(j)] * cosines[static_cast<size_t>(m)];
          im += windowed[static_cast<size_t>(j)] * sines[static_cast<size_t>(m)];
          m += k;
          if (m >= n) m -= n;
        }
        const auto squared = static_cast<float>(re * re + im * im);
        row[k] = o->magnitude_squared ? squared : std::sqrt(squared);
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
