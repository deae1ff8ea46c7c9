#include "libanalysis/prepare/kernel_build.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

TEST(KernelBuildTest, PlatformsSetTheBuildSwitchesUpstreamSetsThere) {
  auto desktop = KernelBuildFor("x86-64", 1);
  ASSERT_TRUE(desktop.ok());
  EXPECT_FALSE(desktop->mobile);
  EXPECT_FALSE(desktop->multithreaded_conv());
  EXPECT_EQ(desktop->fc_4bit_max_rows, 1);
  auto android = KernelBuildFor("android-arm64", -1);
  ASSERT_TRUE(android.ok());
  EXPECT_TRUE(android->mobile);
  EXPECT_TRUE(android->ruy);
  EXPECT_FALSE(android->multithreaded_conv()) << "ruy builds have no multithreaded Eigen conv";
  EXPECT_EQ(android->fc_4bit_max_rows, 4);
  EXPECT_TRUE(KernelBuildFor("x86-64", 4)->multithreaded_conv());
  EXPECT_EQ(KernelBuildPlatforms().front(), "x86-64");
}

TEST(KernelBuildTest, UnknownPlatformsAndThreadCountsAreRefused) {
  auto unknown = KernelBuildFor("android", 1);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown platform 'android' (one of: x86-64, x86-64-ssse3, linux-arm64, "
            "android-arm64, android-arm32)");
  EXPECT_FALSE(KernelBuildFor("x86-64", 0).ok());
  EXPECT_FALSE(KernelBuildFor("x86-64", -2).ok());
}

}  // namespace
}  // namespace tfa
