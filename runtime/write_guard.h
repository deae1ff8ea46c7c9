// WriteGuard: the debug mode that proves a kernel wrote only the bytes the plan gave it.
//
// The arenas are shared by design: a kernel that writes past its output (a wrong stride, an
// off-by-one in a tail loop) silently corrupts a tensor another node still needs, and neither
// ASan (the bytes are inside one allocation) nor the output comparison (the victim may be dead
// by then) sees it. The interpreter snapshots the arenas before a node runs and, after it,
// compares every byte outside the node's own outputs and temporaries with the snapshot.
// Cost: one copy and one compare of the arenas per node, so it is off unless asked for.
#ifndef RUNTIME_WRITE_GUARD_H_
#define RUNTIME_WRITE_GUARD_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tfa::runtime {

// Bytes [begin, end) of watched buffer `buffer`.
struct GuardedRange {
  size_t buffer = 0;
  uint64_t begin = 0;
  uint64_t end = 0;

  bool operator==(const GuardedRange&) const = default;
};

class WriteGuard {
 public:
  // The buffers must outlive the guard; their contents change, their addresses do not.
  explicit WriteGuard(std::vector<std::span<const uint8_t>> buffers);

  // Copies the watched buffers.
  void Snapshot();

  // The first maximal run of changed bytes outside `allowed` since the last Snapshot, or nullopt.
  // `allowed` may be in any order and overlap.
  std::optional<GuardedRange> FirstWriteOutside(std::vector<GuardedRange> allowed) const;

 private:
  std::vector<std::span<const uint8_t>> buffers_;
  std::vector<std::vector<uint8_t>> snapshots_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_WRITE_GUARD_H_
