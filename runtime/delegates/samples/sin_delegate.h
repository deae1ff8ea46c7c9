// A one-op delegate that takes every SIN node (the `sin` profile) and computes it itself: the CPU
// kernels have no SIN, so a model with SIN runs only with this delegate, which is what a custom
// delegate for a missing op looks like. float32 only; other element types are a Prepare error.
#ifndef RUNTIME_DELEGATES_SAMPLES_SIN_DELEGATE_H_
#define RUNTIME_DELEGATES_SAMPLES_SIN_DELEGATE_H_

#include <memory>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// The delegate is named "sin".
[[nodiscard]] Result<std::unique_ptr<Delegate>> CreateSinDelegate(
    const DelegateOptions& options = {});

// The delegate's element-wise float32 SIN kernel.
const KernelRegistration& SinKernel();

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_SAMPLES_SIN_DELEGATE_H_
