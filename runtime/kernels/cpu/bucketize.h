// BUCKETIZE (tflite/kernels/bucketize.cc): each element's bucket among the sorted float
// `boundaries` option, as an int32: the count of boundaries not above it (std::upper_bound, so
// a value equal to a boundary goes to the bucket that boundary opens). Input float32, float64,
// int32 or int64, compared with the float boundaries by C++'s usual conversions, as upstream.
// Boundaries out of order are an error.
#ifndef RUNTIME_KERNELS_CPU_BUCKETIZE_H_
#define RUNTIME_KERNELS_CPU_BUCKETIZE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBucketize(KernelContext& context);
[[nodiscard]] Status EvalBucketize(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BUCKETIZE_H_
