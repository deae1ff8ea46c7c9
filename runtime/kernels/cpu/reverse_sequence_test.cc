#include "runtime/kernels/cpu/reverse_sequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> OneToTwentyFour() {
  std::vector<T> values;
  for (int i = 1; i <= 24; ++i) values.push_back(static_cast<T>(i));
  return values;
}

template <typename T>
Status RunReverseSequence(TensorType type, const std::vector<int32_t>& lengths, int32_t seq_dim,
                          int32_t batch_dim, std::vector<T>& out) {
  KernelRunner k("REVERSE_SEQUENCE");
  k.options().seq_dim = seq_dim;
  k.options().batch_dim = batch_dim;
  k.AddInput<T>(type, {4, 3, 2}, OneToTwentyFour<T>());
  k.AddInt32Input({static_cast<int32_t>(lengths.size())}, lengths);
  k.AddOutput(type, {4, 3, 2});
  const Status status = k.Run();
  out = k.Output<T>();
  return status;
}

// Figures of upstream's reverse_sequence_test.cc (*SeqDimIsGreater, *BatchDimIsGreater).
template <typename T>
void ExpectUpstreamFigures(TensorType type) {
  std::vector<T> out;
  ASSERT_TRUE(RunReverseSequence<T>(type, {3, 2, 3, 3}, 1, 0, out).ok());
  EXPECT_EQ(out, (std::vector<T>{5,  6,  3,  4,  1,  2,  9,  10, 7,  8,  11, 12,
                                 17, 18, 15, 16, 13, 14, 23, 24, 21, 22, 19, 20}));
  ASSERT_TRUE(RunReverseSequence<T>(type, {3, 4}, 0, 2, out).ok());
  EXPECT_EQ(out, (std::vector<T>{13, 20, 15, 22, 17, 24, 7,  14, 9,  16, 11, 18,
                                 1,  8,  3,  10, 5,  12, 19, 2,  21, 4,  23, 6}));
}

TEST(ReverseSequenceTest, UpstreamFigures) {
  ExpectUpstreamFigures<float>(TensorType::kFloat32);
  ExpectUpstreamFigures<int32_t>(TensorType::kInt32);
  ExpectUpstreamFigures<int64_t>(TensorType::kInt64);
  ExpectUpstreamFigures<uint8_t>(TensorType::kUInt8);
  ExpectUpstreamFigures<int16_t>(TensorType::kInt16);
}

// Upstream's InvalidSeqLengthsElements: a length above the dimension, or negative.
TEST(ReverseSequenceTest, LengthsOutsideTheDimensionAreErrors) {
  std::vector<float> out;
  EXPECT_EQ(RunReverseSequence<float>(TensorType::kFloat32, {3, 5, 3, 3}, 1, 0, out).message(),
            "sequence length 5 is outside [0, 3]");
  EXPECT_FALSE(RunReverseSequence<float>(TensorType::kFloat32, {3, -1, 3, 3}, 1, 0, out).ok());
}

TEST(ReverseSequenceTest, EqualSeqAndBatchDimensionsAreAnError) {
  std::vector<float> out;
  EXPECT_FALSE(RunReverseSequence<float>(TensorType::kFloat32, {3, 3, 3, 3}, 0, 0, out).ok());
}

}  // namespace
}  // namespace tfa::runtime
