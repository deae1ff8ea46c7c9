// SharedString: an immutable string whose copies share one heap block.
//
// A report names a delegate on each of its partitions and an op, a delegate and a reason on each
// node a delegate rejected. When a delegate claims every other node of a million-node graph those
// are half a million copies of a few texts ("ops=ADD", "op not listed in ops=ADD"): as
// std::string each was 32 bytes, plus a heap block for the reason, held twice (the plan's list
// and the report's) (issue 46). A SharedString is one pointer: a copy adds a holder to the text,
// and the empty string needs no block at all.
//
// It reads as a `const std::string&` (implicitly, or through str()) and as a std::string_view,
// and compares with strings of any kind. fmt does not know it: format `s.str()`.
#ifndef LIBANALYSIS_CORE_SHARED_STRING_H_
#define LIBANALYSIS_CORE_SHARED_STRING_H_

#include <compare>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "libanalysis/core/shared_value.h"

namespace tfa {

class SharedString {
 public:
  SharedString() = default;
  SharedString(std::string text) : text_(std::move(text)) {}         // NOLINT: stands for a string
  SharedString(const char* text) : text_(std::string(text)) {}       // NOLINT: stands for a string
  SharedString(std::string_view text) : text_(std::string(text)) {}  // NOLINT: as above

  const std::string& str() const { return *text_; }
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)
  operator std::string_view() const { return str(); }    // NOLINT(google-explicit-constructor)
  const char* c_str() const { return str().c_str(); }
  size_t size() const { return str().size(); }
  bool empty() const { return str().empty(); }

  // Whether the two share one text (a copy of the other), not only equal characters.
  bool SharesTextWith(const SharedString& other) const { return &str() == &other.str(); }

  friend bool operator==(const SharedString& a, const SharedString& b) {
    return a.SharesTextWith(b) || a.str() == b.str();
  }
  friend bool operator==(const SharedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, const char* b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) {
    return a.str() <=> b.str();
  }
  friend std::ostream& operator<<(std::ostream& out, const SharedString& s) {
    return out << s.str();
  }

 private:
  SharedValue<std::string> text_;
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_SHARED_STRING_H_
