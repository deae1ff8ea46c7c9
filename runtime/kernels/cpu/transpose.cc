#include "runtime/kernels/cpu/transpose.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

Result<std::vector<int>> Permutation(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  auto perm = ReadIndexTensor(context.input(1), "perm");
  if (!perm.ok()) return perm.status();
  if (perm->size() != static_cast<size_t>(in.Rank()))
    return Status::Error("perm must have one entry per dimension");
  std::vector<int> p;
  std::vector<bool> seen(perm->size(), false);
  std::vector<int32_t> shape;
  for (int64_t v : *perm) {
    auto axis = ResolveAxis(v, in.Rank());
    if (!axis.ok()) return axis.status();
    if (seen[static_cast<size_t>(*axis)])
      return Status::Error("perm repeats axis " + std::to_string(*axis));
    seen[static_cast<size_t>(*axis)] = true;
    p.push_back(*axis);
    shape.push_back(in.Dim(*axis));
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return p;
}

}  // namespace

Status PrepareTranspose(KernelContext& context) { return Permutation(context).status(); }

Status EvalTranspose(KernelContext& context) {
  auto perm = Permutation(context);
  if (!perm.ok()) return perm.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const uint64_t element = ElementSize(in.type).value_or(0);
  const int rank = in.Rank();
  const int64_t total = out.NumElements();
  if (total == 0) return Status::Ok();
  std::vector<int64_t> in_strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    in_strides[static_cast<size_t>(d)] = in_strides[static_cast<size_t>(d) + 1] * in.Dim(d + 1);
  // Output dimension d walks input dimension perm[d].
  std::vector<int64_t> strides(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d)
    strides[static_cast<size_t>(d)] =
        in_strides[static_cast<size_t>((*perm)[static_cast<size_t>(d)])];
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t source = 0;
  for (int64_t o = 0; o < total; ++o) {
    std::memcpy(out.data + static_cast<uint64_t>(o) * element,
                in.data + static_cast<uint64_t>(source) * element, element);
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      source += strides[ud];
      if (++index[ud] < out.Dim(d)) break;
      source -= strides[ud] * out.Dim(d);
      index[ud] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
