#include "runtime/delegates/opencl/opencl_precision.h"

#include <gtest/gtest.h>

namespace tfa::runtime {
namespace {

Result<ClPrecision> Resolve(int loss_allowed, const char* p1, const char* p2, const char* p3,
                            bool fp16 = true) {
  GpuPrecisionOptions options;
  EXPECT_TRUE(options.Set("is_precision_loss_allowed", std::to_string(loss_allowed)).ok());
  EXPECT_TRUE(options.Set("inference_priority1", p1).ok());
  EXPECT_TRUE(options.Set("inference_priority2", p2).ok());
  EXPECT_TRUE(options.Set("inference_priority3", p3).ok());
  return ResolvePrecision(options, fp16);
}

TEST(OpenClPrecisionTest, DefaultsComputeInFloat32) {
  auto precision = ResolvePrecision(GpuPrecisionOptions(), true);
  ASSERT_TRUE(precision.ok());
  EXPECT_EQ(*precision, ClPrecision::kF32);
}

TEST(OpenClPrecisionTest, PrecisionLossAllowedPutsLatencyFirst) {
  // MIN_LATENCY, then AUTO resolved to MIN_MEMORY_USAGE, MAX_PRECISION: F16.
  auto precision = Resolve(1, "MAX_PRECISION", "AUTO", "AUTO");
  ASSERT_TRUE(precision.ok());
  EXPECT_EQ(*precision, ClPrecision::kF16);
  EXPECT_STREQ(ClPrecisionName(*precision), "F16");
}

TEST(OpenClPrecisionTest, ExplicitPrioritiesWhenLossIsMinusOne) {
  EXPECT_EQ(*Resolve(-1, "MAX_PRECISION", "AUTO", "AUTO"), ClPrecision::kF32);
  EXPECT_EQ(*Resolve(-1, "MIN_LATENCY", "MAX_PRECISION", "AUTO"), ClPrecision::kF32F16);
  EXPECT_EQ(*Resolve(-1, "MIN_MEMORY_USAGE", "AUTO", "AUTO"), ClPrecision::kF32F16);
  EXPECT_EQ(*Resolve(-1, "MIN_LATENCY", "MIN_MEMORY_USAGE", "AUTO"), ClPrecision::kF16);
  EXPECT_EQ(*Resolve(-1, "2", "1", "0"), ClPrecision::kF32F16);  // upstream's enum numbers
  // Without -1 the priorities are ignored, as upstream ignores them.
  EXPECT_EQ(*Resolve(0, "MIN_LATENCY", "AUTO", "AUTO"), ClPrecision::kF32);
}

TEST(OpenClPrecisionTest, DevicesWithoutFp16RunFloat32) {
  EXPECT_EQ(*Resolve(1, "MAX_PRECISION", "AUTO", "AUTO", /*fp16=*/false), ClPrecision::kF32);
  EXPECT_EQ(*Resolve(-1, "MIN_LATENCY", "MAX_PRECISION", "AUTO", false), ClPrecision::kF32);
}

TEST(OpenClPrecisionTest, InvalidOrdersAndValuesAreErrors) {
  EXPECT_FALSE(Resolve(-1, "AUTO", "AUTO", "AUTO").ok());
  EXPECT_FALSE(Resolve(-1, "MIN_LATENCY", "MIN_LATENCY", "AUTO").ok());
  EXPECT_FALSE(Resolve(-1, "MIN_LATENCY", "AUTO", "MAX_PRECISION").ok());
  GpuPrecisionOptions options;
  EXPECT_FALSE(options.Set("inference_priority1", "FASTEST").ok());
  EXPECT_FALSE(options.Set("is_precision_loss_allowed", "2").ok());
  EXPECT_FALSE(options.Set("inference_preference", "SLOW").ok());
  EXPECT_TRUE(*options.Set("inference_preference", "SUSTAINED_SPEED"));
  EXPECT_FALSE(*options.Set("allow_quant_ops", "true"));  // a profile option, not taken here
}

TEST(OpenClPrecisionTest, ValidationToleranceWidensForFp16) {
  EXPECT_EQ(Fp16ValidationTolerance(ClPrecision::kF32), 0.0);
  EXPECT_DOUBLE_EQ(Fp16ValidationTolerance(ClPrecision::kF32F16), 10.0 / 1024);
  EXPECT_DOUBLE_EQ(Fp16ValidationTolerance(ClPrecision::kF16), 50.0 / 1024);
}

}  // namespace
}  // namespace tfa::runtime
