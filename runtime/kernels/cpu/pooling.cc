#include "runtime/kernels/cpu/pooling.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

Result<PoolGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  return PoolGeometryOf(context);
}

enum class PoolKind { kAverage, kMax, kL2 };

template <PoolKind kKind>
Status Pool(KernelContext& context) {
  auto geometry = Geometry(context);
  if (!geometry.ok()) return geometry.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const PoolGeometry& g = *geometry;
  const OpOptions& o = context.options();
  const float* input = context.input(0).Data<const float>();
  float* output = context.output(0).Data<float>();
  const int32_t c_count = g.channels;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      const int32_t y0 = oy * o.stride_h - g.pad_top;
      const int32_t y_begin = std::max(0, y0), y_end = std::min(g.in_h, y0 + o.filter_h);
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t x0 = ox * o.stride_w - g.pad_left;
        const int32_t x_begin = std::max(0, x0), x_end = std::min(g.in_w, x0 + o.filter_w);
        float* out = output + ((int64_t{b} * g.out_h + oy) * g.out_w + ox) * c_count;
        std::fill(out, out + c_count,
                  kKind == PoolKind::kMax ? std::numeric_limits<float>::lowest() : 0.0f);
        for (int32_t y = y_begin; y < y_end; ++y) {
          for (int32_t x = x_begin; x < x_end; ++x) {
            const float* in = input + ((int64_t{b} * g.in_h + y) * g.in_w + x) * c_count;
            for (int32_t c = 0; c < c_count; ++c) {
              if constexpr (kKind == PoolKind::kAverage) out[c] += in[c];
              if constexpr (kKind == PoolKind::kMax) out[c] = std::max(out[c], in[c]);
              if constexpr (kKind == PoolKind::kL2) out[c] += in[c] * in[c];
            }
          }
        }
        const int32_t count = (y_end - y_begin) * (x_end - x_begin);
        for (int32_t c = 0; c < c_count; ++c) {
          float v = out[c];
          if constexpr (kKind != PoolKind::kMax) {
            v = count > 0 ? v / static_cast<float>(count) : 0.0f;
          }
          if constexpr (kKind == PoolKind::kL2) v = std::sqrt(v);
          out[c] = range->Apply(v);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status PreparePool2D(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalAveragePool2D(KernelContext& context) { return Pool<PoolKind::kAverage>(context); }
Status EvalMaxPool2D(KernelContext& context) { return Pool<PoolKind::kMax>(context); }
Status EvalL2Pool2D(KernelContext& context) { return Pool<PoolKind::kL2>(context); }

}  // namespace tfa::runtime
