#include "runtime/kernels/cpu/tile.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

// The output's shape: the input's dimensions times the multiples.
Result<std::vector<int32_t>> TiledShape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& input = context.input(0);
  if (!ElementSize(input.type)) return Status::Error("TILE needs a fixed-size element type");
  if (context.output(0).type != input.type) {
    return Status::Error("output type differs from the input's");
  }
  auto multiples = ReadIndexTensor(context.input(1), "multiples");
  if (!multiples.ok()) return multiples.status();
  if (multiples->size() != input.shape.size()) {
    return Status::Error("multiples has " + std::to_string(multiples->size()) +
                         " values for an input of rank " + std::to_string(input.Rank()));
  }
  std::vector<int32_t> shape;
  for (size_t d = 0; d < multiples->size(); ++d) {
    const int64_t dim = int64_t{input.shape[d]} * (*multiples)[d];
    if ((*multiples)[d] < 0 || dim > INT32_MAX) {
      return Status::Error("multiple " + std::to_string((*multiples)[d]) + " is out of range");
    }
    shape.push_back(static_cast<int32_t>(dim));
  }
  return shape;
}

}  // namespace

Status PrepareTile(KernelContext& context) {
  auto shape = TiledShape(context);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalTile(KernelContext& context) {
  auto shape = TiledShape(context);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), *shape));
  const RuntimeTensor& input = context.input(0);
  const uint64_t element = *ElementSize(input.type);
  const auto& in_shape = input.shape;
  const auto& out_shape = *shape;
  const int rank = input.Rank();
  const int64_t total = context.output(0).NumElements();
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t source = 0;
    for (int d = 0; d < rank; ++d) {
      source = source * in_shape[static_cast<size_t>(d)] +
               index[static_cast<size_t>(d)] % in_shape[static_cast<size_t>(d)];
    }
    std::memcpy(context.output(0).data + i * element, input.data + source * element, element);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < out_shape[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
