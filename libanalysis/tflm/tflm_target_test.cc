#include "libanalysis/tflm/tflm_target.h"

#include <gtest/gtest.h>

namespace tfa::tflm {
namespace {

// 64-bit figures as upstream's threshold test implies them (sizeof(TfLiteEvalTensor) * 54 etc.).
TEST(TflmTarget, HostStructSizes) {
  const StructSizes sizes = StructSizesFor(Target::kHost64);
  EXPECT_EQ(sizes.eval_tensor.size, 24u);
  EXPECT_EQ(sizes.node_and_registration.size, 88u);
  EXPECT_EQ(sizes.tensor.size, 112u);
  EXPECT_EQ(sizes.affine_quantization.size, 24u);
  EXPECT_EQ(sizes.scratch_buffer_handle.size, 8u);
}

TEST(TflmTarget, McuStructSizes) {
  const StructSizes sizes = StructSizesFor(Target::kMcu32);
  EXPECT_EQ(sizes.eval_tensor.size, 12u);
  EXPECT_EQ(sizes.node_and_registration.size, 44u);
  EXPECT_EQ(sizes.tensor.size, 64u);
  EXPECT_EQ(sizes.affine_quantization.size, 12u);
  EXPECT_EQ(sizes.scratch_buffer_handle.size, 4u);
}

TEST(TflmTarget, DoubleIsEightAlignedOnBothTargets) {
  EXPECT_EQ(StructLayout(Target::kMcu32, {Field::kInt32, Field::kDouble}).size, 16u);
  EXPECT_EQ(StructLayout(Target::kHost64, {Field::kInt32, Field::kDouble}).size, 16u);
}

TEST(TflmTarget, NamesRoundTrip) {
  EXPECT_EQ(TargetFromName("tflm"), Target::kHost64);
  EXPECT_EQ(TargetFromName("tflm-32"), Target::kMcu32);
  EXPECT_FALSE(TargetFromName("tflm-64").has_value());
  EXPECT_STREQ(TargetName(Target::kMcu32), "tflm-32");
}

}  // namespace
}  // namespace tfa::tflm
