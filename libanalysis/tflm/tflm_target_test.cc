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

TEST(TflmTarget, DoubleIsEightAlignedOnBothTargetsUnderAapcs) {
  EXPECT_EQ(StructLayout(Target::kMcu32, {Field::kInt32, Field::kDouble}).size, 16u);
  EXPECT_EQ(StructLayout(Target::kHost64, {Field::kInt32, Field::kDouble}).size, 16u);
}

// The i386 System V ABI aligns 8-byte struct members to 4: QUANTIZE's QuantizationParams
// {int32_t zero_point; double scale} is 12 bytes there, 16 under AAPCS.
TEST(TflmTarget, I386AlignsEightByteMembersToFour) {
  const Build i386{Target::kMcu32, Abi::kI386};
  EXPECT_EQ(StructLayout(i386, {Field::kInt32, Field::kDouble}).size, 12u);
  EXPECT_EQ(StructLayout(i386, {Field::kInt32, Field::kInt64}).size, 12u);
  EXPECT_EQ(StructLayout(Build{Target::kHost64, Abi::kI386}, {Field::kInt32, Field::kDouble}).size,
            16u);
}

// sizeof as the oracle's TF_LITE_STATIC_MEMORY builds print them (external/tflm/*_static.json).
TEST(TflmTarget, StaticMemoryStructSizes) {
  const StructSizes host = StructSizesFor(Build{Target::kHost64, Abi::kAapcs, true});
  EXPECT_EQ(host.tensor.size, 64u);
  EXPECT_EQ(host.node.size, 56u);
  EXPECT_EQ(host.node_and_registration.size, 64u);
  const StructSizes mcu = StructSizesFor(Build{Target::kMcu32, Abi::kAapcs, true});
  EXPECT_EQ(mcu.tensor.size, 40u);
  EXPECT_EQ(mcu.node.size, 28u);
  EXPECT_EQ(mcu.node_and_registration.size, 32u);
}

// RecordingMicroAllocator's default_tail_usage: 456 bytes on 64-bit, 236 on 32-bit.
TEST(TflmTarget, RecordingAllocatorObjects) {
  Build host{Target::kHost64};
  Build mcu{Target::kMcu32};
  EXPECT_EQ(StructSizesFor(host).allocator_objects, 248u);
  EXPECT_EQ(StructSizesFor(mcu).allocator_objects, 132u);
  host.recording_allocator = mcu.recording_allocator = true;
  EXPECT_EQ(StructSizesFor(host).allocator_objects, 456u);
  EXPECT_EQ(StructSizesFor(mcu).allocator_objects, 236u);
}

TEST(TflmTarget, NamesRoundTrip) {
  EXPECT_EQ(TargetFromName("tflm"), Target::kHost64);
  EXPECT_EQ(TargetFromName("tflm-32"), Target::kMcu32);
  EXPECT_FALSE(TargetFromName("tflm-64").has_value());
  EXPECT_STREQ(TargetName(Target::kMcu32), "tflm-32");
  EXPECT_EQ(AbiFromName("i386"), Abi::kI386);
  EXPECT_STREQ(AbiName(Abi::kAapcs), "aapcs");
  EXPECT_FALSE(AbiFromName("arm").has_value());
}

}  // namespace
}  // namespace tfa::tflm
