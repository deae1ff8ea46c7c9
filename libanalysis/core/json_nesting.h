// JSON parsers recurse once per nesting level: every reader of untrusted JSON refuses absurd depth
// with this scan before parsing, so a hostile "[[[[..." cannot exhaust the stack.
#ifndef LIBANALYSIS_CORE_JSON_NESTING_H_
#define LIBANALYSIS_CORE_JSON_NESTING_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "libanalysis/core/status.h"

namespace tfa {

// The error of a walk that meets, at `offset`, an opening beyond `max_depth`.
inline Status JsonTooDeepError(int max_depth, size_t offset) {
  return Status::Error("JSON nested deeper than " + std::to_string(max_depth) +
                       " levels (at byte " + std::to_string(offset) + ")");
}

// One pass over the structure of `text`, outside strings: `visit.Structure(c, offset, depth)` for
// every '{', '[', '}', ']', ',' and ':' (depth: the nesting inside an opening bracket, outside a
// closing one), and `visit.String(begin, end, escaped, depth)` for every string, quotes excluded
// (escaped: it holds a backslash). Returns the number of objects (the '{' outside strings: a
// bound readers size their lists by), or an error naming the byte where `text` nests deeper than
// `max_depth` arrays/objects. Not a validator: the parser that follows is.
template <typename Visitor>
[[nodiscard]] Result<size_t> WalkJsonStructure(std::string_view text, int max_depth,
                                               Visitor& visit) {
  // Most bytes of a graph are digits and names: one table lookup passes them by.
  enum : uint8_t { kPlain, kQuote, kOpen, kClose, kSeparator };
  static constexpr std::array<uint8_t, 256> kKinds = [] {
    std::array<uint8_t, 256> kinds{};
    kinds['"'] = kQuote;
    kinds['['] = kinds['{'] = kOpen;
    kinds[']'] = kinds['}'] = kClose;
    kinds[','] = kinds[':'] = kSeparator;
    return kinds;
  }();
  int depth = 0;
  size_t objects = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (kKinds[static_cast<unsigned char>(c)]) {
      case kPlain:
        break;
      case kQuote: {
        const size_t begin = i + 1;
        bool escaped = false;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
          if (text[i] == '\\') {
            escaped = true;
            ++i;
          }
        }
        visit.String(begin, std::min(i, text.size()), escaped, depth);
        break;
      }
      case kOpen:
        if (++depth > max_depth) return JsonTooDeepError(max_depth, i);
        objects += c == '{';
        visit.Structure(c, i, depth);
        break;
      case kClose:
        visit.Structure(c, i, --depth);
        break;
      default:
        visit.Structure(c, i, depth);
        break;
    }
  }
  return objects;
}

// The number of objects in `text`, or an error naming the byte where `text` nests deeper than
// `max_depth` arrays/objects.
[[nodiscard]] inline Result<size_t> CountJsonObjects(std::string_view text, int max_depth) {
  struct NoVisits {
    void Structure(char, size_t, int) {}
    void String(size_t, size_t, bool, int) {}
  } none;
  return WalkJsonStructure(text, max_depth, none);
}

// An error naming the byte where `text` nests deeper than `max_depth` arrays/objects.
[[nodiscard]] inline Status CheckJsonNesting(std::string_view text, int max_depth) {
  auto objects = CountJsonObjects(text, max_depth);
  return objects.ok() ? Status::Ok() : objects.status();
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_JSON_NESTING_H_
