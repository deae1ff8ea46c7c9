#include "runtime/write_guard.h"

#include <algorithm>
#include <cstring>

namespace tfa::runtime {
namespace {

// The first changed byte of buffer `b` in [begin, end) and the end of its run of changed bytes.
std::optional<GuardedRange> FirstChange(size_t b, const uint8_t* now, const uint8_t* before,
                                        uint64_t begin, uint64_t end) {
  if (begin >= end || std::memcmp(now + begin, before + begin, end - begin) == 0)
    return std::nullopt;
  uint64_t first = begin;
  while (now[first] == before[first]) ++first;
  uint64_t last = first;
  while (last < end && now[last] != before[last]) ++last;
  return GuardedRange{b, first, last};
}

}  // namespace

WriteGuard::WriteGuard(std::vector<std::span<const uint8_t>> buffers)
    : buffers_(std::move(buffers)), snapshots_(buffers_.size()) {}

void WriteGuard::Snapshot() {
  for (size_t b = 0; b < buffers_.size(); ++b)
    snapshots_[b].assign(buffers_[b].begin(), buffers_[b].end());
}

std::optional<GuardedRange> WriteGuard::FirstWriteOutside(
    std::vector<GuardedRange> allowed) const {
  std::sort(allowed.begin(), allowed.end(), [](const GuardedRange& a, const GuardedRange& b) {
    return a.buffer != b.buffer ? a.buffer < b.buffer : a.begin < b.begin;
  });
  auto next_allowed = allowed.begin();
  for (size_t b = 0; b < buffers_.size(); ++b) {
    const uint8_t* now = buffers_[b].data();
    const uint8_t* before = snapshots_[b].data();
    const uint64_t size = std::min<uint64_t>(buffers_[b].size(), snapshots_[b].size());
    uint64_t cursor = 0;  // bytes before it are checked or allowed
    for (; next_allowed != allowed.end() && next_allowed->buffer == b; ++next_allowed) {
      const uint64_t gap_end = std::min(next_allowed->begin, size);
      if (auto change = FirstChange(b, now, before, cursor, gap_end)) return change;
      cursor = std::max(cursor, std::min(next_allowed->end, size));
    }
    if (auto change = FirstChange(b, now, before, cursor, size)) return change;
  }
  return std::nullopt;
}

}  // namespace tfa::runtime
