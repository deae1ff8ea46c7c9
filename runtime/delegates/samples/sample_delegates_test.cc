#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "runtime/delegates/samples/add_sub_delegate.h"
#include "runtime/delegates/samples/sin_delegate.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using testing::ExpectPredictionMatches;
using testing::MaxOutputError;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;

std::vector<float> Ramp(size_t n, float start, float step) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = start + step * static_cast<float>(i);
  return values;
}

// A chain of `length` float32 nodes [1,4,4,3] in which ADD/SUB (the add-sub delegate's ops) and
// other ops alternate, so every ADD/SUB run is its own partition. Every third supported node
// reads a tensor from two steps back (a skip connection, two boundary inputs); the others read a
// broadcast [3] constant. With `with_sin`, a SIN follows every fourth node.
std::string WriteAlternatingModel(const std::string& name, int length, bool with_sin) {
  ModelBuilder builder(name);
  builder.AddSubgraph("main");
  const std::vector<int32_t> shape = {1, 4, 4, 3};
  const int32_t input = builder.AddTensor(0, "input", TensorType::kFloat32, shape);
  const int32_t bias =
      builder.AddConstant(0, "bias", TensorType::kFloat32, {3}, FloatBytes({0.25f, -0.5f, 0.125f}));
  const int32_t scale =
      builder.AddConstant(0, "scale", TensorType::kFloat32, shape, FloatBytes(Ramp(48, -1, 0.05f)));
  std::vector<int32_t> produced = {input};
  const char* const kOthers[] = {"MUL", "LOGISTIC", "MAXIMUM", "TANH"};
  for (int i = 0; i < length; ++i) {
    const int32_t out = builder.AddTensor(0, std::string("t").append(std::to_string(i)),
                                          TensorType::kFloat32, shape);
    const int32_t last = produced.back();
    if (i % 2 == 0) {
      const bool skip = i % 3 == 0 && produced.size() >= 3;
      const int32_t other = skip ? produced[produced.size() - 3] : bias;
      builder.AddNode(0, i % 4 == 0 ? "ADD" : "SUB", {last, other}, {out});
    } else {
      const std::string op = kOthers[(i / 2) % 4];
      if (op == "LOGISTIC" || op == "TANH") {
        builder.AddNode(0, op, {last}, {out});
      } else {
        builder.AddNode(0, op, {last, scale}, {out});
      }
    }
    produced.push_back(out);
    if (with_sin && i % 4 == 3) {
      const int32_t sin =
          builder.AddTensor(0, "sin" + std::to_string(i), TensorType::kFloat32, shape);
      builder.AddNode(0, "SIN", {out}, {sin});
      produced.push_back(sin);
    }
  }
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {produced.back(), produced[produced.size() / 2]});
  SyntheticModel model = std::move(builder).Finish();
  return testing::WriteTempFile(name + ".tflite", WriteTflite(model.model, model.data));
}

std::unique_ptr<Delegate> MakeAddSub() {
  auto delegate = CreateAddSubDelegate();
  EXPECT_TRUE(delegate.ok()) << delegate.status().message();
  return std::move(*delegate);
}

std::unique_ptr<Delegate> MakeSin() {
  auto delegate = CreateSinDelegate();
  EXPECT_TRUE(delegate.ok()) << delegate.status().message();
  return std::move(*delegate);
}

class AlternatingChainTest : public ::testing::TestWithParam<int> {};

TEST_P(AlternatingChainTest, AddSubPartitionsAsPredictedAndMatchesTheCpu) {
  const int length = GetParam();
  const std::string path = WriteAlternatingModel("chain" + std::to_string(length), length, false);
  auto add_sub = MakeAddSub();
  auto delegated = RunModel(path, {add_sub.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"add-sub"}), measured);
  EXPECT_EQ(measured.delegated_partitions, (length + 1) / 2);
  EXPECT_EQ(MaxOutputError(*delegated, *cpu), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Lengths, AlternatingChainTest, ::testing::Values(1, 2, 5, 12, 31));

// add-sub then sin, one after another on the already-delegated plan; the reference runs SIN alone
// on its delegate and everything else on the CPU.
TEST(SampleDelegatesTest, TwoDelegatesInTurnPartitionAsPredicted) {
  const std::string path = WriteAlternatingModel("chain_sin", 16, true);
  auto add_sub = MakeAddSub();
  auto sin = MakeSin();
  auto both = RunModel(path, {add_sub.get(), sin.get()});
  auto sin_only_delegate = MakeSin();
  auto reference = RunModel(path, {sin_only_delegate.get()});
  ASSERT_TRUE(both && reference);
  const auto measured = Measure(*both);
  ExpectPredictionMatches(PredictDelegation(path, {"add-sub", "sin"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 8 + 4);
  EXPECT_EQ(MaxOutputError(*both, *reference), 0.0);
}

TEST(SampleDelegatesTest, SinDelegateComputesSin) {
  ModelBuilder builder("sin");
  builder.AddSubgraph("main");
  const int32_t input = builder.AddTensor(0, "x", TensorType::kFloat32, {2, 5});
  const int32_t output = builder.AddTensor(0, "y", TensorType::kFloat32, {2, 5});
  builder.AddNode(0, "SIN", {input}, {output});
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {output});
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile("sin.tflite", WriteTflite(model.model, model.data));
  auto sin = MakeSin();
  auto run = RunModel(path, {sin.get()});
  ASSERT_TRUE(run);
  const RuntimeTensor& x = run->tensor(input);
  const RuntimeTensor& y = run->tensor(output);
  for (int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(y.Data<const float>()[i], std::sin(x.Data<const float>()[i])) << i;
  EXPECT_EQ(run->stats().copies.bytes_to_delegate, 40u);
  EXPECT_EQ(run->stats().copies.bytes_from_delegate, 40u);
}

// A real model: every float32 ADD of the face detector is its own partition.
TEST(SampleDelegatesTest, AddSubOnFaceDetectionPartitionsAsPredicted) {
  const std::string path =
      tfa::testing::CorpusModelPath("face_detection__face_detection_short_range");
  auto add_sub = MakeAddSub();
  auto delegated = RunModel(path, {add_sub.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"add-sub"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 16);
  EXPECT_EQ(MaxOutputError(*delegated, *cpu), 0.0);
}

TEST(SampleDelegatesTest, UnknownOptionIsAnError) {
  auto delegate = CreateAddSubDelegate({{"precision", "fp16"}});
  ASSERT_FALSE(delegate.ok());
  EXPECT_NE(delegate.status().message().find("precision"), std::string::npos)
      << delegate.status().message();
}

}  // namespace
}  // namespace tfa::runtime
