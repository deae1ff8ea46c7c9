#include "runtime/kernels/cpu/pad.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

// Padding before each dimension, after checking the output shape against it.
Result<std::vector<int64_t>> PaddingBefore(const KernelContext& context) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  auto paddings = ReadIndexTensor(context.input(1), "paddings");
  if (!paddings.ok()) return paddings.status();
  if (paddings->size() != 2 * static_cast<size_t>(in.Rank())) {
    return Status::Error("paddings " + ShapeString(context.input(1).shape) +
                         " do not fit input rank " + std::to_string(in.Rank()));
  }
  std::vector<int32_t> shape = in.shape;
  std::vector<int64_t> before(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t lo = (*paddings)[2 * d], hi = (*paddings)[2 * d + 1];
    if (lo < 0 || hi < 0) return Status::Error("paddings must not be negative");
    before[d] = lo;
    shape[d] = static_cast<int32_t>(shape[d] + lo + hi);
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, shape));
  return before;
}

}  // namespace

Status PreparePad(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  return PaddingBefore(context).status();
}

Status EvalPad(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  auto before = PaddingBefore(context);
  if (!before.ok()) return before.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const uint64_t element = ElementSize(in.type).value_or(0);
  if (element == 0) return Status::Error("element type has no fixed size");
  // The pad value, one element's bytes.
  std::vector<uint8_t> value(element, 0);
  if (context.has_input(2)) {
    const RuntimeTensor& v = context.input(2);
    TFA_RETURN_IF_ERROR(CheckType(v, in.type, "constant_values"));
    if (v.NumElements() != 1) return Status::Error("constant_values must hold one element");
    std::memcpy(value.data(), v.data, element);
  } else if (out.quantization && !out.quantization->zero_point.empty() && element == 1) {
    value[0] = static_cast<uint8_t>(out.quantization->zero_point[0]);
  }
  const int64_t total = out.NumElements();
  for (int64_t i = 0; i < total; ++i)
    std::memcpy(out.data + static_cast<uint64_t>(i) * element, value.data(), element);
  if (in.NumElements() == 0) return Status::Ok();
  const int rank = in.Rank();
  if (rank == 0) {
    std::memcpy(out.data, in.data, element);
    return Status::Ok();
  }
  // Copy the input row by row (last dimension contiguous) to its padded place.
  std::vector<int64_t> out_strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    out_strides[static_cast<size_t>(d)] = out_strides[static_cast<size_t>(d) + 1] * out.Dim(d + 1);
  const int64_t row = in.Dim(rank - 1);
  const int64_t rows = in.NumElements() / row;
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d) {
      offset += (index[static_cast<size_t>(d)] + (*before)[static_cast<size_t>(d)]) *
                out_strides[static_cast<size_t>(d)];
    }
    std::memcpy(out.data + static_cast<uint64_t>(offset) * element,
                in.data + static_cast<uint64_t>(r * row) * element,
                static_cast<uint64_t>(row) * element);
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < in.Dim(d)) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return Status::Ok();
}

Status PrepareMirrorPad(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  auto before = PaddingBefore(context);
  if (!before.ok()) return before.status();
  const RuntimeTensor& in = context.input(0);
  const int64_t offset = context.options().mirror_pad_mode == 0 ? 1 : 0;
  for (int d = 0; d < in.Rank(); ++d) {
    const int64_t after = context.output(0).Dim(d) - in.Dim(d) - (*before)[static_cast<size_t>(d)];
    if ((*before)[static_cast<size_t>(d)] > in.Dim(d) - offset || after > in.Dim(d) - offset) {
      return Status::Error("mirror padding is larger than dimension " + std::to_string(d) +
                           " allows");
    }
  }
  return Status::Ok();
}

Status EvalMirrorPad(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareMirrorPad(context));
  auto before = PaddingBefore(context);
  if (!before.ok()) return before.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const uint64_t element = ElementSize(in.type).value_or(0);
  const bool reflect = context.options().mirror_pad_mode == 0;
  const int rank = out.Rank();
  const int64_t total = out.NumElements();
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, source = 0, stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t n = in.Dim(d);
      int64_t c = rest % out.Dim(d) - (*before)[static_cast<size_t>(d)];
      rest /= out.Dim(d);
      if (c < 0) c = reflect ? -c : -c - 1;
      if (c >= n) c = reflect ? 2 * n - 2 - c : 2 * n - 1 - c;
      source += c * stride;
      stride *= n;
    }
    std::memcpy(out.data + static_cast<uint64_t>(i) * element,
                in.data + static_cast<uint64_t>(source) * element, element);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
