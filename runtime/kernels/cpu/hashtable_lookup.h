// HASHTABLE_LOOKUP (tflite/kernels/hashtable_lookup.cc): for each int32 of `lookup`, the row of
// `values` whose key matches, found by a binary search over `keys` (upstream's bsearch, with its
// comparator's 32-bit difference, so unsorted keys give upstream's answer too), and a uint8 hit
// flag; a miss gives a row of zero bytes. Values of any fixed-size type; string values (upstream
// writes a string tensor at Eval) are not run.
#ifndef RUNTIME_KERNELS_CPU_HASHTABLE_LOOKUP_H_
#define RUNTIME_KERNELS_CPU_HASHTABLE_LOOKUP_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareHashtableLookup(KernelContext& context);
[[nodiscard]] Status EvalHashtableLookup(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_HASHTABLE_LOOKUP_H_
