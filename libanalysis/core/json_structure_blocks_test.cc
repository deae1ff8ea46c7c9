#include "libanalysis/core/json_structure_blocks.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/core/json_nesting.h"

namespace tfa {
namespace {

// Every visit, one string each, down to `deepest`.
struct VisitLog {
  int deepest = 1 << 20;
  std::vector<std::string> visits;

  int Deepest() const { return deepest; }
  void Structure(char c, size_t offset, int depth) {
    if (depth > deepest) return;
    visits.push_back(std::string(1, c) + " " + std::to_string(offset) + " " +
                     std::to_string(depth));
  }
  void String(size_t begin, size_t end, bool escaped, int depth) {
    if (depth > deepest) return;
    visits.push_back("string " + std::to_string(begin) + ".." + std::to_string(end) +
                     (escaped ? " escaped " : " ") + std::to_string(depth));
  }
};

struct Walk {
  std::vector<std::string> visits;
  std::string status;  // "" when ok
  size_t objects = 0;

  bool operator==(const Walk&) const = default;
};

// The reference's visits, those deeper than `deepest` left out.
Walk Reference(std::string_view text, int max_depth, int deepest) {
  VisitLog log{deepest, {}};
  const auto objects = WalkJsonStructure(text, max_depth, log);
  return {log.visits, objects.ok() ? "" : objects.status().message(), objects.ok() ? *objects : 0};
}

std::optional<Walk> InBlocks(std::string_view text, int max_depth, int deepest) {
  VisitLog log{deepest, {}};
  const auto objects = WalkJsonStructureInBlocks(text, max_depth, log);
  if (!objects) return std::nullopt;
  return Walk{log.visits, objects->ok() ? "" : objects->status().message(),
              objects->ok() ? **objects : 0};
}

// Whether a backslash stands outside every string, as the reference walks them.
bool HasStrayBackslash(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') return true;
    if (text[i] != '"') continue;
    for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\';
  }
  return false;
}

void ExpectSameWalk(const std::string& text, int max_depth) {
  for (int deepest : {0, 1, 2, 3, 1 << 20}) {
    const auto fast = InBlocks(text, max_depth, deepest);
    ASSERT_TRUE(fast.has_value()) << text;
    EXPECT_EQ(*fast, Reference(text, max_depth, deepest)) << text << " down to " << deepest;
  }
}

TEST(WalkJsonStructureInBlocks, VisitsAsTheReferenceDoes) {
  ExpectSameWalk(R"({"tensors":[{"name":"a\"b","shape":[1,2]},{"name":"c\\"}],"x":"\\\""})", 64);
  ExpectSameWalk("", 64);
  ExpectSameWalk("\"never closed \\\" [", 64);
  ExpectSameWalk("[[\"open in a deep stretch " + std::string(80, 'x'), 64);
}

// Strings and escapes that cross the 64-byte blocks, a backslash as a block's last byte.
TEST(WalkJsonStructureInBlocks, CarriesStringsAndEscapesAcrossBlocks) {
  for (size_t pad = 55; pad < 70; ++pad) {
    const std::string text = "[\"" + std::string(pad, 'x') + "\\\\\\\"" + std::string(70, 'y') +
                             "\", {\"k\": [1, 2]}, \"" + std::string(pad, '\\') + "\"]";
    ExpectSameWalk(text, 64);
  }
}

TEST(WalkJsonStructureInBlocks, NamesTheByteWhereNestingIsTooDeep) {
  const std::string text = std::string(70, ' ') + "[[[[{\"a\": [[1]]}]]]]";
  ExpectSameWalk(text, 5);
  EXPECT_EQ(InBlocks(text, 5, 2)->status, "JSON nested deeper than 5 levels (at byte 80)");
}

TEST(WalkJsonStructureInBlocks, DeclinesABackslashOutsideStrings) {
  EXPECT_FALSE(InBlocks(R"({"a": \"b"})", 64, 1).has_value());
  EXPECT_TRUE(InBlocks(R"({"a\\": "b"})", 64, 1).has_value());
}

RC_GTEST_PROP(WalkJsonStructureInBlocksProperty, VisitsAsTheReferenceOrDeclinesAStrayBackslash,
              ()) {
  static const std::string kBytes = "{}[],:\"\"\"\\\\ax 1\n";
  const auto size = *rc::gen::inRange<size_t>(0, 400);
  std::string text;
  // Backslashes: none, one in eight kept, or all (most such texts have a stray one).
  const int backslash_odds = *rc::gen::element(0, 8, 1);
  for (size_t i = 0; i < size; ++i) {
    char c = *rc::gen::elementOf(kBytes);
    if (c == '\\' && (backslash_odds == 0 || *rc::gen::inRange(0, backslash_odds) != 0)) c = 'b';
    text += c;
  }
  const int max_depth = *rc::gen::inRange(1, 12);
  const int deepest = *rc::gen::inRange(0, 14);
  const auto fast = InBlocks(text, max_depth, deepest);
  RC_CLASSIFY(!fast.has_value(), "declined");
  if (!fast) {
    RC_ASSERT(HasStrayBackslash(text));
    return;
  }
  RC_ASSERT(*fast == Reference(text, max_depth, deepest));
}

// Valid-looking text with strings: never declined.
RC_GTEST_PROP(WalkJsonStructureInBlocksProperty, TextWithoutStrayBackslashesIsNeverDeclined, ()) {
  static const std::vector<std::string> kPieces = {"{",
                                                   "}",
                                                   "[",
                                                   "]",
                                                   ",",
                                                   ":",
                                                   " ",
                                                   "\n",
                                                   "12",
                                                   "\"name\"",
                                                   "\"a\\\"b\"",
                                                   "\"\\\\\"",
                                                   "\"" + std::string(60, 'n') + "\"",
                                                   "\"\\u00e9\""};
  std::string text;
  const auto pieces = *rc::gen::inRange(0, 120);
  for (int i = 0; i < pieces; ++i) text += *rc::gen::elementOf(kPieces);
  RC_PRE(!HasStrayBackslash(text));
  const int deepest = *rc::gen::inRange(0, 10);
  const auto fast = InBlocks(text, 8, deepest);
  RC_ASSERT(fast.has_value());
  RC_ASSERT(*fast == Reference(text, 8, deepest));
}

}  // namespace
}  // namespace tfa
