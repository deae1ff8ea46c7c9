#include "libanalysis/report/eigen_gemm_blocks.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

// Worked by hand from Eigen 3.4's heuristic, 48 KiB L1, mr x nr = 8 x 4: max_kc =
// ((49152 - 8*4*4) / (8*4 + 4*4)) & ~7 = 1016.
TEST(EigenGemmBlocksTest, DeepProductsBlockKAndKeepTheRows) {
  // k = 2304 > 1016: k = 1016 - 8 * ((1016 - 1 - 272) / (8 * 3)) = 776; the lhs does not fit L1,
  // so nc = min(1572864 / (2*776*4), 3*1572864 / (4*1016*4)) & ~3 = 252 >= n: n and m stay.
  const EigenGemmBlocking b = EigenFloatGemmBlocking(2304, 512, 25);
  EXPECT_EQ(b.kc, 776u);
  EXPECT_EQ(b.mc, 512u);
  EXPECT_EQ(b.nc, 25u);
  EXPECT_EQ(b.bytes(), (776u * 512u + 776u * 25u) * 4u);
}

TEST(EigenGemmBlocksTest, WideProductsBlockTheColumnsWithinL1) {
  // The 36 x 32 lhs block (4608 B) fits L1: max_nc = (49152 - 128 - 4608) / (32*4) = 347, nc = 344;
  // n = 1024: 344 - 4 * ((344 - 336) / (4 * 3)) = 344.
  const EigenGemmBlocking b = EigenFloatGemmBlocking(32, 36, 1024);
  EXPECT_EQ(b.kc, 32u);
  EXPECT_EQ(b.mc, 36u);
  EXPECT_EQ(b.nc, 344u);
}

TEST(EigenGemmBlocksTest, UnblockedProductsBlockTheRows) {
  // k = 64, n = 100: nothing blocked; k*n*4 = 25600 <= 32768, so mc = min(1048576 / (3*64*4),
  // 576) = 576 (a multiple of 8); m = 1000: 576 - 8 * ((576 - 424) / (8 * 2)) = 504.
  const EigenGemmBlocking b = EigenFloatGemmBlocking(64, 1000, 100);
  EXPECT_EQ(b.kc, 64u);
  EXPECT_EQ(b.mc, 504u);
  EXPECT_EQ(b.nc, 100u);
}

TEST(EigenGemmBlocksTest, VectorsAndSmallProducts) {
  EXPECT_EQ(EigenFloatGemmBlocking(1000, 1000, 1).bytes(), 0u);  // GEMV packs nothing
  EXPECT_EQ(EigenFloatGemmBlocking(1000, 1, 1000).bytes(), 0u);
  const EigenGemmBlocking small = EigenFloatGemmBlocking(10, 20, 30);
  EXPECT_EQ(small.bytes(), (10u * 20u + 10u * 30u) * 4u);
  // Dimensions near 2^31 do not overflow.
  EXPECT_GT(EigenFloatGemmBlocking(2147483647, 2147483647, 2147483647).bytes(), 0u);
}

}  // namespace
}  // namespace tfa
