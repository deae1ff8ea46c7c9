#include "runtime/kernels/cpu/pad.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(PadTest, ZeroPadsBeforeAndAfter) {
  KernelRunner k("PAD");
  k.AddFloatInput({1, 2}, {1, 2});
  k.AddInt32Input({2, 2}, {0, 1, 1, 0});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 1, 2, 0, 0, 0}));
}

TEST(PadTest, PadV2UsesTheConstantValue) {
  KernelRunner k("PADV2");
  k.AddFloatInput({2}, {1, 2});
  k.AddInt32Input({1, 2}, {1, 1});
  k.AddFloatInput({}, {-5});
  k.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{-5, 1, 2, -5}));
}

TEST(PadTest, MirrorReflectAndSymmetric) {
  for (int32_t mode : {0, 1}) {
    KernelRunner k("MIRROR_PAD");
    k.options().mirror_pad_mode = mode;
    k.AddFloatInput({3}, {1, 2, 3});
    k.AddInt32Input({1, 2}, {2, 2});
    k.AddOutput(TensorType::kFloat32, {7});
    ASSERT_TRUE(k.Run().ok());
    if (mode == 0) {
      EXPECT_EQ(k.Output(), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    } else {
      EXPECT_EQ(k.Output(), (std::vector<float>{2, 1, 1, 2, 3, 3, 2}));
    }
  }
}

}  // namespace
}  // namespace tfa::runtime
