#include "runtime/arena_watermark.h"

#include <algorithm>

namespace tfa::runtime {
namespace {

// Byte `i` of the pattern. Little-endian float32 words: bytes 0-1 vary, byte 2 has the top
// exponent-low and quiet bits set, byte 3 is the sign and the top exponent bits (0x7f or 0xff).
uint8_t PatternByte(uint64_t i) {
  const uint32_t h = static_cast<uint32_t>(i >> 2) * 0x9E3779B1u;
  switch (i & 3) {
    case 0:
      return static_cast<uint8_t>(h >> 8);
    case 1:
      return static_cast<uint8_t>(h >> 16);
    case 2:
      return static_cast<uint8_t>(0xC0 | ((h >> 24) & 0x3F));
    default:
      return (h >> 31) ? 0xFF : 0x7F;
  }
}

}  // namespace

void FillUnwritten(std::span<uint8_t> bytes) {
  for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = PatternByte(i);
}

uint64_t WrittenExtent(std::span<const uint8_t> bytes) { return WrittenExtent(bytes, 0); }

uint64_t WrittenExtent(std::span<const uint8_t> bytes, uint64_t known_written_end) {
  const uint64_t known = std::min<uint64_t>(known_written_end, bytes.size());
  for (uint64_t end = bytes.size(); end > known; --end) {
    if (bytes[end - 1] != PatternByte(end - 1)) return end;
  }
  return known;
}

}  // namespace tfa::runtime
