#include "runtime/kernels/cpu/random_ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Several Invokes of upstream's kernel: one generator drawn from again and again.
std::vector<std::vector<int64_t>> MultinomialInvokes(const std::vector<float>& logits,
                                                     int32_t batch, int32_t classes,
                                                     int32_t samples, RandomSeeds seeds,
                                                     int invokes) {
  PhiloxRandom rng(static_cast<uint64_t>(seeds.seed), static_cast<uint64_t>(seeds.seed2));
  std::vector<std::vector<int64_t>> outputs;
  for (int i = 0; i < invokes; ++i) {
    std::vector<int64_t> out(static_cast<size_t>(batch) * samples);
    Multinomial(rng, logits, batch, classes, samples, out);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

// The figures of upstream's random_ops_test.cc, which match TensorFlow's multinomial op.
TEST(RandomOpsTest, UpstreamMultinomialTwoClasses) {
  const std::vector<std::vector<int64_t>> expected = {{1, 0, 1, 0, 1, 1, 1, 1, 1, 1},
                                                      {1, 1, 1, 0, 1, 1, 0, 0, 0, 1},
                                                      {0, 1, 1, 0, 1, 1, 1, 1, 0, 1},
                                                      {1, 1, 1, 0, 1, 0, 0, 0, 1, 0}};
  EXPECT_EQ(MultinomialInvokes({-1.2039728f, -0.35667497f}, 1, 2, 10, {1234, 5678}, 4), expected);
}

TEST(RandomOpsTest, UpstreamMultinomialThreeClasses) {
  const std::vector<std::vector<int64_t>> expected = {
      {1, 2, 1, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2},
      {1, 2, 0, 0, 2, 1, 2, 0, 1, 0, 2, 2, 0, 2, 2},
      {1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2, 2},
      {0, 1, 1, 1, 2, 0, 1, 2, 1, 1, 2, 2, 1, 2, 2},
      {0, 2, 2, 0, 2, 0, 2, 0, 1, 1, 2, 2, 0, 0, 1}};
  EXPECT_EQ(MultinomialInvokes({-1.609438f, -1.2039728f, -0.6931472f}, 1, 3, 15, {5678, 1234}, 5),
            expected);
}

TEST(RandomOpsTest, UpstreamMultinomialMultiBatchMultiInvoke) {
  std::vector<float> logits;
  for (float p : {0.1f, 0.2f, 0.7f, 0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f}) {
    logits.push_back(std::log(p));
  }
  const std::vector<std::vector<int64_t>> expected = {
      {2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 2, 1, 1, 2, 2, 2, 1, 2, 2, 1, 2, 2, 2, 2},
      {2, 2, 2, 0, 2, 1, 0, 0, 2, 0, 2, 0, 2, 1, 2, 2, 0, 0, 2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 2, 2},
      {2, 0, 0, 0, 1, 2, 1, 2, 0, 0, 2, 2, 2, 2, 0, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2}};
  EXPECT_EQ(MultinomialInvokes(logits, 3, 3, 10, {1234, 5678}, 3), expected);
}

// The kernel gives the first Invoke's numbers, int32 output as upstream's
// ValidateTFLiteOutputisTheSameAsTFOutput_OutputTypeInt32.
TEST(RandomOpsTest, MultinomialKernelGivesTheFirstInvoke) {
  KernelRunner k("MULTINOMIAL");
  k.options().custom_options = EncodeRandomSeeds({1234, 5678});
  k.AddFloatInput({1, 2}, {-1.2039728f, -0.35667497f});
  k.AddInt32Input({}, {10});
  k.AddOutput(TensorType::kInt32, {1, 10});
  const Status status = k.Run();
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 0, 1, 0, 1, 1, 1, 1, 1, 1}));
}

std::vector<float> RunRandom(const std::string& op, RandomSeeds seeds) {
  KernelRunner k(op);
  k.options().custom_options = EncodeRandomSeeds(seeds);
  k.AddInt32Input({3}, {100, 50, 5});
  k.AddOutput(TensorType::kFloat32, {100, 50, 5});
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

struct Moments {
  double mean = 0, variance = 0;
};

Moments MomentsOf(const std::vector<float>& values) {
  Moments m;
  for (float v : values) m.mean += v;
  m.mean /= static_cast<double>(values.size());
  for (float v : values) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= static_cast<double>(values.size());
  return m;
}

// Upstream's OutputMeanAndVariance tests (seeds 1234, 5678; [100, 50, 5]).
TEST(RandomOpsTest, UpstreamUniformMeanAndVariance) {
  const std::vector<float> values = RunRandom("RANDOM_UNIFORM", {1234, 5678});
  const Moments m = MomentsOf(values);
  EXPECT_LT(std::abs(m.mean - 0.5), 0.05);
  EXPECT_LT(std::abs(1.0 / 12 - m.variance), 0.05);
  for (float v : values) ASSERT_TRUE(v >= 0.0f && v < 1.0f) << v;
}

TEST(RandomOpsTest, UpstreamStandardNormalMeanAndVariance) {
  const Moments m = MomentsOf(RunRandom("RANDOM_STANDARD_NORMAL", {1234, 5678}));
  EXPECT_LT(std::abs(m.mean), 0.05);
  EXPECT_LT(std::abs(1.0 - m.variance), 0.05);
}

// Upstream's DeterministicOutputWithNonZeroSeeds: the same seeds give the same numbers; the next
// Invoke (the generator run on) gives others.
TEST(RandomOpsTest, SameSeedsSameNumbersNextDrawOthers) {
  for (const char* op : {"RANDOM_UNIFORM", "RANDOM_STANDARD_NORMAL"}) {
    EXPECT_EQ(RunRandom(op, {1234, 5678}), RunRandom(op, {1234, 5678})) << op;
    EXPECT_NE(RunRandom(op, {1234, 5678}), RunRandom(op, {1234, 5679})) << op;
  }
  PhiloxRandom rng(1234, 5678);
  std::vector<float> first(25), second(25);
  RandomStandardNormal(rng, first);
  RandomStandardNormal(rng, second);
  EXPECT_NE(first, second);
}

// An odd count keeps the pairs' first numbers: the same as the first 5 of 6.
TEST(RandomOpsTest, OddStandardNormalCountStaysInTheOutput) {
  PhiloxRandom odd_rng(7, 9), even_rng(7, 9);
  std::vector<float> odd(5), even(6);
  RandomStandardNormal(odd_rng, odd);
  RandomStandardNormal(even_rng, even);
  EXPECT_EQ(odd, std::vector<float>(even.begin(), even.begin() + 5));
}

TEST(RandomOpsTest, UnseededOpsAreRefused) {
  KernelRunner k("RANDOM_UNIFORM");
  k.options().custom_options = EncodeRandomSeeds({0, 0});
  k.AddInt32Input({1}, {4});
  k.AddOutput(TensorType::kFloat32, {4});
  EXPECT_EQ(k.Run().message(),
            "seed and seed2 are both 0: upstream draws its seeds from /dev/urandom, so its numbers "
            "cannot be reproduced");
}

}  // namespace
}  // namespace tfa::runtime
