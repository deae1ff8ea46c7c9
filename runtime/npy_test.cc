#include "runtime/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace tfa::runtime {
namespace {

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// A version 1.0 file with `header` padded as numpy pads it (to 64 bytes, '\n' last), then `data`.
std::vector<uint8_t> NpyFile(const std::string& header, const std::string& data,
                             uint8_t major = 1) {
  const size_t prefix = major == 1 ? 10 : 12;
  std::string padded = header;
  while ((prefix + padded.size() + 1) % 64 != 0) padded += ' ';
  padded += '\n';
  std::string file = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  file += static_cast<char>(padded.size() & 0xff);
  file += static_cast<char>(padded.size() >> 8);
  if (major != 1) file += std::string(2, '\0');
  return Bytes(file + padded + data);
}

std::string Floats(std::initializer_list<float> values) {
  std::string s(values.size() * sizeof(float), '\0');
  std::memcpy(s.data(), std::data(values), s.size());
  return s;
}

// numpy.save(f, numpy.arange(6, dtype='<f4').reshape(2, 3)) writes exactly these bytes: a
// 118-byte header after the 10-byte prefix.
TEST(NpyTest, EncodesAsNumpySaves) {
  const std::string data = Floats({0, 1, 2, 3, 4, 5});
  auto encoded = EncodeNpy(TensorType::kFloat32, {2, 3},
                           std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
  ASSERT_TRUE(encoded.ok());
  const std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  const std::vector<uint8_t> expected = NpyFile(header, data);
  EXPECT_EQ(*encoded, expected);
  EXPECT_EQ(expected[8], 118);
  EXPECT_EQ(expected.size(), 128u + 24u);
}

TEST(NpyTest, OneDimensionAndScalarShapesAreTuples) {
  const uint8_t value[4] = {1, 0, 0, 0};
  auto vector = EncodeNpy(TensorType::kInt32, {1}, value);
  ASSERT_TRUE(vector.ok());
  EXPECT_NE(std::string(vector->begin(), vector->end()).find("'shape': (1,)"), std::string::npos);
  auto scalar = EncodeNpy(TensorType::kInt32, {}, value);
  ASSERT_TRUE(scalar.ok());
  EXPECT_NE(std::string(scalar->begin(), scalar->end()).find("'shape': ()"), std::string::npos);
}

TEST(NpyTest, ParsesWhatItWritesAndVersionTwoHeaders) {
  const std::string data = Floats({1.5f, -2});
  const auto file = NpyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", data);
  auto array = ParseNpy(file);
  ASSERT_TRUE(array.ok()) << array.status().message();
  EXPECT_EQ(array->type, TensorType::kFloat32);
  EXPECT_EQ(array->shape, (std::vector<int64_t>{1, 2}));
  ASSERT_EQ(array->data.size(), 8u);
  EXPECT_EQ(std::memcmp(array->data.data(), data.data(), 8), 0);

  const auto v2 = NpyFile("{\"descr\": \"|b1\", \"fortran_order\": False, \"shape\": (3,)}",
                          std::string("\1\0\1", 3), 2);
  auto flags = ParseNpy(v2);
  ASSERT_TRUE(flags.ok()) << flags.status().message();
  EXPECT_EQ(flags->type, TensorType::kBool);
  EXPECT_EQ(flags->shape, (std::vector<int64_t>{3}));
}

TEST(NpyTest, BadFilesSayWhatIsWrong) {
  const std::string two = Floats({1, 2});
  const auto error = [](const std::vector<uint8_t>& file) {
    auto parsed = ParseNpy(file);
    return parsed.ok() ? std::string("ok") : parsed.status().message();
  };
  EXPECT_EQ(error(Bytes("PK\3\4 not numpy")), "not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(error(NpyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", two)),
            "dtype '>f4' is big-endian; the tensors are little-endian (save with "
            "array.astype('<f4'))");
  EXPECT_EQ(error(NpyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", two)),
            "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  EXPECT_EQ(error(NpyFile("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", two)),
            "dtype '<U3' has no tensor type");
  EXPECT_EQ(error(NpyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", two)),
            "the .npy file is truncated: its shape needs 12 data bytes, it has 8");
  EXPECT_EQ(error(NpyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", two)),
            "the .npy file has 4 bytes after its data");
  EXPECT_EQ(error(NpyFile("{'descr': '<f4', 'shape': (2,), }", two)),
            "the .npy header lacks one of 'descr', 'fortran_order', 'shape' (at byte 54)");
  auto cut = NpyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", two);
  cut.resize(40);
  EXPECT_EQ(error(cut), "the .npy file is truncated");
  EXPECT_EQ(
      error(NpyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,), }", two)),
      "the .npy header 'shape' has a dimension above 2^31 (at byte 60)");
}

}  // namespace
}  // namespace tfa::runtime
