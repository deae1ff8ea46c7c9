// The figures of upstream's tflite/kernels/audio_spectrogram_test.cc, and what upstream's
// Spectrogram::Initialize refuses.
#include "runtime/kernels/cpu/audio_spectrogram.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<uint8_t> Options(int window_size, int stride, bool magnitude_squared) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("window_size", window_size);
    fbb.Int("stride", stride);
    fbb.Bool("magnitude_squared", magnitude_squared);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

struct Spectrogram {
  Status status;
  std::vector<float> values;
};

Spectrogram Compute(const std::vector<float>& samples, std::vector<int32_t> out_shape,
                    const std::vector<uint8_t>& options) {
  KernelRunner k("AudioSpectrogram");
  k.node_data().custom_options = options;
  k.AddInput(TensorType::kFloat32, {static_cast<int32_t>(samples.size()), 1}, samples);
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  Spectrogram s{k.Run(), {}};
  if (s.status.ok()) s.values = k.Output<float>();
  return s;
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-3) << i;
}

const std::vector<float> kWave = {-1.0f, 0.0f, 1.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f};

TEST(AudioSpectrogramTest, UpstreamsNonSquaredFigures) {
  const Spectrogram s = Compute(kWave, {1, 1, 5}, Options(8, 1, false));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ExpectNear(s.values, {0.0f, 1.0f, 2.0f, 1.0f, 0.0f});
}

TEST(AudioSpectrogramTest, UpstreamsSquaredFigures) {
  const Spectrogram s = Compute(kWave, {1, 1, 5}, Options(8, 1, true));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ExpectNear(s.values, {0.f, 1.f, 4.f, 1.f, 0.f});
}

TEST(AudioSpectrogramTest, UpstreamsStrideFigures) {
  std::vector<float> wave = kWave;
  wave.insert(wave.end(), {1.0f, 0.0f});
  const Spectrogram s = Compute(wave, {1, 2, 5}, Options(8, 2, true));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ExpectNear(s.values, {0, 1, 4, 1, 0, 1, 2, 1, 2, 1});
}

// A window that is not a power of two is zero-padded to the next one: 6 samples, 8 bins / 2 + 1.
TEST(AudioSpectrogramTest, TheWindowIsPaddedToAPowerOfTwo) {
  const Spectrogram s = Compute(kWave, {1, 2, 5}, Options(6, 2, true));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.values.size(), 10u);
}

TEST(AudioSpectrogramTest, RefusesWhatUpstreamsInitializeRefuses) {
  EXPECT_FALSE(Compute(kWave, {1, 8, 2}, Options(1, 1, true)).status.ok());
  EXPECT_FALSE(Compute(kWave, {1, 1, 5}, Options(8, 0, true)).status.ok());
  // A planned output of another shape than Prepare computes.
  EXPECT_FALSE(Compute(kWave, {1, 2, 5}, Options(8, 1, true)).status.ok());
}

}  // namespace
}  // namespace tfa::runtime
