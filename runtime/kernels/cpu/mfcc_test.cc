// The figures of upstream's tflite/kernels/mfcc_test.cc, and its quirks: fractional frequency
// limits truncate, a spectrum shorter than the upper limit gives zeros, an invalid design fails.
#include "runtime/kernels/cpu/mfcc.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Limits {
  double upper = 4000;
  double lower = 20;
  int channels = 40;
  int coefficients = 13;
};

std::vector<uint8_t> Options(const Limits& l) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    if (l.upper == static_cast<int>(l.upper)) {
      fbb.Int("upper_frequency_limit", static_cast<int>(l.upper));
    } else {
      fbb.Double("upper_frequency_limit", l.upper);
    }
    fbb.Int("lower_frequency_limit", static_cast<int>(l.lower));
    fbb.Int("filterbank_channel_count", l.channels);
    fbb.Int("dct_coefficient_count", l.coefficients);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

struct Coefficients {
  Status status;
  std::vector<float> values;
};

Coefficients Compute(std::vector<int32_t> shape, int32_t rate, const Limits& limits) {
  KernelRunner k("Mfcc");
  const std::vector<uint8_t> options = Options(limits);
  k.node_data().custom_options = options;
  const int32_t bins = shape[2];
  std::vector<float> spectrum;
  for (int32_t f = 0; f < shape[0] * shape[1]; ++f) {
    for (int32_t i = 0; i < bins; ++i) spectrum.push_back(static_cast<float>(i + 1));
  }
  k.AddInput(TensorType::kFloat32, shape, spectrum);
  k.AddInput(TensorType::kInt32, {1}, std::vector<int32_t>{rate});
  k.AddOutput(TensorType::kFloat32, {shape[0], shape[1], limits.coefficients});
  Coefficients c{k.Run(), {}};
  if (c.status.ok()) c.values = k.Output<float>();
  return c;
}

const std::vector<float> kUpstream = {29.13970072f, -6.41568601f, -0.61903012f, -0.96778652f,
                                      -0.26819878f, -0.40907028f, -0.15614748f, -0.23203119f,
                                      -0.10481487f, -0.1543029f,  -0.0769791f,  -0.10806114f,
                                      -0.06047613f};

TEST(MfccTest, UpstreamsFigures) {
  const Coefficients c = Compute({1, 1, 513}, 22050, {});
  ASSERT_TRUE(c.status.ok()) << c.status.message();
  ASSERT_EQ(c.values.size(), kUpstream.size());
  for (size_t i = 0; i < c.values.size(); ++i) EXPECT_NEAR(c.values[i], kUpstream[i], 1e-3) << i;
}

TEST(MfccTest, UpstreamsMultiChannelFigures) {
  const Coefficients c = Compute({2, 2, 513}, 22050, {});
  ASSERT_TRUE(c.status.ok()) << c.status.message();
  ASSERT_EQ(c.values.size(), 4 * kUpstream.size());
  for (size_t i = 0; i < c.values.size(); ++i) {
    EXPECT_NEAR(c.values[i], kUpstream[i % kUpstream.size()], 1e-3) << i;
  }
}

// Upstream reads the limits with AsInt64: 4000.9 designs the filterbank 4000 does.
TEST(MfccTest, AFractionalLimitTruncates) {
  Limits fractional;
  fractional.upper = 4000.9;
  EXPECT_EQ(Compute({1, 1, 513}, 22050, fractional).values, Compute({1, 1, 513}, 22050, {}).values);
}

// 513 bins at 2000 Hz reach 1000 Hz only: upstream's filterbank returns without output and the
// DCT of nothing is 0.
TEST(MfccTest, ASpectrumShorterThanTheUpperLimitGivesZeros) {
  const Coefficients c = Compute({1, 1, 513}, 2000, {});
  ASSERT_TRUE(c.status.ok()) << c.status.message();
  EXPECT_EQ(c.values, std::vector<float>(13, 0.0f));
}

TEST(MfccTest, RefusesAnInvalidDesign) {
  Limits too_many;
  too_many.coefficients = 41;
  EXPECT_FALSE(Compute({1, 1, 513}, 22050, too_many).status.ok());
  Limits none;
  none.coefficients = 0;
  EXPECT_FALSE(Compute({1, 1, 513}, 22050, none).status.ok());
  EXPECT_FALSE(Compute({1, 1, 513}, 0, {}).status.ok());
  Limits inverted;
  inverted.upper = 10;
  EXPECT_FALSE(Compute({1, 1, 513}, 22050, inverted).status.ok());
}

}  // namespace
}  // namespace tfa::runtime
