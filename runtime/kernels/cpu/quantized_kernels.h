// Registrations of the ops that have both a float32 and an int8/uint8 kernel: each entry runs
// the quantized kernel when input 0 is int8 or uint8 and the float one otherwise, so that one op
// name maps to both in the CPU kernel table. QUANTIZE (quantized output only) is here too.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_KERNELS_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_KERNELS_H_

#include <map>
#include <string>

#include "runtime/kernel.h"

namespace tfa::runtime {

// Op name -> registration; these replace the float-only entries of the same name.
const std::map<std::string, KernelRegistration>& TypeDispatchedKernels();

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_KERNELS_H_
