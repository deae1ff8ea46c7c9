// Debian 12's libXNNPACK (0.0~git20220216.ae108ef), initialized once per process with an
// allocator that counts every byte the library holds, so the delegate can say what its runtimes
// cost: the packed weights and operator structs xnn_create_runtime_v2 keeps, the workspace its
// memory planner allocates for internal values, and what xnn_setup_runtime adds.
//
// xnn_initialize runs on the first Get() and xnn_deinitialize when the process exits (one each).
// The counts are process-wide: a caller measures a call by the difference before and after it,
// which holds while one thread at a time creates or sets up runtimes (this runtime's case).
#ifndef RUNTIME_DELEGATES_XNNPACK_XNNPACK_LIBRARY_H_
#define RUNTIME_DELEGATES_XNNPACK_XNNPACK_LIBRARY_H_

#include <cstdint>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

// The Debian package version the build links, for messages and reports.
inline constexpr const char* kXnnpackLibraryVersion = "0.0~git20220216";

struct XnnpackAllocationCounts {
  uint64_t live_bytes = 0;  // allocated and not yet released
  uint64_t peak_bytes = 0;  // the most live_bytes ever was
  // Bytes of aligned (SIMD) allocations made since the last plain allocation. libXNNPACK takes
  // its runtime's workspace from one aligned allocation after the memory planner's plain ones
  // (src/runtime.c, xnn_create_runtime_v2), so right after that call this is the workspace.
  uint64_t aligned_since_plain = 0;
};

class XnnpackLibrary {
 public:
  // The initialized library; an error when xnn_initialize fails (a CPU without SSE2).
  [[nodiscard]] static Result<XnnpackLibrary*> Get();

  XnnpackAllocationCounts counts() const;

  XnnpackLibrary(const XnnpackLibrary&) = delete;
  XnnpackLibrary& operator=(const XnnpackLibrary&) = delete;

 private:
  XnnpackLibrary() = default;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_XNNPACK_LIBRARY_H_
