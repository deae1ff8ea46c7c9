#include "runtime/kernels/cpu/space_batch.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kSpaceBatchTypes = {TensorType::kFloat32, TensorType::kInt32,
                                         TensorType::kInt64,   TensorType::kUInt8,
                                         TensorType::kInt8,    TensorType::kInt16};

// The op as 4-D NHWC: a 3-D input has width 1 and a block of width 1 with no padding there.
struct SpaceBatchGeometry {
  int32_t in_n = 0, in_h = 0, in_w = 0, depth = 0;
  int32_t out_n = 0, out_h = 0, out_w = 0;
  int32_t block_h = 1, block_w = 1;
  int32_t before_h = 0, before_w = 0;  // SPACE_TO_BATCH_ND padding / BATCH_TO_SPACE_ND crop
  uint64_t element_bytes = 0;
};

// Scale and zero point, 0 for a tensor without quantization (upstream's params default).
std::pair<float, int64_t> QuantizationOf(const RuntimeTensor& t) {
  const Quantization* q = t.quantization;
  const float scale = q && !q->scale.empty() ? q->scale[0] : 0.0f;
  return {scale, q && !q->zero_point.empty() ? q->zero_point[0] : 0};
}

Result<SpaceBatchGeometry> Geometry(const KernelContext& context, bool to_batch) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kSpaceBatchTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  if (in.Rank() != 3 && in.Rank() != 4) {
    return Status::Error("input has shape " + ShapeString(in.shape) + ", expected rank 3 or 4");
  }
  if (in.type == TensorType::kInt8 || in.type == TensorType::kUInt8 ||
      in.type == TensorType::kInt16) {
    const auto in_q = QuantizationOf(in), out_q = QuantizationOf(context.output(0));
    if (in_q != out_q) return Status::Error("input and output must share scale and zero point");
    if (in.type == TensorType::kInt16 && out_q.second != 0) {
      return Status::Error("int16 input and output must have zero point 0");
    }
  }
  const int spatial = in.Rank() - 2;
  const RuntimeTensor& block = context.input(1);
  const RuntimeTensor& pads = context.input(2);
  TFA_RETURN_IF_ERROR(CheckType(block, TensorType::kInt32, "block shape"));
  TFA_RETURN_IF_ERROR(CheckType(pads, TensorType::kInt32, to_batch ? "paddings" : "crops"));
  if (block.shape != std::vector<int32_t>{spatial} ||
      pads.shape != std::vector<int32_t>{spatial, 2}) {
    return Status::Error("block shape " + ShapeString(block.shape) + " and " +
                         (to_batch ? "paddings " : "crops ") + ShapeString(pads.shape) +
                         " do not fit " + std::to_string(spatial) + " spatial dimensions");
  }
  if (!block.data || !pads.data) return Status::Error("block shape or paddings have no data");
  const int32_t* b = block.Data<const int32_t>();
  const int32_t* p = pads.Data<const int32_t>();
  SpaceBatchGeometry g;
  g.element_bytes = ElementSize(in.type).value_or(1);
  g.in_n = in.Dim(0);
  g.in_h = in.Dim(1);
  g.in_w = spatial == 2 ? in.Dim(2) : 1;
  g.depth = in.shape.back();
  g.block_h = b[0];
  g.block_w = spatial == 2 ? b[1] : 1;
  const int32_t after_h = p[1];
  const int32_t after_w = spatial == 2 ? p[3] : 0;
  g.before_h = p[0];
  g.before_w = spatial == 2 ? p[2] : 0;
  if (g.block_h <= 0 || g.block_w <= 0) return Status::Error("block shape must be positive");
  if (g.before_h < 0 || after_h < 0 || g.before_w < 0 || after_w < 0) {
    return Status::Error(std::string(to_batch ? "paddings" : "crops") + " must not be negative");
  }
  std::vector<int32_t> shape = in.shape;
  const int64_t blocks = int64_t{g.block_h} * g.block_w;
  if (to_batch) {
    const int64_t padded_h = int64_t{g.in_h} + g.before_h + after_h;
    const int64_t padded_w = int64_t{g.in_w} + g.before_w + after_w;
    if (padded_h % g.block_h != 0 || padded_w % g.block_w != 0) {
      return Status::Error("padded spatial size is not a multiple of the block shape");
    }
    g.out_n = static_cast<int32_t>(g.in_n * blocks);
    g.out_h = static_cast<int32_t>(padded_h / g.block_h);
    g.out_w = static_cast<int32_t>(padded_w / g.block_w);
  } else {
    if (g.in_n % blocks != 0) {
      return Status::Error("input batch " + std::to_string(g.in_n) +
                           " is not a multiple of the block size " + std::to_string(blocks));
    }
    const int64_t cropped_h = int64_t{g.in_h} * g.block_h - g.before_h - after_h;
    const int64_t cropped_w = int64_t{g.in_w} * g.block_w - g.before_w - after_w;
    if (cropped_h < 0 || cropped_w < 0) return Status::Error("crops exceed the spatial size");
    g.out_n = static_cast<int32_t>(g.in_n / blocks);
    g.out_h = static_cast<int32_t>(cropped_h);
    g.out_w = static_cast<int32_t>(cropped_w);
  }
  shape[0] = g.out_n;
  shape[1] = g.out_h;
  if (spatial == 2) shape[2] = g.out_w;
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return g;
}

// The bytes one padded element holds.
std::vector<uint8_t> PadElement(const RuntimeTensor& out, uint64_t element_bytes) {
  std::vector<uint8_t> pad(element_bytes, 0);
  const int64_t zero_point = QuantizationOf(out).second;
  if (element_bytes == 1) {
    pad[0] = static_cast<uint8_t>(zero_point);
  } else if (element_bytes == 2) {
    const auto value = static_cast<int16_t>(zero_point);
    std::memcpy(pad.data(), &value, sizeof(value));
  }
  return pad;
}

}  // namespace

Status PrepareSpaceToBatchNd(KernelContext& context) { return Geometry(context, true).status(); }

Status EvalSpaceToBatchNd(KernelContext& context) {
  auto g = Geometry(context, true);
  if (!g.ok()) return g.status();
  const uint8_t* in = context.input(0).data;
  RuntimeTensor& output = context.output(0);
  uint8_t* out = output.data;
  const uint64_t row = static_cast<uint64_t>(g->depth) * g->element_bytes;
  const std::vector<uint8_t> pad = PadElement(output, g->element_bytes);
  for (int32_t ob = 0; ob < g->out_n; ++ob) {
    const int32_t ib = ob % g->in_n;
    const int32_t offset = ob / g->in_n;
    const int32_t shift_h = offset / g->block_w, shift_w = offset % g->block_w;
    for (int32_t oh = 0; oh < g->out_h; ++oh) {
      const int64_t ih = int64_t{oh} * g->block_h + shift_h - g->before_h;
      for (int32_t ow = 0; ow < g->out_w; ++ow) {
        const int64_t iw = int64_t{ow} * g->block_w + shift_w - g->before_w;
        uint8_t* dst = out + ((static_cast<uint64_t>(ob) * g->out_h + oh) * g->out_w + ow) * row;
        if (ih < 0 || ih >= g->in_h || iw < 0 || iw >= g->in_w) {
          for (int32_t c = 0; c < g->depth; ++c) {
            std::memcpy(dst + static_cast<uint64_t>(c) * g->element_bytes, pad.data(),
                        g->element_bytes);
          }
          continue;
        }
        const uint8_t* src =
            in + ((static_cast<uint64_t>(ib) * g->in_h + static_cast<uint64_t>(ih)) * g->in_w +
                  static_cast<uint64_t>(iw)) *
                     row;
        std::memcpy(dst, src, row);
      }
    }
  }
  return Status::Ok();
}

Status PrepareBatchToSpaceNd(KernelContext& context) { return Geometry(context, false).status(); }

Status EvalBatchToSpaceNd(KernelContext& context) {
  auto g = Geometry(context, false);
  if (!g.ok()) return g.status();
  const uint8_t* in = context.input(0).data;
  uint8_t* out = context.output(0).data;
  const uint64_t row = static_cast<uint64_t>(g->depth) * g->element_bytes;
  for (int32_t ib = 0; ib < g->in_n; ++ib) {
    const int32_t ob = ib % g->out_n;
    const int32_t offset = ib / g->out_n;
    const int32_t shift_h = offset / g->block_w, shift_w = offset % g->block_w;
    for (int32_t ih = 0; ih < g->in_h; ++ih) {
      const int64_t oh = int64_t{ih} * g->block_h + shift_h - g->before_h;
      if (oh < 0 || oh >= g->out_h) continue;
      for (int32_t iw = 0; iw < g->in_w; ++iw) {
        const int64_t ow = int64_t{iw} * g->block_w + shift_w - g->before_w;
        if (ow < 0 || ow >= g->out_w) continue;
        const uint8_t* src = in + ((static_cast<uint64_t>(ib) * g->in_h + ih) * g->in_w + iw) * row;
        uint8_t* dst =
            out + ((static_cast<uint64_t>(ob) * g->out_h + static_cast<uint64_t>(oh)) * g->out_w +
                   static_cast<uint64_t>(ow)) *
                      row;
        std::memcpy(dst, src, row);
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
