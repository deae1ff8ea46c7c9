#include "runtime/kernels/cpu/depth_to_space.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

Result<int32_t> BlockSize(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  TFA_RETURN_IF_ERROR(CheckRank(context.input(0), 4, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), context.input(0).type, "output"));
  const int32_t bs = context.node_data ? context.node_data->block_size : 0;
  if (bs <= 0) return Status::Error("block size must be positive");
  if (!ElementSize(context.input(0).type)) return Status::Error("element type has no fixed size");
  return bs;
}

// Copies between the deep layout [b, h, w, bs*bs*c] and the wide one [b, h*bs, w*bs, c];
// `to_space` says which way.
void Shuffle(const RuntimeTensor& deep_shape_source, int32_t bs, int32_t c, bool to_space,
             const uint8_t* src, uint8_t* dst, uint64_t element) {
  const int32_t batches = deep_shape_source.Dim(0), h = deep_shape_source.Dim(1),
                w = deep_shape_source.Dim(2);
  const uint64_t run = static_cast<uint64_t>(c) * element;
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t y = 0; y < h * bs; ++y) {
      for (int32_t x = 0; x < w * bs; ++x) {
        const int64_t deep = ((int64_t{b} * h + y / bs) * w + x / bs) * bs * bs * c +
                             ((y % bs) * bs + x % bs) * int64_t{c};
        const int64_t wide = ((int64_t{b} * h * bs + y) * w * bs + x) * int64_t{c};
        if (to_space) {
          std::memcpy(dst + static_cast<uint64_t>(wide) * element,
                      src + static_cast<uint64_t>(deep) * element, run);
        } else {
          std::memcpy(dst + static_cast<uint64_t>(deep) * element,
                      src + static_cast<uint64_t>(wide) * element, run);
        }
      }
    }
  }
}

}  // namespace

Status PrepareDepthToSpace(KernelContext& context) {
  auto bs = BlockSize(context);
  if (!bs.ok()) return bs.status();
  const RuntimeTensor& in = context.input(0);
  if (in.Dim(3) % (*bs * *bs) != 0) return Status::Error("depth is not a multiple of block_size^2");
  return CheckOutputShape(context.output(0),
                          {in.Dim(0), in.Dim(1) * *bs, in.Dim(2) * *bs, in.Dim(3) / (*bs * *bs)});
}

Status EvalDepthToSpace(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareDepthToSpace(context));
  const int32_t bs = context.node_data->block_size;
  const RuntimeTensor& in = context.input(0);
  Shuffle(in, bs, context.output(0).Dim(3), true, in.data, context.output(0).data,
          *ElementSize(in.type));
  return Status::Ok();
}

Status PrepareSpaceToDepth(KernelContext& context) {
  auto bs = BlockSize(context);
  if (!bs.ok()) return bs.status();
  const RuntimeTensor& in = context.input(0);
  if (in.Dim(1) % *bs != 0 || in.Dim(2) % *bs != 0)
    return Status::Error("height or width is not a multiple of block_size");
  return CheckOutputShape(context.output(0),
                          {in.Dim(0), in.Dim(1) / *bs, in.Dim(2) / *bs, in.Dim(3) * *bs * *bs});
}

Status EvalSpaceToDepth(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSpaceToDepth(context));
  const int32_t bs = context.node_data->block_size;
  const RuntimeTensor& in = context.input(0);
  Shuffle(context.output(0), bs, in.Dim(3), false, in.data, context.output(0).data,
          *ElementSize(in.type));
  return Status::Ok();
}

}  // namespace tfa::runtime
