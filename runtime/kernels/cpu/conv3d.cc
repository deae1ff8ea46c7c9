#include "runtime/kernels/cpu/conv3d.h"

#include <array>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Sizes of a 3-D convolution seen from its "small" side (the forward conv's output, the
// transpose's input) and its "large" side.
struct Conv3DGeometry {
  int32_t batches = 0, in_c = 0, out_c = 0;
  std::array<int32_t, 3> large{}, small{}, kernel{}, stride{}, dilation{}, pad{};
};

Status FillWindow(const OpOptions& o, Conv3DGeometry& g) {
  g.stride = {o.stride_d, o.stride_h, o.stride_w};
  g.dilation = {o.dilation_d, o.dilation_h, o.dilation_w};
  for (int i = 0; i < 3; ++i) {
    const auto u = static_cast<size_t>(i);
    if (g.stride[u] <= 0 || g.dilation[u] <= 0)
      return Status::Error("strides and dilations must be positive");
    const int32_t out =
        ConvOutputSize(o.padding, g.large[u], g.kernel[u], g.stride[u], g.dilation[u]);
    if (out != g.small[u] && g.small[u] >= 0) {
      return Status::Error("spatial size " + std::to_string(g.small[u]) + " differs from the " +
                           std::to_string(out) + " the window gives");
    }
    g.small[u] = out;
    g.pad[u] =
        ConvPaddingBefore(o.padding, g.large[u], g.kernel[u], g.stride[u], g.dilation[u], out);
  }
  return Status::Ok();
}

Status CheckBias(const KernelContext& context, size_t index, int32_t channels) {
  if (!context.has_input(index)) return Status::Ok();
  TFA_RETURN_IF_ERROR(CheckType(context.input(index), TensorType::kFloat32, "bias"));
  if (context.input(index).NumElements() != channels)
    return Status::Error("bias size differs from the output channels");
  return Status::Ok();
}

Result<Conv3DGeometry> ForwardGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& filter = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(filter, TensorType::kFloat32, "filter"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 5, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(filter, 5, "filter"));
  Conv3DGeometry g;
  g.batches = in.Dim(0);
  g.in_c = in.Dim(4);
  g.out_c = filter.Dim(4);
  if (filter.Dim(3) != g.in_c) return Status::Error("filter input channels differ from input");
  g.large = {in.Dim(1), in.Dim(2), in.Dim(3)};
  g.kernel = {filter.Dim(0), filter.Dim(1), filter.Dim(2)};
  g.small = {-1, -1, -1};
  TFA_RETURN_IF_ERROR(FillWindow(context.options(), g));
  TFA_RETURN_IF_ERROR(CheckBias(context, 2, g.out_c));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0),
                                       {g.batches, g.small[0], g.small[1], g.small[2], g.out_c}));
  return g;
}

Result<Conv3DGeometry> TransposeGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 4, 1));
  const RuntimeTensor& shape = context.input(0);
  const RuntimeTensor& filter = context.input(1);
  const RuntimeTensor& in = context.input(2);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(filter, TensorType::kFloat32, "filter"));
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(out, TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 5, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(filter, 5, "filter"));
  auto dims = ReadIndexTensor(shape, "output_shape");
  if (!dims.ok()) return dims.status();
  if (dims->size() != 5) return Status::Error("output_shape must have 5 values");
  std::vector<int32_t> out_shape;
  for (int64_t d : *dims) out_shape.push_back(static_cast<int32_t>(d));
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, out_shape));
  Conv3DGeometry g;
  g.batches = in.Dim(0);
  g.in_c = in.Dim(4);
  g.out_c = filter.Dim(3);
  if (filter.Dim(4) != g.in_c) return Status::Error("filter input channels differ from input");
  if (out.Dim(0) != g.batches || out.Dim(4) != g.out_c)
    return Status::Error("output_shape " + ShapeString(out.shape) + " does not fit the filter");
  g.large = {out.Dim(1), out.Dim(2), out.Dim(3)};
  g.kernel = {filter.Dim(0), filter.Dim(1), filter.Dim(2)};
  g.small = {in.Dim(1), in.Dim(2), in.Dim(3)};
  TFA_RETURN_IF_ERROR(FillWindow(context.options(), g));
  TFA_RETURN_IF_ERROR(CheckBias(context, 3, g.out_c));
  return g;
}

// Calls visit(large_index, small_index, filter_offset) for every pair of a small-side position
// and a kernel tap that lands inside the large side; filter_offset counts kernel taps.
template <typename Visit>
void ForEachTap(const Conv3DGeometry& g, Visit visit) {
  const auto [ld, lh, lw] = g.large;
  const auto [sd, sh, sw] = g.small;
  const auto [kd, kh, kw] = g.kernel;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t z = 0; z < sd; ++z) {
      for (int32_t y = 0; y < sh; ++y) {
        for (int32_t x = 0; x < sw; ++x) {
          const int64_t small = ((static_cast<int64_t>(b) * sd + z) * sh + y) * sw + x;
          for (int32_t i = 0; i < kd; ++i) {
            const int32_t lz = z * g.stride[0] - g.pad[0] + i * g.dilation[0];
            if (lz < 0 || lz >= ld) continue;
            for (int32_t j = 0; j < kh; ++j) {
              const int32_t ly = y * g.stride[1] - g.pad[1] + j * g.dilation[1];
              if (ly < 0 || ly >= lh) continue;
              for (int32_t k = 0; k < kw; ++k) {
                const int32_t lx = x * g.stride[2] - g.pad[2] + k * g.dilation[2];
                if (lx < 0 || lx >= lw) continue;
                const int64_t large = ((static_cast<int64_t>(b) * ld + lz) * lh + ly) * lw + lx;
                visit(large, small, (static_cast<int64_t>(i) * kh + j) * kw + k);
              }
            }
          }
        }
      }
    }
  }
}

void AddBiasAndClamp(const KernelContext& context, size_t bias_index, const Conv3DGeometry& g,
                     ActivationRange range, float* out, int64_t positions) {
  const float* bias =
      context.has_input(bias_index) ? context.input(bias_index).Data<const float>() : nullptr;
  for (int64_t p = 0; p < positions; ++p) {
    for (int32_t c = 0; c < g.out_c; ++c) {
      float& v = out[p * g.out_c + c];
      v = range.Apply(bias ? v + bias[c] : v);
    }
  }
}

}  // namespace

Status PrepareConv3D(KernelContext& context) {
  TFA_RETURN_IF_ERROR(ForwardGeometry(context).status());
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalConv3D(KernelContext& context) {
  auto g = ForwardGeometry(context);
  if (!g.ok()) return g.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const float* in = context.input(0).Data<const float>();
  const float* filter = context.input(1).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t out_elements = context.output(0).NumElements();
  std::fill(out, out + out_elements, 0.0f);
  const int32_t in_c = g->in_c, out_c = g->out_c;
  ForEachTap(*g, [&](int64_t large, int64_t small, int64_t tap) {
    const float* x = in + large * in_c;
    const float* w = filter + tap * in_c * out_c;
    float* y = out + small * out_c;
    for (int32_t ic = 0; ic < in_c; ++ic) {
      for (int32_t oc = 0; oc < out_c; ++oc) y[oc] += x[ic] * w[ic * out_c + oc];
    }
  });
  AddBiasAndClamp(context, 2, *g, *range, out, out_elements / out_c);
  return Status::Ok();
}

Status PrepareConv3DTranspose(KernelContext& context) {
  TFA_RETURN_IF_ERROR(TransposeGeometry(context).status());
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalConv3DTranspose(KernelContext& context) {
  auto g = TransposeGeometry(context);
  if (!g.ok()) return g.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const float* filter = context.input(1).Data<const float>();
  const float* in = context.input(2).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t out_elements = context.output(0).NumElements();
  std::fill(out, out + out_elements, 0.0f);
  const int32_t in_c = g->in_c, out_c = g->out_c;
  ForEachTap(*g, [&](int64_t large, int64_t small, int64_t tap) {
    const float* x = in + small * in_c;
    const float* w = filter + tap * out_c * in_c;
    float* y = out + large * out_c;
    for (int32_t oc = 0; oc < out_c; ++oc) {
      for (int32_t ic = 0; ic < in_c; ++ic) y[oc] += x[ic] * w[oc * in_c + ic];
    }
  });
  AddBiasAndClamp(context, 3, *g, *range, out, out_elements / out_c);
  return Status::Ok();
}

}  // namespace tfa::runtime
