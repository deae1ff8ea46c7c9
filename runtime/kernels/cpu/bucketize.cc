#include "runtime/kernels/cpu/bucketize.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kBucketizeTypes = {TensorType::kFloat32, TensorType::kFloat64,
                                        TensorType::kInt32, TensorType::kInt64};

template <typename T>
void Buckets(const KernelContext& context) {
  const std::vector<float>& boundaries = context.options().boundaries;
  const T* in = context.input(0).Data<const T>();
  int32_t* out = context.output(0).Data<int32_t>();
  const int64_t n = context.input(0).NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const auto bigger = std::upper_bound(boundaries.begin(), boundaries.end(), in[i]);
    out[i] = static_cast<int32_t>(bigger - boundaries.begin());
  }
}

}  // namespace

Status PrepareBucketize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const std::vector<float>& boundaries = context.options().boundaries;
  if (!std::is_sorted(boundaries.begin(), boundaries.end())) {
    return Status::Error("the boundaries are not sorted");
  }
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kBucketizeTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kInt32, "output"));
  return CheckOutputShape(context.output(0), in.shape);
}

Status EvalBucketize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareBucketize(context));
  switch (context.input(0).type) {
    case TensorType::kFloat64:
      Buckets<double>(context);
      break;
    case TensorType::kInt32:
      Buckets<int32_t>(context);
      break;
    case TensorType::kInt64:
      Buckets<int64_t>(context);
      break;
    default:
      Buckets<float>(context);
      break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
