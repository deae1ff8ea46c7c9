#include "libanalysis/core/json_run_reader.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/support/json_event_log.h"

namespace tfa {
namespace {

using testing::JsonEventLog;
using testing::NlohmannRunEvents;

std::optional<std::vector<std::string>> RunReaderEvents(const std::string& run) {
  JsonEventLog log;
  if (!ReadJsonRun(run, log)) return std::nullopt;
  return log.events;
}

TEST(ReadJsonRun, GivesTheEventsOfTheElementsInBrackets) {
  const std::string run =
      R"({"name":"t0","bytes":4096,"shape":[1,-2,3]} , {"a":[],"b":{}},1.5e3,true,false,null)";
  EXPECT_EQ(RunReaderEvents(run), NlohmannRunEvents(run));
  EXPECT_EQ(RunReaderEvents(run)->size(), 26u);
}

TEST(ReadJsonRun, LeavesEscapesAndNonAsciiToNlohmann) {
  for (const std::string run :
       {R"("tab\there")", R"("\u00e9\ud83d\ude00")", "\"caf\xc3\xa9\"", R"("quote\"d")"}) {
    EXPECT_EQ(RunReaderEvents(run), NlohmannRunEvents(run)) << run;
    EXPECT_TRUE(RunReaderEvents(run).has_value()) << run;
  }
}

TEST(ReadJsonRun, ReadsTheIntegerLimitsAndDeclinesBeyondThem) {
  for (const std::string run : {"18446744073709551615", "-9223372036854775808", "-0", "0"}) {
    EXPECT_EQ(RunReaderEvents(run), NlohmannRunEvents(run)) << run;
  }
  // nlohmann reads these as floats; the run reader leaves them to it.
  EXPECT_FALSE(RunReaderEvents("18446744073709551616").has_value());
  EXPECT_FALSE(RunReaderEvents("-9223372036854775809").has_value());
}

TEST(ReadJsonRun, DeclinesWhatNlohmannRefuses) {
  for (const std::string run :
       {"01",      "1,",  "[1,]", R"({"a" 1})", R"({"a":1,})", "tru",
        R"("\x")", "1e",  "-",    "1.e5",       "1e400",       R"("ab)",
        "]",       "{}}", "[[]",  "\"\x01\"",   "\"\xff\"",    R"("\ud800")",
        "nul",     "+1",  ".5",   "1 2"}) {
    EXPECT_FALSE(NlohmannRunEvents(run).has_value()) << run;
    EXPECT_FALSE(RunReaderEvents(run).has_value()) << run;
  }
}

std::string Whitespace() {
  static const std::vector<std::string> kSpaces = {"", "", " ", "\n", "\t ", "\r\n"};
  return *rc::gen::elementOf(kSpaces);
}

std::string RandomValue(int depth) {
  static const std::vector<std::string> kScalars = {"0",
                                                    "-0",
                                                    "12",
                                                    "-7",
                                                    "4096",
                                                    "1.5",
                                                    "-2.5e-3",
                                                    "1E10",
                                                    "0.1e+2",
                                                    "true",
                                                    "false",
                                                    "null",
                                                    R"("")",
                                                    R"("t0")",
                                                    "\"\xc3\xa9\"",
                                                    R"("a\nb")",
                                                    R"("\u00e9")",
                                                    R"("\ud83d\ude00")",
                                                    R"("\"q\"")",
                                                    "18446744073709551615",
                                                    "-9223372036854775808"};
  const int kind = depth > 3 ? 0 : *rc::gen::inRange(0, 4);
  if (kind == 0) return std::to_string(*rc::gen::arbitrary<int32_t>());
  if (kind == 1) return *rc::gen::elementOf(kScalars);
  const size_t count = *rc::gen::inRange(0, 4);
  std::string text = kind == 2 ? "[" : "{";
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) text += "," + Whitespace();
    if (kind == 3) text += "\"k" + std::to_string(i) + "\"" + Whitespace() + ":" + Whitespace();
    text += RandomValue(depth + 1) + Whitespace();
  }
  return text + (kind == 2 ? "]" : "}");
}

std::string RandomRun() {
  const size_t count = *rc::gen::inRange(0, 5);
  std::string run = Whitespace();
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) {
      run += ',';
      run += Whitespace();
    }
    run += RandomValue(0) + Whitespace();
  }
  return run;
}

RC_GTEST_PROP(ReadJsonRunProperty, ReadsValidRunsAsNlohmannDoes, ()) {
  const std::string run = RandomRun();
  const auto expected = NlohmannRunEvents(run);
  RC_ASSERT(expected.has_value());
  RC_ASSERT(RunReaderEvents(run) == expected);
}

// On damaged text the run reader declines or gives nlohmann's events: it never accepts what
// nlohmann refuses.
RC_GTEST_PROP(ReadJsonRunProperty, DamagedRunsAreDeclinedOrReadAsNlohmannReadsThem, ()) {
  std::string run = RandomRun();
  RC_PRE(!run.empty());
  static const std::string kBytes = "{}[],:\"\\ 0-.eE+tfnu\x01\x80\xc3\xff";
  const size_t damages = *rc::gen::inRange(1, 4);
  for (size_t d = 0; d < damages && !run.empty(); ++d) {
    const size_t at = *rc::gen::inRange<size_t>(0, run.size());
    if (*rc::gen::arbitrary<bool>()) {
      run[at] = *rc::gen::elementOf(kBytes);
    } else {
      run.erase(at, *rc::gen::inRange<size_t>(1, 4));
    }
  }
  const auto read = RunReaderEvents(run);
  if (read.has_value()) RC_ASSERT(read == NlohmannRunEvents(run));
}

}  // namespace
}  // namespace tfa
