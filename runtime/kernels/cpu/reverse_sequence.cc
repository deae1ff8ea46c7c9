#include "runtime/kernels/cpu/reverse_sequence.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kValueTypes = {TensorType::kFloat32, TensorType::kUInt8, TensorType::kInt16,
                                    TensorType::kInt32, TensorType::kInt64};
constexpr std::array kLengthTypes = {TensorType::kInt32, TensorType::kInt64};

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& lengths = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kValueTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(lengths, kLengthTypes, "seq_lengths"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(lengths, 1, "seq_lengths"));
  const int32_t seq_dim = context.options().seq_dim, batch_dim = context.options().batch_dim;
  if (seq_dim < 0 || batch_dim < 0 || seq_dim == batch_dim || seq_dim >= in.Rank() ||
      batch_dim >= in.Rank()) {
    return Status::Error("seq_dim " + std::to_string(seq_dim) + " and batch_dim " +
                         std::to_string(batch_dim) + " must be two different dimensions of " +
                         ShapeString(in.shape));
  }
  if (lengths.Dim(0) != in.Dim(batch_dim)) {
    return Status::Error("seq_lengths has " + std::to_string(lengths.Dim(0)) +
                         " values for a batch of " + std::to_string(in.Dim(batch_dim)));
  }
  return CheckOutputShape(context.output(0), in.shape);
}

}  // namespace

Status PrepareReverseSequence(KernelContext& context) { return CheckTensors(context); }

Status EvalReverseSequence(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& in = context.input(0);
  const int seq_dim = context.options().seq_dim, batch_dim = context.options().batch_dim;
  auto lengths = ReadIndexTensor(context.input(1), "seq_lengths");
  if (!lengths.ok()) return lengths.status();
  for (int64_t length : *lengths) {
    if (length < 0 || length > in.Dim(seq_dim)) {
      return Status::Error("sequence length " + std::to_string(length) + " is outside [0, " +
                           std::to_string(in.Dim(seq_dim)) + "]");
    }
  }
  const int rank = in.Rank();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d) {
    strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d) + 1] * in.Dim(d + 1);
  }
  const uint64_t element_bytes = ElementSize(in.type).value_or(1);
  const auto seq = static_cast<size_t>(seq_dim), batch = static_cast<size_t>(batch_dim);
  uint8_t* out = context.output(0).data;
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  const int64_t total = in.NumElements();
  for (int64_t i = 0; i < total; ++i) {
    const int64_t length = (*lengths)[static_cast<size_t>(index[batch])];
    int64_t source = i;
    if (index[seq] < length) source += (length - 1 - 2 * int64_t{index[seq]}) * strides[seq];
    std::memcpy(out + static_cast<uint64_t>(i) * element_bytes,
                in.data + static_cast<uint64_t>(source) * element_bytes, element_bytes);
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      if (++index[ud] < in.Dim(d)) break;
      index[ud] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
