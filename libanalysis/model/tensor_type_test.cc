#include "libanalysis/model/tensor_type.h"

#include <gtest/gtest.h>

#include <limits>

namespace tfa {
namespace {

// tflite/util.cc BytesRequired: sub-byte types packed and rounded up, the rest element size x
// count.
TEST(TensorTypeTest, DataBytesPacksSubByteTypes) {
  EXPECT_EQ(DataBytes(TensorType::kInt4, 1048576), 524288u);
  EXPECT_EQ(DataBytes(TensorType::kInt4, 5), 3u);
  EXPECT_EQ(DataBytes(TensorType::kUInt4, 1), 1u);
  EXPECT_EQ(DataBytes(TensorType::kInt2, 4), 1u);
  EXPECT_EQ(DataBytes(TensorType::kInt2, 5), 2u);
  EXPECT_EQ(DataBytes(TensorType::kFloat32, 6), 24u);
  EXPECT_EQ(DataBytes(TensorType::kInt8, 0), 0u);
  EXPECT_EQ(DataBytes(TensorType::kString, 6), std::nullopt);
  EXPECT_EQ(DataBytes(TensorType::kComplex128, std::numeric_limits<uint64_t>::max()), std::nullopt);
}

TEST(TensorTypeTest, SchemaValuesAndNamesOfTheSubByteTypes) {
  EXPECT_EQ(TensorTypeFromSchemaValue(19), TensorType::kInt2);
  EXPECT_EQ(TensorTypeFromSchemaValue(20), TensorType::kUInt4);
  EXPECT_EQ(TensorTypeFromSchemaValue(21), std::nullopt) << "float8: no TfLiteType reads it";
  EXPECT_STREQ(TensorTypeName(TensorType::kInt2), "int2");
  EXPECT_EQ(TensorTypeFromName("uint4"), TensorType::kUInt4);
}

}  // namespace
}  // namespace tfa
