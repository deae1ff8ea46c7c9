#include "libanalysis/core/shared_list.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace tfa {
namespace {

std::vector<std::string> Items(const SharedList<std::string>& list) { return list.ToVector(); }

// The address of element i as a const reader sees it: equal addresses mean shared storage.
const std::string* Address(const SharedList<std::string>& list, size_t i) { return &list[i]; }

TEST(SharedList, CopySharesElementsUntilOneSideChangesThem) {
  SharedList<std::string> original({"a", "b", "c"});
  SharedList<std::string> copy = original;
  EXPECT_EQ(Address(copy, 1), Address(original, 1));

  copy[1] = "changed";
  EXPECT_EQ(Items(original), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(Items(copy), (std::vector<std::string>{"a", "changed", "c"}));
  EXPECT_NE(Address(copy, 0), Address(original, 0));
}

TEST(SharedList, AppendsToACopyLeaveTheSharedElementsInPlace) {
  SharedList<std::string> original({"a", "b"});
  SharedList<std::string> copy = original;
  copy.reserve(4);
  copy.push_back("c");
  copy.emplace_back("d");
  EXPECT_EQ(Address(copy, 0), Address(original, 0));
  EXPECT_EQ(Items(copy), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(Items(original), (std::vector<std::string>{"a", "b"}));

  original.push_back("x");  // the original's base is shared too: its append goes to its own tail
  EXPECT_EQ(Items(original), (std::vector<std::string>{"a", "b", "x"}));
  EXPECT_EQ(copy.size(), 4u);
}

TEST(SharedList, AListAloneChangesItsElementsInPlace) {
  SharedList<std::string> list({"a", "b"});
  const std::string* before = Address(list, 0);
  list[0] = "z";
  EXPECT_EQ(Address(list, 0), before);
  list.push_back("c");
  EXPECT_EQ(list.front(), "z");
  EXPECT_EQ(list.back(), "c");
  {
    SharedList<std::string> copy = list;  // shares, then goes away: the list is alone again
  }
  list[1] = "y";
  EXPECT_EQ(Items(list), (std::vector<std::string>{"z", "y", "c"}));
  list.reserve(100);
  const std::string* reserved = Address(list, 0);
  list.resize(100);
  EXPECT_EQ(Address(list, 0), reserved);
}

TEST(SharedList, MovedFromListIsEmpty) {
  SharedList<std::string> list({"a"});
  list.push_back("b");
  SharedList<std::string> moved = std::move(list);
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_TRUE(list.empty());  // NOLINT(bugprone-use-after-move): the state a move leaves
  list.push_back("c");
  EXPECT_EQ(Items(list), (std::vector<std::string>{"c"}));
}

TEST(SharedList, IteratorsWorkWithStandardAlgorithms) {
  SharedList<int> list({5, 3, 9});
  SharedList<int> copy = list;
  copy.push_back(1);
  EXPECT_EQ(std::count_if(copy.begin(), copy.end(), [](int v) { return v > 2; }), 3);
  EXPECT_EQ(*std::max_element(copy.cbegin(), copy.cend()), 9);
  EXPECT_EQ(copy.end() - copy.begin(), 4);
  std::sort(copy.begin(), copy.end());
  EXPECT_EQ(copy.ToVector(), (std::vector<int>{1, 3, 5, 9}));
  EXPECT_EQ(list.ToVector(), (std::vector<int>{5, 3, 9}));
  copy.insert(copy.begin() + 1, 2);
  EXPECT_EQ(copy.ToVector(), (std::vector<int>{1, 2, 3, 5, 9}));
}

// One step of a random program run on a SharedList and on the vector it stands for.
struct Step {
  enum Kind { kPushBack, kSet, kCopy, kDropCopy, kResize, kInsert, kClear } kind;
  size_t index;
  int value;
};

RC_GTEST_PROP(SharedListProperty, BehavesAsAVectorWhateverItShares, ()) {
  const auto steps = *rc::gen::container<std::vector<Step>>(rc::gen::build<Step>(
      rc::gen::set(&Step::kind, rc::gen::cast<Step::Kind>(rc::gen::inRange(0, 7))),
      rc::gen::set(&Step::index, rc::gen::inRange<size_t>(0, 40)),
      rc::gen::set(&Step::value, rc::gen::arbitrary<int>())));
  // Every list and the vector each must equal; copies come and go as delegation's copies do.
  std::vector<SharedList<int>> lists(1);
  std::vector<std::vector<int>> expected(1);
  for (const Step& step : steps) {
    const size_t which = step.index % lists.size();
    SharedList<int>& list = lists[which];
    std::vector<int>& want = expected[which];
    switch (step.kind) {
      case Step::kPushBack:
        list.push_back(step.value);
        want.push_back(step.value);
        break;
      case Step::kSet:
        if (want.empty()) break;
        list[step.index % want.size()] = step.value;
        want[step.index % want.size()] = step.value;
        break;
      case Step::kCopy:
        lists.push_back(list);
        expected.push_back(want);
        break;
      case Step::kDropCopy:
        if (lists.size() == 1) break;
        lists.erase(lists.begin() + static_cast<std::ptrdiff_t>(which));
        expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(which));
        break;
      case Step::kResize:
        list.resize(step.index);
        want.resize(step.index);
        break;
      case Step::kInsert: {
        const size_t at = want.empty() ? 0 : step.index % (want.size() + 1);
        list.insert(list.cbegin() + static_cast<std::ptrdiff_t>(at), step.value);
        want.insert(want.begin() + static_cast<std::ptrdiff_t>(at), step.value);
        break;
      }
      case Step::kClear:
        list.clear();
        want.clear();
        break;
    }
    for (size_t k = 0; k < lists.size(); ++k) RC_ASSERT(lists[k].ToVector() == expected[k]);
  }
}

}  // namespace
}  // namespace tfa
