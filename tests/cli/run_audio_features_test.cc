// `run --validate` and `report` on a generated model with the audio custom ops upstream's
// BuiltinOpResolver registers, as TensorFlow's speech-commands models have them: float32 samples
// -> AudioSpectrogram -> Mfcc (sample rate a constant) -> features.
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

std::vector<uint8_t> SpectrogramOptions() {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("window_size", 200);
    fbb.Int("stride", 100);
    fbb.Bool("magnitude_squared", true);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

std::vector<uint8_t> MfccOptions() {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("upper_frequency_limit", 4000);
    fbb.Int("lower_frequency_limit", 20);
    fbb.Int("filterbank_channel_count", 40);
    fbb.Int("dct_coefficient_count", 13);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// samples [1000, 1] -> AudioSpectrogram (window 200, stride 100: 9 frames of 129 bins) -> Mfcc at
// 16 kHz -> [1, 9, 13].
std::string AudioFeaturesModel() {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("audio_features.tflite");
  b.AddSubgraph("main");
  const int32_t samples = b.AddTensor(0, "samples", f32, {1000, 1});
  const int32_t spectrogram = b.AddTensor(0, "spectrogram", f32, {1, 9, 129});
  const int32_t rate = b.AddConstant(0, "sample_rate", TensorType::kInt32, {}, Int32Bytes({16000}));
  const int32_t features = b.AddTensor(0, "features", f32, {1, 9, 13});
  b.AddCustomNode(0, "AudioSpectrogram", {samples}, {spectrogram}, SpectrogramOptions());
  b.AddCustomNode(0, "Mfcc", {spectrogram, rate}, {features}, MfccOptions());
  b.SetInputs(0, {samples});
  b.SetOutputs(0, {features});
  return testing::WriteSyntheticModel(std::move(b), "audio_features.tflite");
}

TEST(RunAudioFeatures, SpectrogramAndMfccValidate) {
  auto run = RunTool("run --validate --json --input-seed 1 " + AudioFeaturesModel());
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_TRUE(j.value("validated", false)) << run.out;
}

// No delegate upstream has takes either op; TFLite Micro's resolver has neither.
TEST(RunAudioFeatures, DelegatesLeaveThemOnTheCpuAndTflmRefusesThem) {
  const std::string model = AudioFeaturesModel();
  for (const char* delegate : {"gpu", "xnnpack", "nnapi"}) {
    auto report = RunTool(std::string("report --json --delegate ") + delegate + " " + model);
    ASSERT_EQ(report.exit_code, 0) << delegate << report.err;
    const auto j = nlohmann::json::parse(report.out, nullptr, false);
    for (const auto& partition : j.at("subgraphs")[0].at("partitions")) {
      EXPECT_EQ(partition.at("kind"), "cpu") << delegate;
    }
  }
  auto tflm = RunTool("report --target tflm " + model);
  EXPECT_EQ(tflm.exit_code, 2) << tflm.out;
  EXPECT_NE(tflm.err.find("AudioSpectrogram"), std::string::npos) << tflm.err;
}

}  // namespace
}  // namespace tfa
