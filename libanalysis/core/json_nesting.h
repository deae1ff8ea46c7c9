// JSON parsers recurse once per nesting level: every reader of untrusted JSON refuses absurd depth
// with this scan before parsing, so a hostile "[[[[..." cannot exhaust the stack.
#ifndef LIBANALYSIS_CORE_JSON_NESTING_H_
#define LIBANALYSIS_CORE_JSON_NESTING_H_

#include <string>
#include <string_view>

#include "libanalysis/core/status.h"

namespace tfa {

// The number of objects in `text` (the '{' outside strings: a bound readers size their lists
// by), or an error naming the byte where `text` nests deeper than `max_depth` arrays/objects.
[[nodiscard]] inline Result<size_t> CountJsonObjects(std::string_view text, int max_depth) {
  int depth = 0;
  size_t objects = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      objects += c == '{';
      if (++depth > max_depth) {
        return Status::Error("JSON nested deeper than " + std::to_string(max_depth) +
                             " levels (at byte " + std::to_string(i) + ")");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return objects;
}

// An error naming the byte where `text` nests deeper than `max_depth` arrays/objects.
[[nodiscard]] inline Status CheckJsonNesting(std::string_view text, int max_depth) {
  auto objects = CountJsonObjects(text, max_depth);
  return objects.ok() ? Status::Ok() : objects.status();
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_JSON_NESTING_H_
