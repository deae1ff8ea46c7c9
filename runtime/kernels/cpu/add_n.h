// ADD_N (tflite/kernels/add_n.cc): the element-wise sum of two or more float32 or int32 tensors
// of one shape, added in input order (int32 wraps). Upstream also adds an arena temporary of
// thread_count * elements for its threaded sum, which the analyser does not plan yet
// (libanalysis/prepare has no ADD_N rule), so this kernel sums straight into the output.
#ifndef RUNTIME_KERNELS_CPU_ADD_N_H_
#define RUNTIME_KERNELS_CPU_ADD_N_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareAddN(KernelContext& context);
[[nodiscard]] Status EvalAddN(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ADD_N_H_
