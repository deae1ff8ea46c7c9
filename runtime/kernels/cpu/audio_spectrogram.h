// The AudioSpectrogram custom op upstream's BuiltinOpResolver registers
// (tflite/kernels/audio_spectrogram.cc, tflite/kernels/internal/spectrogram.cc): float32 samples
// [samples, channels] to a spectrogram [channels, frames, fft_length / 2 + 1], one frame per
// `stride` samples of a periodic Hann window of `window_size` samples, zero-padded to the next
// power of two. Upstream takes the DFT in double (Ooura's rdft) and keeps |X|^2 as float, or its
// square root (sqrtf) unless `magnitude_squared`. The DFT here is direct, also in double.
#ifndef RUNTIME_KERNELS_CPU_AUDIO_SPECTROGRAM_H_
#define RUNTIME_KERNELS_CPU_AUDIO_SPECTROGRAM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareAudioSpectrogram(KernelContext& context);
[[nodiscard]] Status EvalAudioSpectrogram(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_AUDIO_SPECTROGRAM_H_
