#include "libanalysis/core/optional_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>

namespace tfa {
namespace {

TEST(OptionalBytes, IsOneWordThatReadsAsAnOptional) {
  static_assert(sizeof(OptionalBytes) == sizeof(uint64_t));
  const OptionalBytes unknown;
  const OptionalBytes known = uint64_t{4096};
  EXPECT_FALSE(unknown.has_value());
  EXPECT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(unknown.value_or(7), 7u);
  EXPECT_THROW(static_cast<void>(unknown.value()), std::bad_optional_access);
  EXPECT_EQ(*known, 4096u);
  EXPECT_EQ(std::optional<uint64_t>(known), std::optional<uint64_t>(4096));
  EXPECT_EQ(std::optional<uint64_t>(unknown), std::nullopt);
}

TEST(OptionalBytes, ComparesAsTheOptionalItStandsFor) {
  const OptionalBytes unknown = std::optional<uint64_t>();
  const OptionalBytes zero = uint64_t{0};
  EXPECT_TRUE(unknown == std::nullopt);
  EXPECT_TRUE(unknown == std::optional<uint64_t>());  // both unknown: equal, as optionals are
  EXPECT_FALSE(zero == std::nullopt);
  EXPECT_TRUE(zero == 0u);
  EXPECT_FALSE(unknown == 0u);
  EXPECT_TRUE(zero == std::optional<uint64_t>(0));
  EXPECT_FALSE(zero == unknown);
  OptionalBytes changed = zero;
  changed.reset();
  EXPECT_EQ(changed, unknown);
  // The one count it cannot hold reads as unknown: no tensor has 2^64 - 1 bytes.
  EXPECT_FALSE(OptionalBytes(std::numeric_limits<uint64_t>::max()).has_value());
}

}  // namespace
}  // namespace tfa
