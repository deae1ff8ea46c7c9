#include "runtime/input_generator.h"

#include <gtest/gtest.h>

#include <vector>

namespace tfa::runtime {
namespace {

TEST(InputGeneratorTest, StreamFromSeedOne) {
  InputGenerator g(1);
  EXPECT_EQ(g.Next(), 1817669548u);
  EXPECT_EQ(g.Next(), 2187888307u);
  EXPECT_EQ(g.Next(), 2784682393u);
}

TEST(InputGeneratorTest, OneStreamAcrossTypes) {
  // float32 [2] takes values 1-2, then bool [1] value 3, then a uint8 [1] value 4.
  std::vector<float> f(2);
  std::vector<uint8_t> b(1), q(1);
  RuntimeTensor tf{TensorType::kFloat32, {2}, reinterpret_cast<uint8_t*>(f.data()), 8};
  RuntimeTensor tb{TensorType::kBool, {1}, b.data(), 1};
  RuntimeTensor tq{TensorType::kUInt8, {1}, q.data(), 1};
  InputGenerator g(1);
  g.Fill(tf);
  g.Fill(tb);
  g.Fill(tq);
  EXPECT_FLOAT_EQ(f[0], -0.15358165837824345f);
  EXPECT_FLOAT_EQ(f[1], 0.018814885523170233f);
  EXPECT_EQ(b[0], 1);  // 2784682393 >> 31
  InputGenerator reference(1);
  for (int i = 0; i < 3; ++i) reference.Next();
  EXPECT_EQ(q[0], reference.Next() >> 24);
}

}  // namespace
}  // namespace tfa::runtime
