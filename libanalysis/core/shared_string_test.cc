#include "libanalysis/core/shared_string.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tfa {
namespace {

TEST(SharedString, IsOnePointerAndTheEmptyStringNeedsNoBlock) {
  static_assert(sizeof(SharedString) == sizeof(void*));
  const SharedString unset;
  const SharedString empty = std::string();
  EXPECT_TRUE(unset.empty());
  EXPECT_TRUE(unset.SharesTextWith(empty));
}

TEST(SharedString, CopiesShareTheirText) {
  const SharedString reason = std::string("op not listed in ops=ADD");
  const std::vector<SharedString> copies(3, reason);
  for (const SharedString& copy : copies) {
    EXPECT_TRUE(copy.SharesTextWith(reason));
    EXPECT_EQ(copy, reason);
  }
  const SharedString equal_text = std::string("op not listed in ops=ADD");
  EXPECT_FALSE(equal_text.SharesTextWith(reason));
  EXPECT_EQ(equal_text, reason);
}

TEST(SharedString, ReadsAndComparesAsAString) {
  const SharedString op = "MUL";
  const std::string& text = op;
  EXPECT_EQ(text, "MUL");
  EXPECT_EQ(op.str(), "MUL");
  EXPECT_EQ(std::string_view(op), "MUL");
  EXPECT_EQ(op.size(), 3u);
  EXPECT_EQ(op, "MUL");
  EXPECT_EQ("MUL", op);
  EXPECT_EQ(op, std::string("MUL"));
  EXPECT_NE(op, "ADD");
  EXPECT_LT(SharedString("ADD"), op);
  std::map<std::string, int> counts;
  ++counts[op];
  EXPECT_EQ(counts.at("MUL"), 1);
  std::ostringstream out;
  out << op;
  EXPECT_EQ(out.str(), "MUL");
}

}  // namespace
}  // namespace tfa
