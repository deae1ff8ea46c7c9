#include "runtime/delegates/plugin/delegate_registry.h"

#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/samples/add_sub_delegate.h"
#include "runtime/delegates/samples/sin_delegate.h"
#include "runtime/delegates/xnnpack/xnnpack_delegate.h"

namespace tfa::runtime {

const std::vector<RegisteredDelegate>& RegisteredDelegates() {
  static const std::vector<RegisteredDelegate> kDelegates = {
      {"add-sub", "--use-add-sub-delegate",
       "float32 ADD/SUB sample delegate of TFLite's custom-delegate guide (runs on the CPU)",
       &CreateAddSubDelegate},
      {"sin", "--use-sin-delegate", "one-op SIN delegate (runs on the CPU)", &CreateSinDelegate},
      {"gpu", "--use-gpu-delegate",
       "OpenCL GPU delegate; options: platform=N, device=N, max_delegated_partitions=N, "
       "is_precision_loss_allowed, inference_priority1..3, inference_preference and the gpu "
       "profile's options",
       &CreateOpenClDelegate},
      {"xnnpack", "--use-xnnpack-delegate",
       "XNNPACK delegate on Debian's libXNNPACK 0.0~git20220216 (ops that version lacks run on "
       "the CPU kernels inside the partition); options: the xnnpack profile's",
       &CreateXnnpackDelegate},
  };
  return kDelegates;
}

const RegisteredDelegate* FindRegisteredDelegate(const std::string& name) {
  for (const RegisteredDelegate& delegate : RegisteredDelegates()) {
    if (delegate.name == name) return &delegate;
  }
  return nullptr;
}

}  // namespace tfa::runtime
