// The resident set of this process as Linux counts it in /proc/self/status: VmRSS, the bytes
// resident now, and VmHWM, the most that were resident at any moment so far (the peak RSS that
// `time -v` and the OOM killer see). Both count every resident page the process maps: heap,
// stacks, the code of its libraries and the pages of mapped files it touched.
#ifndef RUNTIME_PROCESS_MEMORY_H_
#define RUNTIME_PROCESS_MEMORY_H_

#include <cstdint>
#include <string_view>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

struct ResidentMemory {
  uint64_t current_bytes = 0;  // VmRSS
  uint64_t peak_bytes = 0;     // VmHWM
};

// The text of a /proc/PID/status file, read: its VmRSS and VmHWM lines ("VmHWM:  1234 kB").
[[nodiscard]] Result<ResidentMemory> ParseProcStatus(std::string_view status);

// This process's resident set now; an error where /proc/self/status cannot be read (not Linux).
[[nodiscard]] Result<ResidentMemory> ReadResidentMemory();

}  // namespace tfa::runtime

#endif  // RUNTIME_PROCESS_MEMORY_H_
