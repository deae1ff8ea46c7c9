#include "libanalysis/model/model_metadata.h"

#include <gtest/gtest.h>

#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// Coral's MobileNet carries the converter's min_runtime_version (text padded with NULs to 16
// bytes) and a TFLite Support metadata flatbuffer (binary: no text).
TEST(ReadMetadataEntries, GivesEachEntrysSizeAndItsTextWhenPrintable) {
  auto entries = ReadMetadataEntriesOfFile(
      testing::OraclePath("external/coral-test_data__mobilenet_v1_0.25_128_quant.tflite"));
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "min_runtime_version");
  EXPECT_EQ((*entries)[0].bytes, 16u);
  EXPECT_EQ((*entries)[0].text, "1.5.0");
  EXPECT_EQ((*entries)[1].name, "TFLITE_METADATA");
  EXPECT_GT((*entries)[1].bytes, 0u);
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
