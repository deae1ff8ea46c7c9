#include "runtime/kernels/cpu/transform_tensor_bilinear.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/flexbuffer_map.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// An output_height / output_width option, when the options carry it, must be the output's size.
Status CheckSizeOption(const FlexbufferMap& options, const char* key, int32_t actual) {
  if (!options.Has(key)) return Status::Ok();
  auto value = options.Int(key);
  if (!value.ok()) return value.status();
  if (*value == actual) return Status::Ok();
  return Status::Error(std::string("custom option '") + key + "' is " + std::to_string(*value) +
                       ", the output has " + std::to_string(actual));
}

}  // namespace

Status PrepareTransformTensorBilinear(KernelContext& context) {
  if (context.node->version != 2) {
    return Status::Error("version " + std::to_string(context.node->version) +
                         " is not supported (mediapipe registers version 2)");
  }
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& matrix = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  TFA_RETURN_IF_ERROR(CheckType(matrix, TensorType::kFloat32, "matrix"));
  if (matrix.NumElements() != 16)
    return Status::Error("matrix has shape " + ShapeString(matrix.shape) + ", expected 16 values");
  TFA_RETURN_IF_ERROR(CheckType(out, TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(out, 4, "output"));
  // Upstream samples only the first batch and reads input channel c for output channel c.
  if (in.Dim(0) != 1 || out.Dim(0) != 1) return Status::Error("batch must be 1");
  if (out.Dim(3) != in.Dim(3)) {
    return Status::Error("output has " + std::to_string(out.Dim(3)) + " channels, input has " +
                         std::to_string(in.Dim(3)));
  }
  auto options = FlexbufferMap::Read(context.node_data ? context.node_data->custom_options
                                                       : std::span<const uint8_t>());
  if (!options.ok()) return options.status();
  TFA_RETURN_IF_ERROR(CheckSizeOption(*options, "output_height", out.Dim(1)));
  return CheckSizeOption(*options, "output_width", out.Dim(2));
}

Status EvalTransformTensorBilinear(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareTransformTensorBilinear(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const float* m = context.input(1).Data<const float>();
  const int32_t in_h = in.Dim(1), in_w = in.Dim(2), channels = in.Dim(3);
  const int32_t out_h = out.Dim(1), out_w = out.Dim(2);
  // Align-corners correction: the matrix is applied as shift(-0.5) * M * shift(+0.5), so that
  // it maps pixel centres to pixel centres. Upstream computes it, and the blends below, in
  // double and rounds to float where it stores; so does this.
  const float x_offset = static_cast<float>(m[3] + (m[0] * 0.5 + m[1] * 0.5 - 0.5));
  const float y_offset = static_cast<float>(m[7] + (m[4] * 0.5 + m[5] * 0.5 - 0.5));
  const float* image = in.Data<const float>();
  float* dst = out.Data<float>();
  for (int32_t oy = 0; oy < out_h; ++oy) {
    for (int32_t ox = 0; ox < out_w; ++ox, dst += channels) {
      const float fx = static_cast<float>(ox), fy = static_cast<float>(oy);
      const float sx = m[0] * fx + m[1] * fy + x_offset;
      const float sy = m[4] * fx + m[5] * fy + y_offset;
      // Written as a negated "inside" test so that a NaN sample point reads as outside.
      if (!(sx >= 0 && sx <= static_cast<float>(in_w - 1) && sy >= 0 &&
            sy <= static_cast<float>(in_h - 1))) {
        std::fill(dst, dst + channels, 0.0f);
        continue;
      }
      const int32_t x0 = static_cast<int32_t>(std::floor(sx));
      const int32_t y0 = static_cast<int32_t>(std::floor(sy));
      const double wx = sx - static_cast<float>(x0), wy = sy - static_cast<float>(y0);
      // On the last row or column the far neighbour lies outside: upstream reads it as 0 (its
      // weight is 0 there).
      const float* p00 = image + (int64_t{y0} * in_w + x0) * channels;
      const float* p01 = x0 + 1 < in_w ? p00 + channels : nullptr;
      const float* p10 = y0 + 1 < in_h ? p00 + int64_t{in_w} * channels : nullptr;
      const float* p11 = p01 && p10 ? p10 + channels : nullptr;
      for (int32_t c = 0; c < channels; ++c) {
        const float q01 = p01 ? p01[c] : 0.0f, q10 = p10 ? p10[c] : 0.0f;
        const float q11 = p11 ? p11[c] : 0.0f;
        const float upper = static_cast<float>((1.0 - wx) * p00[c] + wx * q01);
        const float lower = static_cast<float>((1.0 - wx) * q10 + wx * q11);
        dst[c] = static_cast<float>(wy * lower + (1.0 - wy) * upper);
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
