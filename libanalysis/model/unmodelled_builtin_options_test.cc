#include "libanalysis/model/unmodelled_builtin_options.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

TEST(UnmodelledBuiltinOptionsTest, FakeQuantParametersReadBackAsWritten) {
  OpOptions options;
  const FakeQuantParameters written{-0.9f, 0.9f, 16, true};
  options.custom_options = EncodeFakeQuantParameters(written);
  auto read = FakeQuantParametersOf(options);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, written);
}

// A FAKE_QUANT without a builtin_options table: upstream's zero-initialised parameters.
TEST(UnmodelledBuiltinOptionsTest, NoOptionsReadAsZeros) {
  auto read = FakeQuantParametersOf(OpOptions{});
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, FakeQuantParameters{});
}

TEST(UnmodelledBuiltinOptionsTest, BytesThatAreNoMapAreAnError) {
  OpOptions options;
  options.custom_options = {1, 2, 3};
  auto read = FakeQuantParametersOf(options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(), "builtin options are not a valid flexbuffer (3 bytes)");
}

TEST(UnmodelledBuiltinOptionsTest, OnlyFakeQuantKeepsItsOptionsThere) {
  EXPECT_TRUE(HasUnmodelledBuiltinOptions("FAKE_QUANT"));
  EXPECT_FALSE(HasUnmodelledBuiltinOptions("ADD"));
}

}  // namespace
}  // namespace tfa
