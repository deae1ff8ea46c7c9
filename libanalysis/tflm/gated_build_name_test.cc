#include "libanalysis/tflm/gated_build_name.h"

#include <gtest/gtest.h>

namespace tfa::tflm {
namespace {

TEST(GatedBuildName, ReadsAsTheCommandLine) {
  EXPECT_EQ(GatedBuildName(Target::kHost64), "tflm");
  EXPECT_EQ(GatedBuildName(Target::kMcu32), "tflm-32");
  Build m4{Target::kMcu32};
  m4.cmsis_nn = CmsisNnCpu::kCortexM4;
  EXPECT_EQ(GatedBuildName(m4), "tflm-cmsis-nn --cpu cortex-m4");
  Build plain{Target::kMcu32};
  plain.cmsis_nn = CmsisNnCpu::kPlainC;
  EXPECT_EQ(GatedBuildName(plain), "tflm-cmsis-nn");
}

TEST(GatedBuildName, RoundTrips) {
  for (const char* name : {"tflm", "tflm-32", "tflm-cmsis-nn", "tflm-cmsis-nn --cpu cortex-m55",
                           "tflm-cmsis-nn --cpu cortex-m0plus"}) {
    const auto build = GatedBuildFromName(name);
    ASSERT_TRUE(build) << name;
    EXPECT_EQ(GatedBuildName(*build), name);
  }
  const auto m33 = GatedBuildFromName("tflm-cmsis-nn --cpu cortex-m33");
  ASSERT_TRUE(m33);
  EXPECT_EQ(m33->target, Target::kMcu32);
  EXPECT_EQ(m33->cmsis_nn, CmsisNnCpu::kCortexM33);
}

TEST(GatedBuildName, OtherNamesAreRefused) {
  for (const char* name :
       {"", "tflm-64", "tflm-cmsis-nn --cpu", "tflm-cmsis-nn --cpu cortex-a53",
        "tflm-cmsis-nn --cpu plain-c", "tflm-cmsis-nncortex-m4", "tflm-32 --cpu cortex-m4"}) {
    EXPECT_FALSE(GatedBuildFromName(name)) << name;
  }
}

}  // namespace
}  // namespace tfa::tflm
