#include "libanalysis/core/char_iterator.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <string_view>

namespace tfa {
namespace {

// Every other character of a text: a derived iterator only moves its position.
class EveryOther : public CharIterator<EveryOther> {
 public:
  EveryOther() = default;
  explicit EveryOther(const char* position) : CharIterator(position) {}
  EveryOther& operator++() {
    position_ += 2;
    return *this;
  }
};

TEST(CharIterator, ReadsComparesAndPostIncrementsThroughThePosition) {
  const std::string_view text = "a-b-c-";
  EveryOther it(text.data());
  const EveryOther end(text.data() + text.size());
  EXPECT_EQ(*it, 'a');
  const EveryOther before = it++;
  EXPECT_EQ(*before, 'a');
  EXPECT_EQ(*it, 'b');
  EXPECT_EQ(std::string(it, end), "bc");
  EXPECT_EQ(std::distance(EveryOther(text.data()), end), 3);
  EXPECT_TRUE(EveryOther() == EveryOther());
  EXPECT_FALSE(it == end);
  static_assert(std::forward_iterator<EveryOther>);
}

}  // namespace
}  // namespace tfa
