#include "cli/number_flags.h"

#include <gtest/gtest.h>

#include <functional>

#include "cli/command.h"

namespace tfa::cli {
namespace {

std::string ErrorOf(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const CommandError& e) {
    return e.message;
  }
  return "";
}

TEST(NumberFlags, UnsignedTakesTheWholeRangeAndNothingElse) {
  EXPECT_EQ(UnsignedFlagOrThrow("--input-seed", "0"), 0u);
  EXPECT_EQ(UnsignedFlagOrThrow("--input-seed", "18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(ErrorOf([] { UnsignedFlagOrThrow("--input-seed", "-5"); }),
            "--input-seed: expected an integer from 0 to 18446744073709551615, got \"-5\"");
  for (const char* bad : {"18446744073709551616", "", "+5", " 5", "5 ", "0x10", "1e3", "5k"}) {
    EXPECT_NE(ErrorOf([&] { UnsignedFlagOrThrow("--input-seed", bad); }), "") << bad;
  }
  EXPECT_EQ(UnsignedFlagOrThrow("--n", "010"), 10u) << "decimal, not octal";
  EXPECT_EQ(ErrorOf([] { UnsignedFlagOrThrow("--n", "8", 7); }),
            "--n: expected an integer from 0 to 7, got \"8\"");
}

TEST(NumberFlags, IntegerKeepsToItsRange) {
  EXPECT_EQ(IntegerFlagOrThrow("--max-partitions", "-3", INT32_MIN, INT32_MAX), -3);
  EXPECT_EQ(
      ErrorOf([] { IntegerFlagOrThrow("--max-partitions", "2147483648", INT32_MIN, INT32_MAX); }),
      "--max-partitions: expected an integer from -2147483648 to 2147483647, got "
      "\"2147483648\"");
  EXPECT_EQ(ErrorOf([] { IntegerFlagOrThrow("--min-nodes-per-partition", "-1", 0, INT32_MAX); }),
            "--min-nodes-per-partition: expected an integer from 0 to 2147483647, got \"-1\"");
}

TEST(NumberFlags, RealIsFiniteAndNotNegative) {
  EXPECT_EQ(NonNegativeRealFlagOrThrow("--tolerance", "0.001"), 0.001);
  EXPECT_EQ(NonNegativeRealFlagOrThrow("--tolerance", "1e-3"), 0.001);
  EXPECT_EQ(NonNegativeRealFlagOrThrow("--tolerance", "0"), 0.0);
  EXPECT_EQ(ErrorOf([] { NonNegativeRealFlagOrThrow("--tolerance", "-1"); }),
            "--tolerance: expected a number >= 0, got \"-1\"");
  for (const char* bad : {"nan", "inf", "1e999", "", "0.1x", "+1"}) {
    EXPECT_NE(ErrorOf([&] { NonNegativeRealFlagOrThrow("--tolerance", bad); }), "") << bad;
  }
}

}  // namespace
}  // namespace tfa::cli
