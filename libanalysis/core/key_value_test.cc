#include "libanalysis/core/key_value.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

TEST(SplitKeyValue, SplitsAtTheFirstEquals) {
  EXPECT_EQ(SplitKeyValue("allow_quant_ops=false"),
            std::make_pair(std::string("allow_quant_ops"), std::string("false")));
  EXPECT_EQ(SplitKeyValue("path=a=b"), std::make_pair(std::string("path"), std::string("a=b")));
  EXPECT_EQ(SplitKeyValue("empty="), std::make_pair(std::string("empty"), std::string()));
}

TEST(SplitKeyValue, RefusesNoKeyOrNoEquals) {
  EXPECT_FALSE(SplitKeyValue("=value").has_value());
  EXPECT_FALSE(SplitKeyValue("novalue").has_value());
  EXPECT_FALSE(SplitKeyValue("").has_value());
}

}  // namespace
}  // namespace tfa
