// Facts about upstream's builtin kernel registrations that the loader attaches to each node:
// the in-place flags (TfLiteRegistration::inplace_operator) and whether the op has side effects.
#ifndef LIBANALYSIS_MODEL_BUILTIN_KERNEL_FLAGS_H_
#define LIBANALYSIS_MODEL_BUILTIN_KERNEL_FLAGS_H_

#include <cstdint>

namespace tfa {

// InplaceFlags bitmask the builtin kernel for `builtin_code` registers with; 0 for custom ops.
uint32_t BuiltinInplaceFlags(int32_t builtin_code);

// Ops whose execution order matters beyond data flow (variables, hash tables, random state,
// control flow that may touch them): chained by control edges when partitioning greedily.
bool BuiltinHasSideEffect(int32_t builtin_code);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_BUILTIN_KERNEL_FLAGS_H_
