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

// arm_transpose_conv_s8 with strides up to 2 over more than 16 input channels: the convolution's
// columns (3x3x32 = 288) over the stride-expanded input, and the reversed filter (32 x 3 x 3 x 8
// output channels).
TEST(CmsisNnBufferSizes, TransposeConvolutionRunsInReverse) {
  const CmsisNnConvParams stride2{2, 2, 0, 0, 1, 1};
  const CmsisNnDims input{1, 4, 4, 32};
  const CmsisNnDims filter{8, 3, 3, 32};
  const CmsisNnDims output{1, 8, 8, 8};
  EXPECT_EQ(TransposeConvS8BufferSize(kPlain, stride2, input, filter, output), 2u * 288 * 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kDsp, stride2, input, filter, output), 2u * 288 * 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kMve, stride2, input, filter, output), 4u * 288);
  EXPECT_EQ(TransposeConvS8ReverseConvBufferSize(stride2, input, filter), 32u * 3 * 3 * 8);
  // 290 columns: rounded to 292 (portable, DSP) and to 304 (MVE's 16 lanes).
  const CmsisNnDims odd{1, 4, 4, 29};
  const CmsisNnDims filter_2x5{8, 2, 5, 29};
  EXPECT_EQ(TransposeConvS8BufferSize(kDsp, stride2, odd, filter_2x5, output), 2u * 292 * 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kMve, stride2, odd, filter_2x5, output), 4u * 304);
}

// Otherwise (16 channels, or a stride of 3) int32 accumulators for max(filter h, stride h) rows
// of ((input w - 1) x stride w + max(filter w, stride h)) x output depth, on every path.
TEST(CmsisNnBufferSizes, TransposeConvolutionRollingRows) {
  const CmsisNnConvParams stride2{2, 2, 0, 0, 1, 1};
  const CmsisNnDims filter{8, 3, 3, 16};
  const CmsisNnDims output{1, 8, 8, 8};
  for (CmsisNnCodePath path : {kPlain, kDsp, kMve}) {
    // (3 x 2 + 3) x 8 columns, 3 rows.
    EXPECT_EQ(TransposeConvS8BufferSize(path, stride2, {1, 4, 4, 16}, filter, output),
              9u * 8 * 3 * 4);
    // Stride w 3, stride h 4 over a 3x2 (h x w) filter: (3 x 3 + max(2, 4)) x 8 columns and
    // max(3, 4) rows.
    EXPECT_EQ(
        TransposeConvS8BufferSize(path, {3, 4, 0, 0, 1, 1}, {1, 4, 4, 64}, {8, 3, 2, 64}, output),
        13u * 8 * 4 * 4);
  }
  EXPECT_EQ(TransposeConvS8ReverseConvBufferSize(stride2, {1, 4, 4, 16}, filter), 0u);
  EXPECT_EQ(TransposeConvS8ReverseConvBufferSize({3, 1, 0, 0, 1, 1}, {1, 4, 4, 64}, filter), 0u);
}

// arm_depthwise_conv_wrapper_s4: the DSP figure (an int16 per channel and tap) on every path
// when the optimized kernel runs; nothing for a channel multiplier, a batch or a dilation.
TEST(CmsisNnBufferSizes, Int4DepthwiseBuffer) {
  const CmsisNnDims input{1, 8, 8, 16};
  const CmsisNnDims filter{1, 3, 3, 16};
  const CmsisNnDims output{1, 8, 8, 16};
  for (CmsisNnCodePath path : {kPlain, kDsp, kMve}) {
    EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(path, {}, input, filter, output), 16u * 9 * 2);
    EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(path, {}, input, filter, {1, 8, 8, 32}), 0u);
    EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(path, {}, {2, 8, 8, 16}, filter, output), 0u);
    EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(path, {1, 1, 0, 0, 2, 2}, input, filter, output),
              0u);
  }
}

TEST(CmsisNnBufferSizes, Int16AveragePoolSumsOnDsp) {
  EXPECT_EQ(AvgpoolS16BufferSize(kPlain, 7, 32), 0u);
  EXPECT_EQ(AvgpoolS16BufferSize(kDsp, 7, 32), 128u);
  EXPECT_EQ(AvgpoolS16BufferSize(kMve, 7, 32), 0u);
}

}  // namespace
}  // namespace tfa::tflm
