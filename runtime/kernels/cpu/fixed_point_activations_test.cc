#include "runtime/kernels/cpu/fixed_point_activations.h"

#include <gtest/gtest.h>

#include <vector>

namespace tfa::runtime {
namespace {

// Inputs and outputs from upstream's tflite/kernels/internal/tensor_utils_test.cc
// (QuantSigmoidTest, QuantTanh3Test, QuantTanh4Test), which run gemmlowp's fixed point.
TEST(FixedPointActivationsTest, LogisticOfQ3_12MatchesUpstream) {
  const std::vector<int16_t> input = {-10500, 1398,   -6963,  -7404,  485,    -5401,  -1757, -7668,
                                      -19248, -9692,  -24249, -17923, -15840, -10026, 5249,  -89,
                                      1787,   -16178, -6691,  -19524, -13439, -24048, -1123, 32767,
                                      -17267, -3378,  823,    11482,  -11139, 7508};
  const std::vector<int16_t> expected = {2339,  19152, 5063,  4617,  17350, 6917, 12921, 4371,
                                         299,   2813,  89,    409,   673,   2605, 25646, 16207,
                                         19904, 615,   5353,  273,   1187,  91,   14153, 32756,
                                         475,   9983,  18026, 30898, 2023,  28246};
  for (size_t i = 0; i < input.size(); ++i)
    EXPECT_EQ(FixedPointLogistic(input[i], 3), expected[i]) << "input " << input[i];
}

TEST(FixedPointActivationsTest, TanhOfQ3_12MatchesUpstream) {
  const std::vector<int16_t> input = {-145, 899, -176, -35,  264, 289,  8,    27,   -37,  -1310,
                                      -120, 127, -16,  106,  370, -583, -299, 93,   -548, 548,
                                      653,  -29, -53,  1058, -52, -164, -149, -635, 201,  -1297};
  const std::vector<int16_t> expected = {-1156, 7076,   -1412, -276,  2104, 2308,  64,   220,
                                         -288,  -10132, -964,  1016,  -120, 844,   2944, -4640,
                                         -2392, 736,    -4352, 4352,  5180, -232,  -428, 8276,
                                         -412,  -1308,  -1196, -5044, 1612, -10044};
  for (size_t i = 0; i < input.size(); ++i)
    EXPECT_EQ(FixedPointTanh(input[i], 3), expected[i]) << "input " << input[i];
}

TEST(FixedPointActivationsTest, TanhOfQ4_11MatchesUpstream) {
  const std::vector<int16_t> input = {-5, 163, -31, -5, 54,  90,  1,   2,   -4,  -42,
                                      -8, 29,  0,   47, 150, -26, -36, 9,   -73, 25,
                                      14, -2,  -1,  29, -10, -12, -18, -29, 51,  -92};
  const std::vector<int16_t> expected = {
      -76,  2596, -496, -76,   856, 1436, 24,  36,  -64, -672, -120, 456,  0,    752, 2400,
      -412, -576, 148,  -1168, 400, 216,  -36, -24, 456, -164, -192, -292, -456, 820, -1476};
  for (size_t i = 0; i < input.size(); ++i)
    EXPECT_EQ(FixedPointTanh(input[i], 4), expected[i]) << "input " << input[i];
}

}  // namespace
}  // namespace tfa::runtime
