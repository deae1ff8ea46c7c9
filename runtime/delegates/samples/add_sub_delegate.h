// The float32 ADD/SUB delegate of TFLite's custom-delegate guide ("Implementing a Custom
// Delegate": MyDelegate takes ADD and SUB nodes whose tensors are float32 and evaluates every
// node of each partition it is given, in order). Its support predicate is the `add-sub` profile,
// so the runtime partitions exactly as `tflite-analyze report --delegate add-sub` predicts.
#ifndef RUNTIME_DELEGATES_SAMPLES_ADD_SUB_DELEGATE_H_
#define RUNTIME_DELEGATES_SAMPLES_ADD_SUB_DELEGATE_H_

#include <memory>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"

namespace tfa::runtime {

// The delegate is named "add-sub". The profile declares no options, so any option is an error.
[[nodiscard]] Result<std::unique_ptr<Delegate>> CreateAddSubDelegate(
    const DelegateOptions& options = {});

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_SAMPLES_ADD_SUB_DELEGATE_H_
