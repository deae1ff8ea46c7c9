// DENSIFY: expands a sparse constant (TfLite's sparsity format: dense shape, traversal order of
// the original and block dimensions, per-level DENSE or CSR metadata) into its dense tensor of
// the same type. Every value of the stored array lands at its coordinates; all else is zero.
#ifndef RUNTIME_KERNELS_CPU_DENSIFY_H_
#define RUNTIME_KERNELS_CPU_DENSIFY_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDensify(KernelContext& context);
[[nodiscard]] Status EvalDensify(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DENSIFY_H_
