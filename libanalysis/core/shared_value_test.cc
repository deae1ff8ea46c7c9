#include "libanalysis/core/shared_value.h"

#include <gtest/gtest.h>

#include <vector>

namespace tfa {
namespace {

using SharedInts = SharedValue<std::vector<int>>;

TEST(SharedValue, TheDefaultNeedsNoStorage) {
  const SharedInts unset;
  const SharedInts set_to_default = std::vector<int>{};
  EXPECT_TRUE(unset->empty());
  EXPECT_EQ(&*unset, &*set_to_default);  // both read the one default value
}

TEST(SharedValue, CopiesShareUntilOneChanges) {
  SharedInts original = {1, 2};
  const SharedInts copy = original;
  EXPECT_EQ(&*copy, &*original);
  original.Mutable().push_back(3);
  EXPECT_EQ(*copy, (std::vector<int>{1, 2}));
  EXPECT_EQ(*original, (std::vector<int>{1, 2, 3}));
}

TEST(SharedValue, AValueHeldAloneChangesInPlace) {
  SharedInts value = {4};
  std::vector<int>& first = value.Mutable();
  first.push_back(5);
  EXPECT_EQ(&value.Mutable(), &first);
  EXPECT_EQ(value, SharedInts({4, 5}));
}

TEST(SharedValue, IsOnePointerAndCountsItsHolders) {
  static_assert(sizeof(SharedInts) == sizeof(void*));
  SharedInts first = {1};
  SharedInts second = first;
  SharedInts third = std::move(second);
  EXPECT_EQ(&*third, &*first);
  third = first;  // the same value again: nothing is freed
  first = SharedInts({2});
  EXPECT_EQ(*third, (std::vector<int>{1}));
  const std::vector<int>* shared = &*third;
  EXPECT_EQ(&third.Mutable(), shared);  // the only holder left changes it in place, uncopied
  SharedInts fourth = third;
  EXPECT_NE(&fourth.Mutable(), shared);  // a value still held twice is copied first
  EXPECT_EQ(&*third, shared);
}

}  // namespace
}  // namespace tfa
