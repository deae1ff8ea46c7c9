#include "runtime/delegates/xnnpack/xnnpack_library.h"

#include <xnnpack.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tfa::runtime {
namespace {

// The allocator handed to xnn_initialize: malloc and posix_memalign, with every block's size
// recorded so that releases and reallocations are counted exactly.
class CountingAllocator {
 public:
  void* Allocate(size_t size) {
    void* pointer = std::malloc(std::max<size_t>(size, 1));
    std::lock_guard lock(mutex_);
    if (pointer) Add(pointer, size, false);
    return pointer;
  }

  // A new block and a copy rather than realloc, so that the old block's size is still known
  // when it is released.
  void* Reallocate(void* pointer, size_t size) {
    void* moved = std::malloc(std::max<size_t>(size, 1));
    if (!moved) return nullptr;  // the old block stays allocated, as the contract says
    std::lock_guard lock(mutex_);
    if (pointer) {
      const auto old = sizes_.find(reinterpret_cast<uintptr_t>(pointer));
      if (old != sizes_.end()) std::memcpy(moved, pointer, std::min(old->second, size));
      Remove(reinterpret_cast<uintptr_t>(pointer));
      std::free(pointer);
    }
    Add(moved, size, false);
    return moved;
  }

  void* AlignedAllocate(size_t alignment, size_t size) {
    void* pointer = nullptr;
    const size_t at_least = std::max(alignment, sizeof(void*));
    if (posix_memalign(&pointer, at_least, std::max<size_t>(size, 1)) != 0) return nullptr;
    std::lock_guard lock(mutex_);
    Add(pointer, size, true);
    return pointer;
  }

  void Release(void* pointer) {
    if (!pointer) return;
    {
      std::lock_guard lock(mutex_);
      Remove(reinterpret_cast<uintptr_t>(pointer));
    }
    std::free(pointer);
  }

  XnnpackAllocationCounts counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
  }

 private:
  void Add(void* pointer, size_t size, bool aligned) {
    sizes_[reinterpret_cast<uintptr_t>(pointer)] = size;
    counts_.live_bytes += size;
    counts_.peak_bytes = std::max(counts_.peak_bytes, counts_.live_bytes);
    counts_.aligned_since_plain = aligned ? counts_.aligned_since_plain + size : 0;
  }
  void Remove(uintptr_t pointer) {
    auto it = sizes_.find(pointer);
    if (it == sizes_.end()) return;
    counts_.live_bytes -= it->second;
    sizes_.erase(it);
  }

  mutable std::mutex mutex_;
  std::unordered_map<uintptr_t, size_t> sizes_;
  XnnpackAllocationCounts counts_;
};

CountingAllocator& Counter() {
  static CountingAllocator counter;
  return counter;
}

const xnn_allocator kCountingAllocator = {
    .context = nullptr,
    .allocate = [](void*, size_t size) { return Counter().Allocate(size); },
    .reallocate = [](void*, void* pointer,
                     size_t size) { return Counter().Reallocate(pointer, size); },
    .deallocate = [](void*, void* pointer) { Counter().Release(pointer); },
    .aligned_allocate = [](void*, size_t alignment,
                           size_t size) { return Counter().AlignedAllocate(alignment, size); },
    .aligned_deallocate = [](void*, void* pointer) { Counter().Release(pointer); },
};

// Initializes on construction, deinitializes at process exit: one call of each.
struct Initialization {
  Initialization() {
    Counter();  // constructed first, so destroyed after the library lets go of it
    status = xnn_initialize(&kCountingAllocator);
  }
  ~Initialization() {
    if (status == xnn_status_success) xnn_deinitialize();
  }
  xnn_status status;
};

}  // namespace

Result<XnnpackLibrary*> XnnpackLibrary::Get() {
  static const Initialization initialization;
  if (initialization.status != xnn_status_success) {
    return Status::Error(std::string("libXNNPACK ") + kXnnpackLibraryVersion +
                         ": xnn_initialize failed (status " +
                         std::to_string(static_cast<int>(initialization.status)) +
                         "): this CPU lacks what the library needs");
  }
  static XnnpackLibrary library;
  return &library;
}

XnnpackAllocationCounts XnnpackLibrary::counts() const { return Counter().counts(); }

}  // namespace tfa::runtime
