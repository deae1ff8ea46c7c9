#include "libanalysis/tflm/cmsis_nn_buffer_sizes.h"

#include <algorithm>

namespace tfa::tflm {
namespace {

// A negative or absurd shape gives no buffer rather than a wrapped size.
uint64_t Bytes(int64_t value) { return value < 0 ? 0 : static_cast<uint64_t>(value); }

int64_t RoundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// arm_nnsupportfunctions.h: a transpose convolution over more input channels than this runs as a
// convolution over the stride-expanded input, when both strides are at most 2.
constexpr int64_t kReverseTransposeConvThreshold = 16;

bool ReverseConvolution(const CmsisNnConvParams& params, const CmsisNnDims& input) {
  return params.stride_w <= 2 && params.stride_h <= 2 && input.c > kReverseTransposeConvThreshold;
}

}  // namespace

CmsisNnCodePath CodePathOf(CmsisNnCpu cpu) {
  switch (cpu) {
    case CmsisNnCpu::kCortexM4:
    case CmsisNnCpu::kCortexM7:
    case CmsisNnCpu::kCortexM33:
      return CmsisNnCodePath::kDsp;
    case CmsisNnCpu::kCortexM55:
    case CmsisNnCpu::kCortexM85:
      return CmsisNnCodePath::kMve;
    case CmsisNnCpu::kPlainC:
    case CmsisNnCpu::kCortexM0:
    case CmsisNnCpu::kCortexM0Plus:
    case CmsisNnCpu::kCortexM3:
      return CmsisNnCodePath::kPlainC;
  }
  return CmsisNnCodePath::kPlainC;
}

const char* CodePathName(CmsisNnCodePath path) {
  switch (path) {
    case CmsisNnCodePath::kDsp:
      return "dsp";
    case CmsisNnCodePath::kMve:
      return "mve";
    case CmsisNnCodePath::kPlainC:
      return "plain-c";
  }
  return "plain-c";
}

// ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c (V.2.2.1 of 2024-10 to V.2.3.0,
// CMSIS-NN 098d54a): two int16 columns rounded to 4 (portable and DSP); on MVE four int8 columns
// rounded to 16 lanes (V.1.4.0 rounded to 8).
uint64_t ConvolveS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& input,
                              const CmsisNnDims& filter) {
  const int64_t columns = filter.w * filter.h * input.c;
  if (path == CmsisNnCodePath::kMve) return Bytes(4 * RoundUp(columns, 16));
  return Bytes(2 * RoundUp(columns, 4) * 2);
}

// ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c (V.1.4.0, CMSIS-NN d1c35d3): a 1x1
// convolution without padding needs none; the 1xN and general kernels an im2col buffer of two
// columns of int16 (portable and DSP), four int8 columns rounded to 8 lanes (MVE), where MVE's
// 1xN kernel needs none.
uint64_t ConvolveWrapperS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                     const CmsisNnDims& input, const CmsisNnDims& filter) {
  const bool unit_dilation = params.dilation_w == 1 && params.dilation_h == 1;
  if (params.padding_w == 0 && params.padding_h == 0 && filter.w == 1 && filter.h == 1 &&
      unit_dilation) {
    return 0;  // arm_convolve_1x1_s8_fast (stride 1) and arm_convolve_1x1_s8: no buffer
  }
  const bool one_by_n =
      input.h == 1 && params.dilation_w == 1 && filter.h == 1 && params.stride_w * input.c % 4 == 0;
  const int64_t columns = filter.w * filter.h * input.c;
  if (path == CmsisNnCodePath::kMve) {
    if (one_by_n) return 0;
    return Bytes(4 * RoundUp(columns, 8));
  }
  return Bytes(2 * RoundUp(columns, 4) * 2);
}

// ConvolutionFunctions/arm_convolve_get_buffer_sizes_s16.c (V.1.0.0): only the DSP path's fast
// kernel (fewer than 512 columns, no dilation) keeps two int16 columns.
uint64_t ConvolveWrapperS16BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                      const CmsisNnDims& input, const CmsisNnDims& filter) {
  if (path != CmsisNnCodePath::kDsp) return 0;
  const int64_t columns = filter.w * filter.h * input.c;
  if (columns < 512 && params.dilation_w == 1 && params.dilation_h == 1) {
    return Bytes(2 * columns * 2);
  }
  return 0;
}

// arm_convolve_get_buffer_sizes_s8.c: arm_convolve_1x1_s8_fast_get_buffer_size is 0 on every
// path.
uint64_t Convolve1x1S8FastBufferSize(CmsisNnCodePath, const CmsisNnDims&) { return 0; }

// ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s8.c (V.1.0.0): only the optimized
// kernel (channel multiplier 1, batch 1, no dilation) takes a buffer; on portable and DSP builds
// a 3x3 filter with padding up to 1 goes to arm_depthwise_conv_3x3_s8, which takes none. DSP:
// an int16 per input channel and filter tap; MVE: 4 x CH_IN_BLOCK_MVE (124) bytes per tap.
uint64_t DepthwiseConvWrapperS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                          const CmsisNnDims& input, const CmsisNnDims& filter,
                                          const CmsisNnDims& output) {
  if (input.c != output.c || input.n != 1 || params.dilation_w != 1 || params.dilation_h != 1) {
    return 0;
  }
  switch (path) {
    case CmsisNnCodePath::kMve:
      return Bytes(4 * 124 * filter.w * filter.h);
    case CmsisNnCodePath::kDsp:
      if (filter.w == 3 && filter.h == 3 && params.padding_h <= 1 && params.padding_w <= 1) {
        return 0;
      }
      return Bytes(input.c * filter.w * filter.h * 2);
    case CmsisNnCodePath::kPlainC:
      return 0;
  }
  return 0;
}

// ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s4.c (V.1.0.0, CMSIS-NN 060f101): the
// optimized kernel's buffer (channel count matches, batch 1, no dilation) is the DSP one, an int16
// per input channel and filter tap, on every path: TFLM calls the unsuffixed function.
uint64_t DepthwiseConvWrapperS4BufferSize(CmsisNnCodePath, const CmsisNnConvParams& params,
                                          const CmsisNnDims& input, const CmsisNnDims& filter,
                                          const CmsisNnDims& output) {
  if (input.c != output.c || input.n != 1 || params.dilation_w != 1 || params.dilation_h != 1) {
    return 0;
  }
  return Bytes(input.c * filter.w * filter.h * 2);
}

// ConvolutionFunctions/arm_transpose_conv_get_buffer_sizes_s8.c (V.2.0.0 of 2024-10-29; V.2.1.0,
// CMSIS-NN 3c67a63, splits out the MVE function with the same figures). The reverse convolution
// takes ConvolveS8BufferSize over the stride-expanded input; otherwise int32 accumulators for
// max(filter h, stride h) output rows of (input w - 1) x stride w + max(filter w, stride h)
// columns: upstream pairs the width with stride h, and so does this.
uint64_t TransposeConvS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                   const CmsisNnDims& input, const CmsisNnDims& filter,
                                   const CmsisNnDims& output) {
  if (ReverseConvolution(params, input)) {
    const CmsisNnDims expanded{input.n, input.h * params.stride_h, input.w * params.stride_w,
                               input.c};
    return ConvolveS8BufferSize(path, expanded, filter);
  }
  const int64_t row =
      ((input.w - 1) * params.stride_w + std::max(filter.w, params.stride_h)) * output.c;
  return Bytes(row * std::max(filter.h, params.stride_h) * 4);
}

uint64_t TransposeConvS8ReverseConvBufferSize(const CmsisNnConvParams& params,
                                              const CmsisNnDims& input, const CmsisNnDims& filter) {
  if (!ReverseConvolution(params, input)) return 0;
  return Bytes(input.c * filter.w * filter.h * filter.n);
}

// FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s8.c (V.1.1.0): MVE keeps an int32
// kernel sum per output channel (filter dims c); the other paths none.
uint64_t FullyConnectedS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& filter) {
  return path == CmsisNnCodePath::kMve ? Bytes(filter.c * 4) : 0;
}

// FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s16.c (V.1.0.0): 0 on every path.
uint64_t FullyConnectedS16BufferSize(CmsisNnCodePath, const CmsisNnDims&) { return 0; }

// PoolingFunctions/arm_avgpool_get_buffer_sizes_s8.c (V.1.0.0): DSP sums an int32 per channel;
// portable C and MVE need none.
uint64_t AvgpoolS8BufferSize(CmsisNnCodePath path, int64_t, int64_t channels) {
  return path == CmsisNnCodePath::kDsp ? Bytes(channels * 4) : 0;
}

// PoolingFunctions/arm_avgpool_get_buffer_sizes_s16.c (V.1.0.0, CMSIS-NN 1d7a8bf): as int8, DSP
// sums an int32 per channel; portable C and MVE need none.
uint64_t AvgpoolS16BufferSize(CmsisNnCodePath path, int64_t, int64_t channels) {
  return path == CmsisNnCodePath::kDsp ? Bytes(channels * 4) : 0;
}

// arm_svdf_get_buffer_sizes_s8.c (V.1.0.0): MVE keeps an int32 kernel sum per
// feature row (weights_feature dims n); the other paths none.
uint64_t SvdfS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& weights_feature) {
  return path == CmsisNnCodePath::kMve ? Bytes(weights_feature.n * 4) : 0;
}

}  // namespace tfa::tflm
