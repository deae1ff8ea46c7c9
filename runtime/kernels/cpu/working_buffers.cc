#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {

WorkingBuffers::WorkingBuffers(const KernelContext& context, const std::vector<uint64_t>& bytes) {
  constexpr uint64_t kAlignment = 64;
  buffers_.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (RuntimeTensor* t = context.temporary(i, bytes[i])) {
      buffers_.push_back(t->data);
      continue;
    }
    buffers_.push_back(context.scratch == nullptr ? nullptr : context.scratch + scratch_bytes_);
    scratch_bytes_ += (bytes[i] + kAlignment - 1) / kAlignment * kAlignment;
  }
}

}  // namespace tfa::runtime
