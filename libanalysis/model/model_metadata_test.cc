#include "libanalysis/model/model_metadata.h"

#include <gtest/gtest.h>

#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// TFLite Micro's hello_world carries the converter's min_runtime_version (text padded with NULs
// to 16 bytes) and its CONVERSION_METADATA flatbuffer (binary: no text).
TEST(ReadMetadataEntries, GivesEachEntrysSizeAndItsTextWhenPrintable) {
  auto entries = ReadMetadataEntriesOfFile(testing::OraclePath(
      "external/"
      "tflite-micro__tensorflow_lite_micro_examples_hello_world_models_hello_world_int8.tflite"));
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "min_runtime_version");
  EXPECT_EQ((*entries)[0].bytes, 16u);
  EXPECT_EQ((*entries)[0].text, "1.14.0");
  EXPECT_EQ((*entries)[1].name, "CONVERSION_METADATA");
  EXPECT_EQ((*entries)[1].bytes, 88u);
  EXPECT_FALSE((*entries)[1].text.has_value());
}

TEST(ReadMetadataEntries, RefusesWhatIsNoModelInOneLine) {
  const std::vector<uint8_t> junk = {'T', 'F', 'L', '3', 1, 2, 3, 4, 5, 6};
  auto entries = ReadMetadataEntries(junk, "junk.tflite");
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.status().message(), "junk.tflite: not a .tflite model");
  auto missing = ReadMetadataEntriesOfFile("/nonexistent.tflite");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message().rfind("/nonexistent.tflite: cannot open file", 0), 0u);
}

}  // namespace
}  // namespace tfa
