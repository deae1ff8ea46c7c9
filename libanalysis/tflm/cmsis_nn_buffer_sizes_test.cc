#include "libanalysis/tflm/cmsis_nn_buffer_sizes.h"

#include <gtest/gtest.h>

namespace tfa::tflm {
namespace {

constexpr CmsisNnCodePath kPlain = CmsisNnCodePath::kPlainC;
constexpr CmsisNnCodePath kDsp = CmsisNnCodePath::kDsp;
constexpr CmsisNnCodePath kMve = CmsisNnCodePath::kMve;

TEST(CmsisNnBufferSizes, CoresPickTheirCodePath) {
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kPlainC), kPlain);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM0), kPlain);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM3), kPlain);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM4), kDsp);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM7), kDsp);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM33), kDsp);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM55), kMve);
  EXPECT_EQ(CodePathOf(CmsisNnCpu::kCortexM85), kMve);
  EXPECT_EQ(CmsisNnCpuFromName("cortex-m4"), CmsisNnCpu::kCortexM4);
  EXPECT_STREQ(CmsisNnCpuName(CmsisNnCpu::kCortexM55), "cortex-m55");
  EXPECT_FALSE(CmsisNnCpuFromName("cortex-a53"));
}

// A 1x1 convolution without padding or dilation runs arm_convolve_1x1_s8(_fast): no buffer.
TEST(CmsisNnBufferSizes, PointwiseConvolutionNeedsNoBuffer) {
  const CmsisNnDims input{1, 8, 8, 16};
  const CmsisNnDims filter{1, 1, 1, 16};
  for (CmsisNnCodePath path : {kPlain, kDsp, kMve}) {
    EXPECT_EQ(ConvolveWrapperS8BufferSize(path, {}, input, filter), 0u);
    EXPECT_EQ(ConvolveWrapperS8BufferSize(path, {2, 2, 0, 0, 1, 1}, input, filter), 0u);
  }
}

// The general kernel's im2col: 3x3x16 = 144 columns; portable and DSP keep two int16 columns
// rounded to 4 (2 * 144 * 2), MVE four int8 columns rounded to 8 (4 * 144).
TEST(CmsisNnBufferSizes, GeneralConvolutionIm2colBuffer) {
  const CmsisNnDims filter{1, 3, 3, 16};
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kPlain, {}, {1, 14, 14, 16}, filter), 576u);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, {}, {1, 14, 14, 16}, filter), 576u);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, {}, {1, 14, 14, 16}, filter), 576u);
  // 3x3x1 = 9 columns: 12 after rounding to 4 (48 bytes), 16 after rounding to 8 (64 bytes).
  const CmsisNnDims narrow{1, 3, 3, 1};
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, {}, {1, 16, 16, 1}, narrow), 48u);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, {}, {1, 16, 16, 1}, narrow), 64u);
}

// A 1xN convolution over one input row (stride x channels a multiple of 4): MVE's kernel needs
// no buffer, the others the general size (1x3x4 = 12 columns: 48 bytes).
TEST(CmsisNnBufferSizes, OneByNConvolution) {
  const CmsisNnDims input{1, 1, 32, 4};
  const CmsisNnDims filter{1, 1, 3, 4};
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kPlain, {}, input, filter), 48u);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, {}, input, filter), 0u);
}

// Only the DSP path's fast s16 kernel (fewer than 512 columns, no dilation) takes a buffer.
TEST(CmsisNnBufferSizes, Int16ConvolutionOnlyOnDsp) {
  const CmsisNnDims filter{1, 3, 3, 16};
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kDsp, {}, {1, 14, 14, 16}, filter), 576u);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kPlain, {}, {1, 14, 14, 16}, filter), 0u);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kMve, {}, {1, 14, 14, 16}, filter), 0u);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kDsp, {}, {1, 14, 14, 64}, {1, 3, 3, 64}), 0u);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kDsp, {1, 1, 0, 0, 2, 2}, {1, 14, 14, 16}, filter), 0u);
}

TEST(CmsisNnBufferSizes, DepthwiseConvolution) {
  const CmsisNnDims input{1, 16, 16, 8};
  const CmsisNnDims output{1, 16, 16, 8};
  const CmsisNnConvParams pad_one{1, 1, 1, 1, 1, 1};
  // 3x3 with padding 1: arm_depthwise_conv_3x3_s8 on DSP; MVE's blocks of 124 channels.
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, pad_one, input, {1, 3, 3, 8}, output), 0u);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kMve, pad_one, input, {1, 3, 3, 8}, output),
            4u * 124 * 9);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kPlain, pad_one, input, {1, 3, 3, 8}, output), 0u);
  // 5x5 on DSP: an int16 per channel and tap, 8 x 25 x 2.
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, {}, input, {1, 5, 5, 8}, output), 400u);
  // A channel multiplier (1 channel in, 8 out) or a batch of 2 runs the unoptimized kernel.
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kMve, {}, {1, 16, 16, 1}, {1, 5, 5, 8}, output), 0u);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, {}, {2, 16, 16, 8}, {1, 5, 5, 8}, output), 0u);
}

TEST(CmsisNnBufferSizes, FullyConnectedKernelSumsOnMveOnly) {
  const CmsisNnDims filter{1152, 1, 1, 10};
  EXPECT_EQ(FullyConnectedS8BufferSize(kMve, filter), 40u);
  EXPECT_EQ(FullyConnectedS8BufferSize(kDsp, filter), 0u);
  EXPECT_EQ(FullyConnectedS8BufferSize(kPlain, filter), 0u);
  EXPECT_EQ(FullyConnectedS16BufferSize(kMve, filter), 0u);
  EXPECT_EQ(Convolve1x1S8FastBufferSize(kDsp, {1, 1, 1, 64}), 0u);
}

TEST(CmsisNnBufferSizes, AveragePoolSumsOnDspOnly) {
  EXPECT_EQ(AvgpoolS8BufferSize(kDsp, 7, 32), 128u);
  EXPECT_EQ(AvgpoolS8BufferSize(kPlain, 7, 32), 0u);
  EXPECT_EQ(AvgpoolS8BufferSize(kMve, 7, 32), 0u);
}

TEST(CmsisNnBufferSizes, SvdfKernelSumsOnMveOnly) {
  EXPECT_EQ(SvdfS8BufferSize(kMve, {64, 1, 1, 1}), 256u);
  EXPECT_EQ(SvdfS8BufferSize(kDsp, {64, 1, 1, 1}), 0u);
}

TEST(CmsisNnBufferSizes, NegativeShapesGiveNoBuffer) {
  EXPECT_EQ(FullyConnectedS8BufferSize(kMve, {1, 1, 1, -4}), 0u);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, {}, {1, 4, 4, -3}, {1, 3, 3, -3}), 0u);
}

}  // namespace
}  // namespace tfa::tflm
