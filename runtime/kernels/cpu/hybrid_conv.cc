#include "runtime/kernels/cpu/hybrid_conv.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

struct HybridConv {
  ConvGeometry g{};
  HybridWeights weights;
  bool per_channel = false;  // upstream's is_hybrid_per_channel: scales not all equal
  bool im2col = false;       // upstream's need_im2col
  int64_t image_size = 0;    // input elements per batch
  int64_t rows = 0;          // output pixels over all batches
};

// Temporary order of upstream's AllocateTemporaryTensorsIfRequired.
struct TemporaryIndex {
  size_t im2col = 0, quantized = 0, factors = 0, accum = 0, offsets = 0, row_sums = 0, count = 0;
};

TemporaryIndex Temporaries(const HybridConv& h) {
  TemporaryIndex t;
  size_t next = 0;
  if (h.im2col) t.im2col = next++;
  t.quantized = next++;
  t.factors = next++;
  t.accum = next++;
  if (h.per_channel) {
    t.offsets = next++;
    t.row_sums = next++;
  }
  t.count = next;
  return t;
}

Result<HybridConv> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  TFA_RETURN_IF_ERROR(CheckConvBias(context, g->out_c));
  auto weights = ReadHybridWeights(context.input(1), "filter");
  if (!weights.ok()) return weights.status();
  HybridConv h;
  h.g = *g;
  h.weights = std::move(weights).value();
  // Per-channel scales that are all equal take the per-tensor kernel with the first scale.
  if (!h.weights.row_scales.empty()) {
    const std::vector<float>& s = h.weights.row_scales;
    if (std::all_of(s.begin(), s.end(), [&](float v) { return v == s.front(); })) {
      h.weights.scale = s.front();
      h.weights.row_scales.clear();
    } else {
      h.per_channel = true;
    }
  }
  h.im2col = g->dilation_h != 1 || g->dilation_w != 1 || g->stride_h != 1 || g->stride_w != 1 ||
             g->kh != 1 || g->kw != 1;
  h.image_size = int64_t{g->in_h} * g->in_w * g->in_c;
  h.rows = int64_t{g->batches} * g->out_h * g->out_w;
  if (g->batches == 0) return Status::Error("the input has no batch");
  return h;
}

// The kernel's buffers, in upstream's temporary order, with the sizes its Prepare gives them.
struct Buffers {
  int8_t* im2col = nullptr;
  int8_t* quantized = nullptr;
  float* factors = nullptr;
  int32_t* accum = nullptr;
  int32_t* offsets = nullptr;
  int32_t* row_sums = nullptr;
};

struct BufferBytes {
  uint64_t im2col = 0, quantized = 0, factors = 0, accum = 0, offsets = 0, row_sums = 0;
};

Result<BufferBytes> Sizes(const HybridConv& h) {
  const auto batches = static_cast<uint64_t>(h.g.batches);
  BufferBytes b;
  if (h.im2col) b.im2col = static_cast<uint64_t>(h.rows * h.g.depth());
  b.quantized = batches * static_cast<uint64_t>(h.image_size);
  // The per-tensor kernel spreads each image's factor over its output pixels in this buffer,
  // sized by input pixels: upstream relies on there being no more output pixels than input ones.
  const uint64_t factors = h.per_channel ? batches : static_cast<uint64_t>(h.rows);
  if (factors > batches * static_cast<uint64_t>(h.g.in_h) * h.g.in_w)
    return Status::Error("more output pixels than input pixels");
  b.factors = factors * sizeof(float);
  b.accum = static_cast<uint64_t>(h.rows * h.g.out_c) * sizeof(int32_t);
  if (h.per_channel) {
    b.offsets = batches * sizeof(int32_t);
    b.row_sums = static_cast<uint64_t>(h.g.out_c) * sizeof(int32_t);
  }
  return b;
}

uint64_t Aligned(uint64_t bytes) { return (bytes + 63) / 64 * 64; }

// Kernel scratch holding every buffer, for a node that has no planned temporaries (one a
// delegate's partition runs on this runtime's kernels).
uint64_t ScratchBytes(const BufferBytes& b) {
  return Aligned(b.im2col) + Aligned(b.quantized) + Aligned(b.factors) + Aligned(b.accum) +
         Aligned(b.offsets) + Aligned(b.row_sums);
}

Result<Buffers> GetBuffers(const KernelContext& context, const HybridConv& h) {
  auto sizes = Sizes(h);
  if (!sizes.ok()) return sizes.status();
  const BufferBytes& bytes = *sizes;
  const TemporaryIndex t = Temporaries(h);
  const bool planned = !context.temporaries.empty();
  uint8_t* next = context.scratch;
  auto get = [&](size_t i, uint64_t size, const char* name) -> Result<uint8_t*> {
    if (!planned) {
      uint8_t* at = next;
      next += Aligned(size);
      return at;
    }
    RuntimeTensor* r = context.temporary(i, size);
    if (!r)
      return Status::Error(std::string("the plan gave the hybrid kernel no ") + name + " buffer");
    return r->data;
  };
  Buffers b;
  if (h.im2col) {
    auto p = get(t.im2col, bytes.im2col, "im2col");
    if (!p.ok()) return p.status();
    b.im2col = reinterpret_cast<int8_t*>(*p);
  }
  auto q = get(t.quantized, bytes.quantized, "input_quantized");
  if (!q.ok()) return q.status();
  b.quantized = reinterpret_cast<int8_t*>(*q);
  auto f = get(t.factors, bytes.factors, "scaling_factors");
  if (!f.ok()) return f.status();
  b.factors = reinterpret_cast<float*>(*f);
  auto a = get(t.accum, bytes.accum, "accum_scratch");
  if (!a.ok()) return a.status();
  b.accum = reinterpret_cast<int32_t*>(*a);
  if (h.per_channel) {
    auto o = get(t.offsets, bytes.offsets, "input_offsets");
    if (!o.ok()) return o.status();
    b.offsets = reinterpret_cast<int32_t*>(*o);
    auto r = get(t.row_sums, bytes.row_sums, "row_sums");
    if (!r.ok()) return r.status();
    b.row_sums = reinterpret_cast<int32_t*>(*r);
  }
  return b;
}

// One output pixel's window of a quantized image as an im2col row: (ky, kx, c) along it, `pad`
// where the window leaves the image.
void Im2colRow(const ConvGeometry& g, const int8_t* image, int64_t pixel, int8_t pad, int8_t* dst) {
  const auto oy = static_cast<int32_t>(pixel / g.out_w);
  const auto ox = static_cast<int32_t>(pixel % g.out_w);
  for (int32_t ky = 0; ky < g.kh; ++ky) {
    const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    for (int32_t kx = 0; kx < g.kw; ++kx) {
      const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
      if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
        std::memset(dst, pad, static_cast<size_t>(g.in_c));
      } else {
        std::memcpy(dst, image + (int64_t{iy} * g.in_w + ix) * g.in_c, static_cast<size_t>(g.in_c));
      }
      dst += g.in_c;
    }
  }
}

// accum[row][oc] = the int32 dot product of the filter's row oc with the gemm input's row.
void Accumulate(const HybridConv& h, const int8_t* gemm_input, int32_t* accum,
                const KernelThreadPool* pool) {
  const int64_t depth = h.g.depth();
  const int64_t out_c = h.g.out_c;
  ParallelFor(pool, h.rows, 16, [&](int, int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int8_t* x = gemm_input + row * depth;
      for (int64_t oc = 0; oc < out_c; ++oc) {
        const int8_t* w = h.weights.data + oc * depth;
        int32_t sum = 0;
        for (int64_t k = 0; k < depth; ++k) sum += int32_t{w[k]} * int32_t{x[k]};
        accum[row * out_c + oc] = sum;
      }
    }
  });
}

}  // namespace

bool IsHybridConv2D(const KernelContext& context) {
  return context.inputs.size() >= 2 && context.inputs[0] && context.inputs[1] &&
         context.inputs[0]->type == TensorType::kFloat32 &&
         (context.inputs[1]->type == TensorType::kInt8 ||
          context.inputs[1]->type == TensorType::kUInt8 ||
          context.inputs[1]->type == TensorType::kInt4);
}

Status PrepareHybridConv2D(KernelContext& context) {
  auto h = Shape(context);
  if (!h.ok()) return h.status();
  TFA_RETURN_IF_ERROR(GetActivationRange(context.options().fused_activation).status());
  auto sizes = Sizes(*h);
  if (!sizes.ok()) return sizes.status();
  // A node inside a delegate's partition has no planned temporaries: it works in kernel scratch.
  if (context.temporaries.empty()) {
    context.scratch_bytes = ScratchBytes(*sizes);
    return Status::Ok();
  }
  const size_t expected = Temporaries(*h).count;
  if (context.temporaries.size() != expected) {
    return Status::Error("the plan gave the hybrid kernel " +
                         std::to_string(context.temporaries.size()) + " temporaries, upstream's " +
                         "Prepare adds " + std::to_string(expected));
  }
  return Status::Ok();
}

Status EvalHybridConv2D(KernelContext& context) {
  auto h = Shape(context);
  if (!h.ok()) return h.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  auto buffers = GetBuffers(context, *h);
  if (!buffers.ok()) return buffers.status();
  const Buffers& b = *buffers;
  const ConvGeometry& g = h->g;
  const float* input = context.input(0).Data<const float>();
  // Each image is quantized whole (upstream's per-batch quantization).
  for (int32_t n = 0; n < g.batches; ++n) {
    const int64_t at = n * h->image_size;
    if (h->per_channel) {
      const QuantizedRow row =
          AsymmetricQuantizeFloats(input + at, h->image_size, b.quantized + at);
      b.factors[n] = row.scale;
      b.offsets[n] = row.offset;
    } else {
      const QuantizedRow row = SymmetricQuantizeFloats(input + at, h->image_size, b.quantized + at);
      b.factors[n] = row.scale * h->weights.scale;
    }
  }
  const int8_t* gemm_input = b.quantized;
  const int64_t pixels = int64_t{g.out_h} * g.out_w;
  const int64_t depth = g.depth();
  if (h->im2col) {
    for (int32_t n = 0; n < g.batches; ++n) {
      const auto pad = static_cast<int8_t>(h->per_channel ? b.offsets[n] : 0);
      for (int64_t p = 0; p < pixels; ++p) {
        Im2colRow(g, b.quantized + n * h->image_size, p, pad, b.im2col + (n * pixels + p) * depth);
      }
    }
    gemm_input = b.im2col;
  }
  Accumulate(*h, gemm_input, b.accum, context.thread_pool);
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  float* out = context.output(0).Data<float>();
  const int64_t out_c = g.out_c;
  if (h->per_channel) {
    for (int64_t oc = 0; oc < out_c; ++oc) {
      int32_t sum = 0;
      for (int64_t k = 0; k < depth; ++k) sum += h->weights.data[oc * depth + k];
      b.row_sums[oc] = sum;
    }
    for (int64_t row = 0; row < h->rows; ++row) {
      const int64_t n = row / pixels;
      const float image_scale = b.factors[n];
      const int32_t zero_point = b.offsets[n];
      for (int64_t oc = 0; oc < out_c; ++oc) {
        const float scale = h->weights.row_scales[static_cast<size_t>(oc)] * image_scale;
        const float value =
            static_cast<float>(b.accum[row * out_c + oc] - b.row_sums[oc] * zero_point) * scale +
            (bias ? bias[oc] : 0.0f);
        out[row * out_c + oc] = range->Apply(value);
      }
    }
    return Status::Ok();
  }
  // Upstream copies each image's factor to every one of its output rows, last row first.
  for (int64_t row = h->rows - 1; row >= 0; --row) b.factors[row] = b.factors[row / pixels];
  for (int64_t row = 0; row < h->rows; ++row) {
    const float factor = b.factors[row];
    for (int64_t oc = 0; oc < out_c; ++oc) {
      const float value = (0.0f + static_cast<float>(b.accum[row * out_c + oc]) * factor) +
                          (bias ? bias[oc] : 0.0f);
      out[row * out_c + oc] = range->Apply(value);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
