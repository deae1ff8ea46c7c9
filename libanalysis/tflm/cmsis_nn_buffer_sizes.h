// The buffer sizes CMSIS-NN's `arm_*_get_buffer_size*` functions return (ARM-software/CMSIS-NN
// Source/), for the three code paths the library compiles: portable C, the DSP extension
// (ARM_MATH_DSP: Cortex-M4, M7, M33) and Helium (ARM_MATH_MVEI: Cortex-M55, M85). TFLM's
// CMSIS-NN kernels request these as scratch or persistent buffers (cmsis_nn_kernels.h). No
// reference here runs CMSIS-NN: every figure is a prediction from the library's source.
#ifndef LIBANALYSIS_TFLM_CMSIS_NN_BUFFER_SIZES_H_
#define LIBANALYSIS_TFLM_CMSIS_NN_BUFFER_SIZES_H_

#include <cstdint>

#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

enum class CmsisNnCodePath : uint8_t {
  kPlainC,  // neither ARM_MATH_DSP nor ARM_MATH_MVEI: Cortex-M0, M0+, M3, or no --cpu
  kDsp,     // ARM_MATH_DSP without MVE: Cortex-M4, M7, M33
  kMve,     // ARM_MATH_MVEI (ARM_MATH_DSP too): Cortex-M55, M85
};

CmsisNnCodePath CodePathOf(CmsisNnCpu cpu);
const char* CodePathName(CmsisNnCodePath path);  // "plain-c", "dsp", "mve"

// cmsis_nn_dims: n, h, w, c (int32_t upstream; wider here so a hostile shape cannot wrap).
struct CmsisNnDims {
  int64_t n = 1, h = 1, w = 1, c = 1;
};

// The fields of cmsis_nn_conv_params / cmsis_nn_dw_conv_params the size functions read.
struct CmsisNnConvParams {
  int64_t stride_w = 1, stride_h = 1;
  int64_t padding_w = 0, padding_h = 0;
  int64_t dilation_w = 1, dilation_h = 1;
};

// arm_convolve_s8_get_buffer_size of CMSIS-NN's 2024 releases (the revision the transpose
// convolution's size functions call).
uint64_t ConvolveS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& input,
                              const CmsisNnDims& filter);
uint64_t ConvolveWrapperS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                     const CmsisNnDims& input, const CmsisNnDims& filter);
uint64_t ConvolveWrapperS16BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                      const CmsisNnDims& input, const CmsisNnDims& filter);
uint64_t Convolve1x1S8FastBufferSize(CmsisNnCodePath path, const CmsisNnDims& input);
uint64_t DepthwiseConvWrapperS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                          const CmsisNnDims& input, const CmsisNnDims& filter,
                                          const CmsisNnDims& output);
uint64_t DepthwiseConvWrapperS4BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                          const CmsisNnDims& input, const CmsisNnDims& filter,
                                          const CmsisNnDims& output);
// arm_transpose_conv_s8's two buffers: `ctx` (the convolution's columns, or the rolling output
// rows) and `output_ctx` (the reversed filter); filter dims n is the output depth.
uint64_t TransposeConvS8BufferSize(CmsisNnCodePath path, const CmsisNnConvParams& params,
                                   const CmsisNnDims& input, const CmsisNnDims& filter,
                                   const CmsisNnDims& output);
uint64_t TransposeConvS8ReverseConvBufferSize(const CmsisNnConvParams& params,
                                              const CmsisNnDims& input, const CmsisNnDims& filter);
uint64_t FullyConnectedS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& filter);
uint64_t FullyConnectedS16BufferSize(CmsisNnCodePath path, const CmsisNnDims& filter);
uint64_t AvgpoolS8BufferSize(CmsisNnCodePath path, int64_t output_w, int64_t channels);
uint64_t AvgpoolS16BufferSize(CmsisNnCodePath path, int64_t output_w, int64_t channels);
uint64_t SvdfS8BufferSize(CmsisNnCodePath path, const CmsisNnDims& weights_feature);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_CMSIS_NN_BUFFER_SIZES_H_
