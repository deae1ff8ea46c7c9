#include "runtime/kernels/cpu/fake_quant.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

void SetParameters(KernelRunner& k, const FakeQuantParameters& p) {
  k.options().custom_options = EncodeFakeQuantParameters(p);
}

std::vector<float> RunFakeQuant(const std::vector<float>& values, float min, float max,
                                int32_t num_bits) {
  KernelRunner k("FAKE_QUANT");
  SetParameters(k, {min, max, num_bits, false});
  k.AddFloatInput({3, 1, 2}, values);
  k.AddOutput(TensorType::kFloat32, {3, 1, 2});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  // Upstream's ArrayFloatNear default.
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << i;
}

// The four cases of upstream's fake_quant_test.cc, figures as upstream states them.
TEST(FakeQuantTest, UpstreamPositiveRange8) {
  ExpectNear(RunFakeQuant({0.0f, 1.0f, 0.25f, 0.50f, 0.4444444f, 0.00001f}, 0.0f, 1.0f, 8),
             {0, 1, 0.25098f, 0.498039f, 0.443137f, 0});
}

TEST(FakeQuantTest, UpstreamNegativeRange8) {
  ExpectNear(RunFakeQuant({0.0f, -0.9f, 0.25f, 0.50f, 0.4444444f, -0.00001f}, -0.9f, 0.9f, 8),
             {0, -0.896471f, 0.247059f, 0.501176f, 0.444706f, 0});
}

TEST(FakeQuantTest, UpstreamPositiveRange16) {
  ExpectNear(RunFakeQuant({0.0f, 1.0f, 0.25f, 0.50f, 0.4444444f, 0.00001f}, 0.0f, 1.0f, 16),
             {0, 1, 0.250004f, 0.500008f, 0.44445f, 1.5259e-05f});
}

TEST(FakeQuantTest, UpstreamNegativeRange16) {
  ExpectNear(RunFakeQuant({0.0f, -0.9f, 0.25f, 0.50f, 0.4444444f, -0.00001f}, -0.9f, 0.9f, 16),
             {0, -0.900014f, 0.249998f, 0.499995f, 0.444431f, 0});
}

// Values outside the range clamp to its nudged ends.
TEST(FakeQuantTest, ClampsToTheNudgedRange) {
  ExpectNear(RunFakeQuant({-5.0f, 5.0f, 0, 0, 0, 0}, 0.0f, 1.0f, 8), {0, 1, 0, 0, 0, 0});
}

std::string RefusalOf(const FakeQuantParameters& p, TensorType type = TensorType::kFloat32) {
  KernelRunner k("FAKE_QUANT");
  SetParameters(k, p);
  k.AddInput<float>(type, {2}, {0.0f, 1.0f});
  k.AddOutput(type, {2});
  return k.Run().message();
}

TEST(FakeQuantTest, RefusesWhatUpstreamCannotCompute) {
  EXPECT_EQ(RefusalOf({0, 1, 8, true}),
            "narrow_range FakeQuant is not supported at runtime (upstream's Prepare refuses it)");
  EXPECT_EQ(RefusalOf({0, 1, 0, false}), "num_bits 0 is outside [1, 16]");
  EXPECT_EQ(RefusalOf({0, 1, 17, false}), "num_bits 17 is outside [1, 16]");
  EXPECT_EQ(RefusalOf({1, 1, 8, false}),
            "the range [1.000000, 1.000000] is not a finite range with min < max");
  EXPECT_NE(RefusalOf({0, 1, 8, false}, TensorType::kInt32).find("int32"), std::string::npos);
}

}  // namespace
}  // namespace tfa::runtime
