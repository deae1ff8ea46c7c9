#include "libanalysis/core/json_structure_blocks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tfa {
namespace {

// Bit i: the parity of the bits 0..i of `bits` (a string's opening quote to the byte before its
// closing one).
uint64_t PrefixXor(uint64_t bits) {
  for (int shift = 1; shift < 64; shift *= 2) bits ^= bits << shift;
  return bits;
}

struct ByteBits {
  uint64_t quotes = 0;
  uint64_t backslashes = 0;
  uint64_t opens = 0;
  uint64_t closes = 0;
  uint64_t separators = 0;
  uint64_t braces = 0;
};

#if defined(__SSE2__)
// SSE2, which every x86-64 has: 16 bytes per compare.
ByteBits FindBytes(const char* block) {
  ByteBits found;
  for (int part = 0; part < 4; ++part) {
    const __m128i bytes = _mm_loadu_si128(
        reinterpret_cast<const __m128i*>(block + static_cast<ptrdiff_t>(16 * part)));
    // '[' and ']' differ from '{' and '}' by the bit 0x20 only, as no other byte does.
    const __m128i folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
    const auto equal = [](__m128i v, char c) {
      return static_cast<uint64_t>(
          static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)))));
    };
    const int shift = 16 * part;
    found.quotes |= equal(bytes, '"') << shift;
    found.backslashes |= equal(bytes, '\\') << shift;
    found.opens |= equal(folded, '{') << shift;
    found.closes |= equal(folded, '}') << shift;
    found.separators |= (equal(bytes, ',') | equal(bytes, ':')) << shift;
    found.braces |= equal(bytes, '{') << shift;
  }
  return found;
}
#else
ByteBits FindBytes(const char* block) {
  ByteBits found;
  for (size_t i = 0; i < kJsonBlockBytes; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    switch (block[i]) {
      case '"':
        found.quotes |= bit;
        break;
      case '\\':
        found.backslashes |= bit;
        break;
      case '{':
        found.braces |= bit;
        found.opens |= bit;
        break;
      case '[':
        found.opens |= bit;
        break;
      case '}':
      case ']':
        found.closes |= bit;
        break;
      case ',':
      case ':':
        found.separators |= bit;
        break;
      default:
        break;
    }
  }
  return found;
}
#endif

}  // namespace

JsonBlockBits ClassifyJsonBlock(const char* block, JsonBlockCarry& carry) {
  const ByteBits found = FindBytes(block);
  // The bytes escaped by a backslash, in order: backslashes are rare, each is looked at once.
  uint64_t escaped = carry.escaped ? 1 : 0;
  carry.escaped = false;
  for (uint64_t rest = found.backslashes; rest != 0; rest &= rest - 1) {
    const int bit = std::countr_zero(rest);
    if ((escaped >> bit) & 1) continue;
    if (bit == 63) {
      carry.escaped = true;
    } else {
      escaped |= uint64_t{2} << bit;
    }
  }
  JsonBlockBits bits;
  bits.quotes = found.quotes & ~escaped;
  const uint64_t in_string = PrefixXor(bits.quotes) ^ carry.in_string;
  carry.in_string = (in_string >> 63) != 0 ? ~uint64_t{0} : 0;
  bits.opens = found.opens & ~in_string;
  bits.closes = found.closes & ~in_string;
  bits.separators = found.separators & ~in_string;
  bits.braces = found.braces & ~in_string;
  bits.backslashes = found.backslashes;
  bits.stray_backslash = (found.backslashes & ~in_string) != 0;
  return bits;
}

}  // namespace tfa
