#include "runtime/kernels/cpu/mfcc.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/flexbuffer_map.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct MfccOptions {
  double upper_frequency_limit = 0;
  double lower_frequency_limit = 0;
  int64_t filterbank_channel_count = 0;
  int64_t dct_coefficient_count = 0;
};

Result<MfccOptions> ReadOptions(const KernelContext& context) {
  if (!context.node_data) return Status::Error("the node has no custom options");
  auto map = FlexbufferMap::Read(context.node_data->custom_options);
  if (!map.ok()) return map.status();
  MfccOptions o;
  for (auto [key, out] : {std::pair{"upper_frequency_limit", &o.upper_frequency_limit},
                          std::pair{"lower_frequency_limit", &o.lower_frequency_limit}}) {
    auto v = map->AsInt64(key);
    if (!v.ok()) return v.status();
    // Upstream keeps the integer in a float parameter, then passes it on as double.
    *out = static_cast<double>(static_cast<float>(*v));
  }
  for (auto [key, out] : {std::pair{"filterbank_channel_count", &o.filterbank_channel_count},
                          std::pair{"dct_coefficient_count", &o.dct_coefficient_count}}) {
    auto v = map->AsInt64(key);
    if (!v.ok()) return v.status();
    if (*v > std::numeric_limits<int32_t>::max() || *v < std::numeric_limits<int32_t>::min()) {
      return Status::Error(std::string("custom option '") + key + "' does not fit int");
    }
    *out = *v;
  }
  return o;
}

double FreqToMel(double freq) { return 1127.0 * std::log1p(freq / 700.0); }

// Upstream's MfccMelFilterbank after Initialize.
struct MelFilterbank {
  int64_t channels = 0;
  int64_t start = 0;
  int64_t end = 0;
  std::vector<int64_t> band;  // per bin: the channel on its right side, -1, or -2 (unused)
  std::vector<double> weights;
};

Result<MelFilterbank> DesignFilterbank(int64_t bins, double sample_rate, const MfccOptions& o) {
  if (o.filterbank_channel_count < 1 || sample_rate <= 0 || bins < 2 ||
      o.lower_frequency_limit < 0 || o.upper_frequency_limit <= o.lower_frequency_limit) {
    return Status::Error("the mel filterbank cannot be designed (channels " +
                         std::to_string(o.filterbank_channel_count) + ", sample rate " +
                         std::to_string(sample_rate) + ", " + std::to_string(bins) +
                         " bins, limits " + std::to_string(o.lower_frequency_limit) + " to " +
                         std::to_string(o.upper_frequency_limit) + ")");
  }
  MelFilterbank f;
  f.channels = o.filterbank_channel_count;
  std::vector<double> centers(static_cast<size_t>(f.channels + 1));
  const double mel_low = FreqToMel(o.lower_frequency_limit);
  const double mel_high = FreqToMel(o.upper_frequency_limit);
  const double spacing = (mel_high - mel_low) / static_cast<double>(f.channels + 1);
  for (size_t i = 0; i < centers.size(); ++i) {
    centers[i] = mel_low + spacing * static_cast<double>(i + 1);
  }
  const double hz_per_bin = 0.5 * sample_rate / static_cast<double>(bins - 1);
  const double start = 1.5 + o.lower_frequency_limit / hz_per_bin;
  const double end = o.upper_frequency_limit / hz_per_bin;
  // Upstream converts both to int; past its range the conversion is undefined.
  if (end >= 2147483648.0) {
    return Status::Error(
        "the frequency limits lie past int bins of the spectrogram (upstream's "
        "conversion to int is undefined)");
  }
  f.start = static_cast<int64_t>(start);
  f.end = static_cast<int64_t>(end);
  f.band.resize(static_cast<size_t>(bins));
  f.weights.resize(static_cast<size_t>(bins));
  int64_t channel = 0;
  for (int64_t i = 0; i < bins; ++i) {
    const double mel = FreqToMel(static_cast<double>(i) * hz_per_bin);
    const auto b = static_cast<size_t>(i);
    if (i < f.start || i > f.end) {
      f.band[b] = -2;
      f.weights[b] = 0.0;
      continue;
    }
    while (channel < f.channels && centers[static_cast<size_t>(channel)] < mel) ++channel;
    f.band[b] = channel - 1;
    f.weights[b] = f.band[b] >= 0 ? (centers[static_cast<size_t>(f.band[b] + 1)] - mel) /
                                        (centers[static_cast<size_t>(f.band[b] + 1)] -
                                         centers[static_cast<size_t>(f.band[b])])
                                  : (centers[0] - mel) / (centers[0] - mel_low);
  }
  return f;
}

// Upstream's MfccDct after Initialize: fnorm cos(i pi / n (j + 1/2)).
Result<std::vector<std::vector<double>>> DesignDct(int64_t inputs, int64_t coefficients) {
  if (coefficients < 1 || inputs < 1 || coefficients > inputs) {
    return Status::Error("dct_coefficient_count " + std::to_string(coefficients) +
                         " is outside [1, filterbank_channel_count " + std::to_string(inputs) +
                         "]");
  }
  const double norm = std::sqrt(2.0 / static_cast<double>(inputs));
  const double arg = std::atan(1.0) * 4.0 / static_cast<double>(inputs);
  std::vector<std::vector<double>> cosines(static_cast<size_t>(coefficients),
                                           std::vector<double>(static_cast<size_t>(inputs)));
  for (int64_t i = 0; i < coefficients; ++i) {
    for (int64_t j = 0; j < inputs; ++j) {
      cosines[static_cast<size_t>(i)][static_cast<size_t>(j)] =
          norm * std::cos(static_cast<double>(i) * arg * (static_cast<double>(j) + 0.5));
    }
  }
  return cosines;
}

}  // namespace

Status PrepareMfcc(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckRank(in, 3, "spectrogram"));
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "spectrogram"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kInt32, "sample rate"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  if (context.input(1).NumElements() != 1) {
    return Status::Error("the sample rate must have one element");
  }
  for (int d = 0; d < 3; ++d) {
    if (in.Dim(d) <= 0) return Status::Error("spectrogram " + ShapeString(in.shape) + " is empty");
  }
  auto o = ReadOptions(context);
  if (!o.ok()) return o.status();
  if (o->dct_coefficient_count <= 0 || o->filterbank_channel_count <= 0) {
    return Status::Error("dct_coefficient_count and filterbank_channel_count must be positive");
  }
  return CheckOutputShape(context.output(0),
                          {in.Dim(0), in.Dim(1), static_cast<int32_t>(o->dct_coefficient_count)});
}

Status EvalMfcc(KernelContext& context) {
  auto o = ReadOptions(context);
  if (!o.ok()) return o.status();
  const RuntimeTensor& in = context.input(0);
  const int64_t bins = in.Dim(2);
  const double sample_rate = *context.input(1).Data<const int32_t>();
  auto filterbank = DesignFilterbank(bins, sample_rate, *o);
  auto dct = DesignDct(o->filterbank_channel_count, o->dct_coefficient_count);
  if (!filterbank.ok()) return filterbank.status();
  if (!dct.ok()) return dct.status();
  const int64_t frames = static_cast<int64_t>(in.Dim(0)) * in.Dim(1);
  const int64_t coefficients = o->dct_coefficient_count;
  const float* x = in.Data<const float>();
  float* out = context.output(0).Data<float>();
  std::vector<double> mel;
  for (int64_t frame = 0; frame < frames; ++frame) {
    const float* spectrum = x + frame * bins;
    mel.clear();
    // Upstream's filterbank returns without output when the spectrum ends before its upper
    // limit; the DCT of nothing is then 0 everywhere.
    if (bins > filterbank->end) {
      mel.assign(static_cast<size_t>(filterbank->channels), 0.0);
      for (int64_t i = filterbank->start; i <= filterbank->end; ++i) {
        const double magnitude = std::sqrt(static_cast<double>(spectrum[i]));
        const double weighted = magnitude * filterbank->weights[static_cast<size_t>(i)];
        int64_t channel = filterbank->band[static_cast<size_t>(i)];
        if (channel >= 0) mel[static_cast<size_t>(channel)] += weighted;
        ++channel;
        if (channel < filterbank->channels)
          mel[static_cast<size_t>(channel)] += magnitude - weighted;
      }
      for (double& value : mel) value = std::log(value < 1e-12 ? 1e-12 : value);
    }
    for (int64_t i = 0; i < coefficients; ++i) {
      double sum = 0.0;
      for (size_t j = 0; j < mel.size(); ++j) sum += (*dct)[static_cast<size_t>(i)][j] * mel[j];
      out[frame * coefficients + i] = static_cast<float>(sum);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
