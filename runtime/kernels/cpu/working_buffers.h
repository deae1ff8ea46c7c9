// The working buffers of a kernel whose upstream twin works in temporaries it adds in Prepare
// (the recurrent kernels: SVDF, LSTM). Buffer i is temporary i where the plan gave it at least the
// bytes asked, so the arena measured is the one planned; otherwise (a plan without temporaries:
// Graph JSON, unit tests) it is a 64-byte-aligned piece of the scratch area. Prepare and Eval
// build it from the same sizes, so Prepare's scratch_bytes covers every piece Eval takes.
#ifndef RUNTIME_KERNELS_CPU_WORKING_BUFFERS_H_
#define RUNTIME_KERNELS_CPU_WORKING_BUFFERS_H_

#include <cstdint>
#include <vector>

#include "runtime/kernel.h"

namespace tfa::runtime {

class WorkingBuffers {
 public:
  // `bytes[i]` is the size of buffer i, which upstream keeps in temporary i.
  WorkingBuffers(const KernelContext& context, const std::vector<uint64_t>& bytes);

  // The scratch bytes the buffers without a temporary need: what Prepare asks for.
  uint64_t scratch_bytes() const { return scratch_bytes_; }
  // Buffer i (Eval only: the scratch area exists then).
  template <typename T>
  T* Get(size_t i) const {
    return reinterpret_cast<T*>(buffers_[i]);
  }

 private:
  std::vector<uint8_t*> buffers_;
  uint64_t scratch_bytes_ = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_WORKING_BUFFERS_H_
