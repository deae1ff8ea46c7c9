// The CPU kernel table: which op (builtin name, or custom code for custom ops) runs with which
// Prepare/Eval pair.
#ifndef RUNTIME_KERNELS_CPU_CPU_KERNELS_H_
#define RUNTIME_KERNELS_CPU_CPU_KERNELS_H_

#include <string>
#include <vector>

#include "runtime/kernel.h"

namespace tfa::runtime {

// The kernel for `op`, or nullptr when the runtime has none.
const KernelRegistration* FindCpuKernel(const std::string& op);

// Every op name the CPU kernels cover, sorted.
std::vector<std::string> CpuKernelOps();

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CPU_KERNELS_H_
