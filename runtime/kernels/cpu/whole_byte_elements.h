// Sub-byte element types (int4, uint4, int2) pack two or four elements into a byte. The data
// movement kernels address whole elements by byte offsets, so they refuse packed tensors rather
// than read past a buffer that holds half (or a quarter) of the bytes they would walk.
#ifndef RUNTIME_KERNELS_CPU_WHOLE_BYTE_ELEMENTS_H_
#define RUNTIME_KERNELS_CPU_WHOLE_BYTE_ELEMENTS_H_

#include <string>

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] inline Status CheckWholeByteElements(const RuntimeTensor& tensor, const char* role) {
  if (tensor.type == TensorType::kInt4 || tensor.type == TensorType::kUInt4 ||
      tensor.type == TensorType::kInt2) {
    return Status::Error(std::string("the runtime has no kernel for packed ") +
                         TensorTypeName(tensor.type) + " " + role + " of this op");
  }
  return Status::Ok();
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_WHOLE_BYTE_ELEMENTS_H_
