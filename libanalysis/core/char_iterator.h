// What every character iterator of the JSON readers has in common (nlohmann's sax_parse takes an
// iterator pair): the standard member types, reading and comparing through one position, and
// post-increment through the derived class's pre-increment, which is all a reader writes.
#ifndef LIBANALYSIS_CORE_CHAR_ITERATOR_H_
#define LIBANALYSIS_CORE_CHAR_ITERATOR_H_

#include <cstddef>
#include <iterator>

namespace tfa {

template <typename Derived>
class CharIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char& operator*() const { return *position_; }
  // A friend, not a member: the derived class's operator++ would hide a member one.
  friend Derived operator++(Derived& it, int) {
    Derived before = it;
    ++it;
    return before;
  }
  friend bool operator==(const Derived& a, const Derived& b) {
    return static_cast<const CharIterator&>(a).position_ ==
           static_cast<const CharIterator&>(b).position_;
  }

 protected:
  CharIterator() = default;
  explicit CharIterator(const char* position) : position_(position) {}

  const char* position_ = nullptr;
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_CHAR_ITERATOR_H_
