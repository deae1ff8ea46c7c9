#include "libanalysis/core/inline_ints.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tfa {
namespace {

using Ints = std::vector<int32_t>;
using Three = InlineInts<3>;

Ints Values(const Three& list) { return Ints(list); }

TEST(InlineInts, ShortListsLiveInsideTheObject) {
  static_assert(sizeof(InlineInts<3>) == 16);
  static_assert(sizeof(InlineInts<5>) == 24);
  Three list = {7, 8, 9};
  EXPECT_EQ(list.capacity(), 3u);
  const auto* self = reinterpret_cast<const char*>(&list);
  const auto* first = reinterpret_cast<const char*>(list.data());
  EXPECT_TRUE(first >= self && first < self + sizeof(list));
  EXPECT_EQ(Values(list), (Ints{7, 8, 9}));
}

TEST(InlineInts, LongerListsMoveToTheHeapAndKeepTheirValues) {
  Three list = {1, 2, 3};
  list.push_back(4);
  EXPECT_GE(list.capacity(), 4u);
  list.insert(list.begin() + 1, {10, 11});
  EXPECT_EQ(Values(list), (Ints{1, 10, 11, 2, 3, 4}));
  list.erase(list.begin(), list.begin() + 2);
  EXPECT_EQ(Values(list), (Ints{11, 2, 3, 4}));
  list.clear();
  EXPECT_TRUE(list.empty());
  list.push_back(5);
  EXPECT_EQ(Values(list), (Ints{5}));
}

TEST(InlineInts, MovingAHeapListHandsOverItsBlock) {
  Three list(10, 6);
  const int32_t* block = list.data();
  Three moved = std::move(list);
  EXPECT_EQ(moved.data(), block);
  EXPECT_EQ(moved.size(), 10u);
  EXPECT_TRUE(list.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  Three copy = moved;
  EXPECT_NE(copy.data(), block);
  EXPECT_EQ(copy, moved);
}

TEST(InlineInts, ComparesWithVectorsAndReadsAsASpan) {
  const Three list = {4, -1, 2};
  EXPECT_EQ(list, (Ints{4, -1, 2}));
  EXPECT_NE(list, (Ints{4, -1}));
  const std::span<const int32_t> view = list;
  EXPECT_EQ(view.size(), 3u);
  EXPECT_EQ(view[1], -1);
  EXPECT_LT(Three({1, 2}), Three({1, 3}));
  EXPECT_THROW(static_cast<void>(list.at(3)), std::out_of_range);
}

// One step of a random edit, applied to the list and to a std::vector alike.
struct Edit {
  int kind = 0;
  int32_t value = 0;
  size_t position = 0;  // taken modulo the size (plus one for inserts)
  size_t count = 0;
};

template <typename List>
void Apply(List& list, const Edit& edit) {
  const size_t size = list.size();
  switch (edit.kind) {
    case 0:
      list.push_back(edit.value);
      break;
    case 1:
      if (size > 0) list.pop_back();
      break;
    case 2:
      list.insert(list.begin() + static_cast<std::ptrdiff_t>(edit.position % (size + 1)),
                  edit.count, edit.value);
      break;
    case 3:
      if (size > 0) {
        const size_t first = edit.position % size;
        const size_t last = first + edit.count % (size - first + 1);
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(first),
                   list.begin() + static_cast<std::ptrdiff_t>(last));
      }
      break;
    case 4:
      list.resize(edit.count, edit.value);
      break;
    case 5:
      if (size > 0) list[edit.position % size] = edit.value;
      break;
    default:
      list.clear();
      break;
  }
}

RC_GTEST_PROP(InlineInts, EditsMatchStdVector, ()) {
  const auto edits = *rc::gen::container<std::vector<Edit>>(rc::gen::build<Edit>(
      rc::gen::set(&Edit::kind, rc::gen::inRange(0, 7)), rc::gen::set(&Edit::value),
      rc::gen::set(&Edit::position, rc::gen::inRange<size_t>(0, 64)),
      rc::gen::set(&Edit::count, rc::gen::inRange<size_t>(0, 9))));
  Three list;
  Ints expected;
  for (const Edit& edit : edits) {
    Apply(list, edit);
    Apply(expected, edit);
    RC_ASSERT(Values(list) == expected);
    RC_ASSERT(list.capacity() >= list.size());
  }
  Three copy = list;
  Three moved = std::move(list);
  RC_ASSERT(copy == moved);
  RC_ASSERT(Values(moved) == expected);
}

}  // namespace
}  // namespace tfa
