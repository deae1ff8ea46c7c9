// A fast walk of a JSON text's structure: WalkJsonStructure's visits down to the depth the
// visitor asks for, found 64 bytes at a time.
//
// Walked byte by byte, the structure of a 200 MB Graph JSON file takes 0.25 to 0.5 s on one core,
// before the reading in parts can start on the others (issue 18), and most of that is spent on
// the inside of list elements, which the layout scan never looks at. Here each 64-byte block is
// classified at once into bit masks (quotes, backslashes, brackets, separators), the bytes inside
// strings follow from a prefix XOR of the quotes, and only the brackets are followed one by one:
// between two of them the depth is constant, and a stretch deeper than the visitor asks for is
// passed over whole.
//
// A backslash escapes the byte after it, as in a string. A backslash outside every string (never
// in valid JSON) would not, which the masks cannot tell: the walk then declines, and the caller
// walks the text with WalkJsonStructure, the reference, instead.
#ifndef LIBANALYSIS_CORE_JSON_STRUCTURE_BLOCKS_H_
#define LIBANALYSIS_CORE_JSON_STRUCTURE_BLOCKS_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "libanalysis/core/json_nesting.h"
#include "libanalysis/core/status.h"

namespace tfa {

inline constexpr size_t kJsonBlockBytes = 64;

// One block of text, a bit per byte (bit i: byte i); all but the backslashes outside strings.
struct JsonBlockBits {
  uint64_t opens = 0;            // '{' '['
  uint64_t closes = 0;           // '}' ']'
  uint64_t separators = 0;       // ',' ':'
  uint64_t braces = 0;           // '{'
  uint64_t quotes = 0;           // the quotes that open or close a string
  uint64_t backslashes = 0;      // every backslash
  bool stray_backslash = false;  // some backslash is outside every string
};

// What a block leaves to the next.
struct JsonBlockCarry {
  uint64_t in_string = 0;  // all ones when the block ended inside a string
  bool escaped = false;    // its last byte is a backslash that escapes the next block's first
};

// The bits of `block` (kJsonBlockBytes bytes) after the blocks `carry` comes from; updates it.
JsonBlockBits ClassifyJsonBlock(const char* block, JsonBlockCarry& carry);

// Bits 0..count-1 (count 0 to 64).
constexpr uint64_t LowBits(int count) {
  return count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
}

// WalkJsonStructure's walk of `text` with its visits limited to depth `visit.Deepest()` (asked
// again after each bracket): a structural byte or a string is visited when the depth it is
// visited with is no deeper. Returns the number of '{' outside strings or WalkJsonStructure's
// error; nullopt (some visits made) when `text` has a backslash outside every string.
template <typename Visitor>
[[nodiscard]] std::optional<Result<size_t>> WalkJsonStructureInBlocks(std::string_view text,
                                                                      int max_depth,
                                                                      Visitor& visit) {
  JsonBlockCarry carry;
  int depth = 0;
  size_t objects = 0;
  bool in_string = false;
  size_t string_begin = 0;               // after the opening quote of the string being read
  std::optional<size_t> last_backslash;  // before the current block
  char tail[kJsonBlockBytes];
  for (size_t base = 0; base < text.size(); base += kJsonBlockBytes) {
    const char* block = text.data() + base;
    if (text.size() - base < kJsonBlockBytes) {
      std::memset(tail, ' ', sizeof tail);  // plain bytes
      std::memcpy(tail, block, text.size() - base);
      block = tail;
    }
    const JsonBlockBits bits = ClassifyJsonBlock(block, carry);
    if (bits.stray_backslash) return std::nullopt;
    objects += static_cast<size_t>(std::popcount(bits.braces));
    // Whether a backslash stands between the open string's opening quote and block bit `bit`.
    const auto escaped_before = [&](int bit) {
      const uint64_t before = bits.backslashes & LowBits(bit);
      const std::optional<size_t> backslash =
          before != 0 ? std::optional(base + 63 - static_cast<size_t>(std::countl_zero(before)))
                      : last_backslash;
      return backslash && *backslash >= string_begin;
    };
    uint64_t brackets = bits.opens | bits.closes;
    int from = 0;  // the stretch [from, next bracket) has one depth
    for (;;) {
      const int to = brackets != 0 ? std::countr_zero(brackets) : 64;
      const uint64_t stretch = LowBits(to) & ~LowBits(from);
      if (depth <= visit.Deepest()) {
        for (uint64_t events = (bits.separators | bits.quotes) & stretch; events != 0;
             events &= events - 1) {
          const int bit = std::countr_zero(events);
          const size_t offset = base + static_cast<size_t>(bit);
          if (block[bit] != '"') {
            visit.Structure(block[bit], offset, depth);
          } else if ((in_string = !in_string)) {
            string_begin = offset + 1;
          } else {
            visit.String(string_begin, offset, escaped_before(bit), depth);
          }
        }
      } else if (const uint64_t quotes = bits.quotes & stretch; std::popcount(quotes) % 2 != 0) {
        // Strings that open and close in the stretch are never visited; one left open goes on.
        in_string = !in_string;
        string_begin = base + 64 - static_cast<size_t>(std::countl_zero(quotes));
      }
      if (to == 64) break;
      const char c = block[to];
      const size_t offset = base + static_cast<size_t>(to);
      if (c == '{' || c == '[') {
        if (++depth > max_depth) return Result<size_t>(JsonTooDeepError(max_depth, offset));
      } else {
        --depth;
      }
      if (depth <= visit.Deepest()) visit.Structure(c, offset, depth);
      brackets &= brackets - 1;
      from = to + 1;
    }
    if (bits.backslashes != 0) {
      last_backslash = base + 63 - static_cast<size_t>(std::countl_zero(bits.backslashes));
    }
  }
  if (in_string && depth <= visit.Deepest()) {
    visit.String(string_begin, text.size(), last_backslash && *last_backslash >= string_begin,
                 depth);
  }
  return Result<size_t>(objects);
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_JSON_STRUCTURE_BLOCKS_H_
