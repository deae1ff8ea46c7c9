#include "runtime/delegates/xnnpack/xnnpack_sin_cos.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

TEST(XnnpackSinCos, AgreesWithSinfAndCosfWhereTheReductionIsExact) {
  for (float x = -100.0f; x <= 100.0f; x += 0.0137f) {
    EXPECT_NEAR(XnnpackSin(x), std::sin(x), 3e-7f) << x;
    EXPECT_NEAR(XnnpackCos(x), std::cos(x), 3e-7f) << x;
  }
}

// Where x / (2*pi) is a float with more than one unit between representable values, the reduced
// argument stays far outside [-pi, pi] and the rational function grows with it. That is upstream's
// XNNPACK answer (the rope model's positions near 1e9 give outputs of 1,384 under upstream's
// XNNPACK, bit-identical to this runtime's), not sinf's.
TEST(XnnpackSinCos, LeavesMinusOneToOneWhereUpstreamsXnnpackDoes) {
  bool left = false;
  for (float x = 1.0e9f; x < 1.0e9f + 4096.0f * 64.0f; x += 64.0f)
    left = left || std::fabs(XnnpackSin(x)) > 2.0f || std::fabs(XnnpackCos(x)) > 2.0f;
  EXPECT_TRUE(left);
}

TEST(XnnpackSinCos, TheCpuStepsOfAPartitionComputeSinAndCosAsXnnpackAndTheRestAsBuiltin) {
  EXPECT_NE(FindXnnpackCpuStepKernel("SIN"), FindCpuKernel("SIN"));
  EXPECT_NE(FindXnnpackCpuStepKernel("COS"), FindCpuKernel("COS"));
  EXPECT_EQ(FindXnnpackCpuStepKernel("CONCATENATION"), FindCpuKernel("CONCATENATION"));
  EXPECT_EQ(FindXnnpackCpuStepKernel("NOT_AN_OP"), nullptr);
}

}  // namespace
}  // namespace tfa::runtime
