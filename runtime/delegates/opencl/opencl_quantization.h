// How the OpenCL delegate runs quantized models, as upstream's GPU delegate does with quantized
// ops allowed (tflite/delegates/gpu/delegate.cc, common/model_builder.cc, common/object_reader.cc,
// common/model_builder_helper.cc, common/quantization_util.cc):
//
// - Every non-constant int8/uint8 tensor of a partition is float32 on the device (its "float
//   twin"); the ops compute in float between them, with no rounding to the quantized grid.
// - Quantized constants (int8/uint8/int16 weights, int32 biases; per tensor or per channel) are
//   dequantized to float32 once, when the delegate reads them.
// - At the partition's boundary, the delegate dequantizes its int8/uint8 inputs on the host into
//   their float twins and quantizes its outputs back from theirs (per tensor only: upstream refuses
//   per-channel non-constant tensors).
// - QUANTIZE and DEQUANTIZE nodes inside the partition are a quantize-and-dequantize round trip
//   on float values (FakeQuantRange).
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_QUANTIZATION_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_QUANTIZATION_H_

#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegates/opencl/opencl_precision.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// Whether the delegate keeps `tensor` as a float twin on the device: a non-constant int8 or uint8
// tensor (upstream's ReadNonConstantTensor twins exactly these).
bool HasFloatTwin(const RuntimeTensor& tensor);

// The float twin's description: float32, same shape, the quantization kept (QUANTIZE and
// DEQUANTIZE nodes read it), no data.
RuntimeTensor FloatTwin(const RuntimeTensor& tensor);

// Whether `tensor` is a constant the delegate dequantizes when it reads it: int8, uint8, int16 or
// int32 data with a quantization scale.
bool IsQuantizedConstant(const RuntimeTensor& tensor);

// The float values of a quantized constant, scale * (q - zero point) per tensor or per channel of
// the quantized dimension (upstream's DequantizeConstantTensor).
[[nodiscard]] Result<std::vector<float>> DequantizeConstant(const RuntimeTensor& tensor);

// Boundary conversions of a per-tensor int8/uint8 tensor and its float twin's `values`:
// scale * (q - zero point), and clamp(round(x / scale) + zero point) with halves rounded away
// from zero (upstream's optimized Dequantize and AffineQuantize).
[[nodiscard]] Status DequantizeToFloat(const RuntimeTensor& quantized, float* values);
[[nodiscard]] Status QuantizeFromFloat(const float* values, RuntimeTensor& quantized);

// The quantize-and-dequantize round trip of QUANTIZE / DEQUANTIZE inside a partition, with the
// quantized tensor's parameters: values are clamped to [min, max], rounded to the grid of `scale`
// counted from min (upstream's QuantizeAndDequantize task).
struct FakeQuantRange {
  float min = 0;
  float max = 0;
  float scale = 0;
};

// The range of the int8/uint8 tensor `quantized` (per tensor only), as upstream's
// PopulateQuantParams computes it. At fp16 storage a scale below fp16's smallest normal number is
// raised to it, as upstream's task does.
[[nodiscard]] Result<FakeQuantRange> FakeQuantRangeOf(const RuntimeTensor& quantized,
                                                      ClPrecision precision);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_QUANTIZATION_H_
