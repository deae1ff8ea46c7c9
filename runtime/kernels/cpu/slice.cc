#include "runtime/kernels/cpu/slice.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

// Per input dimension: first index, step and count of the selected elements.
struct Selection {
  std::vector<int64_t> start, step, count;
};

// Copies the selected elements of `in` (in row-major order of the selection) to `out`.
void Gather(const RuntimeTensor& in, const Selection& s, RuntimeTensor& out) {
  const uint64_t element = ElementSize(in.type).value_or(0);
  const int rank = in.Rank();
  int64_t total = 1;
  for (int64_t c : s.count) total *= c;
  if (total == 0) return;
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d) + 1] * in.Dim(d + 1);
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  for (int64_t o = 0; o < total; ++o) {
    int64_t source = 0;
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d)
      source += (s.start[d] + index[d] * s.step[d]) * strides[d];
    std::memcpy(out.data + static_cast<uint64_t>(o) * element,
                in.data + static_cast<uint64_t>(source) * element, element);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < s.count[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

Result<Selection> SliceSelection(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  auto begin = ReadIndexTensor(context.input(1), "begin");
  if (!begin.ok()) return begin.status();
  auto size = ReadIndexTensor(context.input(2), "size");
  if (!size.ok()) return size.status();
  const auto rank = static_cast<size_t>(in.Rank());
  if (begin->size() != rank || size->size() != rank)
    return Status::Error("begin and size must have one entry per dimension");
  Selection s;
  std::vector<int32_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dim = in.shape[d];
    const int64_t b = (*begin)[d];
    const int64_t n = (*size)[d] == -1 ? dim - b : (*size)[d];
    if (b < 0 || n < 0 || b + n > dim)
      return Status::Error("slice leaves dimension " + std::to_string(d));
    s.start.push_back(b);
    s.step.push_back(1);
    s.count.push_back(n);
    shape.push_back(static_cast<int32_t>(n));
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return s;
}

Result<Selection> StridedSelection(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 4, 4, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  const OpOptions& o = context.options();
  if (o.ellipsis_mask != 0 || o.new_axis_mask != 0)
    return Status::Error("ellipsis and new-axis masks are not supported");
  auto begin = ReadIndexTensor(context.input(1), "begin");
  if (!begin.ok()) return begin.status();
  auto end = ReadIndexTensor(context.input(2), "end");
  if (!end.ok()) return end.status();
  auto strides = ReadIndexTensor(context.input(3), "strides");
  if (!strides.ok()) return strides.status();
  const auto rank = static_cast<size_t>(in.Rank());
  if (begin->size() != rank || end->size() != rank || strides->size() != rank) {
    return Status::Error("begin, end and strides must have one entry per dimension");
  }
  constexpr int64_t kLowest = std::numeric_limits<int32_t>::lowest();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  Selection s;
  std::vector<int32_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dim = in.shape[d];
    const int64_t stride = (*strides)[d];
    if (stride == 0) return Status::Error("stride of dimension " + std::to_string(d) + " is 0");
    const bool shrink = (o.shrink_axis_mask >> d) & 1;
    // Both ends are clamped to [0, dim] for forward strides and [-1, dim - 1] for backward ones.
    auto clamp = [&](int64_t v) {
      if (v < 0) v += dim;
      return stride > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    int64_t start = 0, stop = 0;
    if (dim > 0) {
      start = clamp(((o.begin_mask >> d) & 1) ? (stride > 0 ? kLowest : kMax) : (*begin)[d]);
      if (shrink) {
        stop = start + 1;
      } else {
        int64_t e = (*end)[d];
        if (o.offset) e += start;
        stop = clamp(((o.end_mask >> d) & 1) ? (stride > 0 ? kMax : kLowest) : e);
      }
    }
    const int64_t step = shrink ? 1 : stride;
    int64_t count = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
    count = std::max<int64_t>(count, 0);
    s.start.push_back(start);
    s.step.push_back(step);
    s.count.push_back(count);
    if (!shrink) shape.push_back(static_cast<int32_t>(count));
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return s;
}

}  // namespace

Status PrepareSlice(KernelContext& context) { return SliceSelection(context).status(); }

Status EvalSlice(KernelContext& context) {
  auto s = SliceSelection(context);
  if (!s.ok()) return s.status();
  Gather(context.input(0), *s, context.output(0));
  return Status::Ok();
}

Status PrepareStridedSlice(KernelContext& context) { return StridedSelection(context).status(); }

Status EvalStridedSlice(KernelContext& context) {
  auto s = StridedSelection(context);
  if (!s.ok()) return s.status();
  Gather(context.input(0), *s, context.output(0));
  return Status::Ok();
}

}  // namespace tfa::runtime
