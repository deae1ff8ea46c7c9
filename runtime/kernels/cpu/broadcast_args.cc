#include "runtime/kernels/cpu/broadcast_args.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kTypes = {TensorType::kInt32, TensorType::kInt64};

template <typename T>
std::vector<int64_t> Read(const RuntimeTensor& tensor) {
  const T* data = tensor.Data<const T>();
  return std::vector<int64_t>(data, data + tensor.NumElements());
}

std::vector<int64_t> Values(const RuntimeTensor& tensor) {
  return tensor.type == TensorType::kInt32 ? Read<int32_t>(tensor) : Read<int64_t>(tensor);
}

std::string Text(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(values[i]);
  }
  return text + "]";
}

template <typename T>
void Write(RuntimeTensor& tensor, const std::vector<int64_t>& values) {
  T* data = tensor.Data<T>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = static_cast<T>(values[i]);
}

}  // namespace

Status PrepareBroadcastArgs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, kTypes, "first shape"));
  TFA_RETURN_IF_ERROR(CheckType(b, a.type, "second shape"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(a, 1, "first shape"));
  TFA_RETURN_IF_ERROR(CheckRank(b, 1, "second shape"));
  return CheckOutputShape(context.output(0), {std::max(a.Dim(0), b.Dim(0))});
}

Status EvalBroadcastArgs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareBroadcastArgs(context));
  const std::vector<int64_t> a = Values(context.input(0));
  const std::vector<int64_t> b = Values(context.input(1));
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    // Aligned to the right; a missing leading dimension is 1.
    const int64_t x = i + a.size() >= n ? a[i + a.size() - n] : 1;
    const int64_t y = i + b.size() >= n ? b[i + b.size() - n] : 1;
    if (x != y && x != 1 && y != 1) {
      return Status::Error("shapes " + Text(a) + " and " + Text(b) +
                           " do not broadcast (upstream's kernel aborts)");
    }
    out[i] = x == 1 ? y : x;
  }
  if (context.output(0).type == TensorType::kInt32) {
    Write<int32_t>(context.output(0), out);
  } else {
    Write<int64_t>(context.output(0), out);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
