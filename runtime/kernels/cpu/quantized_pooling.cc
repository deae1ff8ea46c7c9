#include "runtime/kernels/cpu/quantized_pooling.h"

#include <algorithm>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// The shared window geometry, and the output range the fused activation clamps to.
struct QuantizedPoolGeometry : PoolGeometry {
  QuantizedRange range;
};

Result<QuantizedPoolGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(output, input.type, "output"));
  auto in = PerTensorParams(input, "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(output, "output");
  if (!out.ok()) return out.status();
  if (in->scale != out->scale || in->zero_point != out->zero_point)
    return Status::Error("input and output quantization differ");
  auto window = PoolGeometryOf(context);
  if (!window.ok()) return window.status();
  QuantizedPoolGeometry g{*window, {}};
  auto range = QuantizedActivationRange(context.options().fused_activation, output.type, *out);
  if (!range.ok()) return range.status();
  g.range = *range;
  return g;
}

template <typename T, bool kAverage>
void Pool(KernelContext& context, const QuantizedPoolGeometry& g) {
  const OpOptions& o = context.options();
  const T* input = context.input(0).Data<const T>();
  T* output = context.output(0).Data<T>();
  const int64_t c_count = g.channels;
  std::vector<int32_t> acc(static_cast<size_t>(c_count));
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      const int32_t y0 = std::max(0, oy * o.stride_h - g.pad_top);
      const int32_t y1 = std::min(g.in_h, oy * o.stride_h - g.pad_top + o.filter_h);
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t x0 = std::max(0, ox * o.stride_w - g.pad_left);
        const int32_t x1 = std::min(g.in_w, ox * o.stride_w - g.pad_left + o.filter_w);
        std::fill(acc.begin(), acc.end(), kAverage ? 0 : -(1 << 30));
        for (int32_t y = y0; y < y1; ++y) {
          for (int32_t x = x0; x < x1; ++x) {
            const T* in = input + ((int64_t{b} * g.in_h + y) * g.in_w + x) * c_count;
            for (int64_t c = 0; c < c_count; ++c) {
              acc[static_cast<size_t>(c)] =
                  kAverage ? acc[static_cast<size_t>(c)] + in[c]
                           : std::max<int32_t>(acc[static_cast<size_t>(c)], in[c]);
            }
          }
        }
        const int32_t count = (y1 - y0) * (x1 - x0);
        T* out = output + ((int64_t{b} * g.out_h + oy) * g.out_w + ox) * c_count;
        for (int64_t c = 0; c < c_count; ++c) {
          int32_t v = acc[static_cast<size_t>(c)];
          if (kAverage) {
            if (count == 0) {
              v = 0;
            } else {
              v = v > 0 ? (v + count / 2) / count : (v - count / 2) / count;
            }
          }
          out[c] = static_cast<T>(g.range.Clamp(v));
        }
      }
    }
  }
}

template <bool kAverage>
Status Run(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  if (context.input(0).type == TensorType::kInt8) {
    Pool<int8_t, kAverage>(context, *g);
  } else if (context.input(0).type == TensorType::kInt16) {
    Pool<int16_t, kAverage>(context, *g);
  } else {
    Pool<uint8_t, kAverage>(context, *g);
  }
  return Status::Ok();
}

}  // namespace

Status PrepareQuantizedPool2D(KernelContext& context) { return Geometry(context).status(); }
Status EvalQuantizedMaxPool2D(KernelContext& context) { return Run<false>(context); }
Status EvalQuantizedAveragePool2D(KernelContext& context) { return Run<true>(context); }

}  // namespace tfa::runtime
