// `run` on a WHILE whose body forwards a string input unchanged (as upstream's WHILE tests do):
// string tensors are dynamic tensors and go through control flow; a loop whose condition never
// turns false stops at a limit the user sets, with one line and exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/npy.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// WHILE (i < 10) { i += 1 } over the state (i, text): the body passes `text` (a string) straight
// from its input to its output.
std::string WhileForwardingStringModel() {
  ModelBuilder b("while_forwarding_string.tflite");
  const int32_t main = b.AddSubgraph("main");
  const int32_t cond = b.AddSubgraph("cond");
  const int32_t body = b.AddSubgraph("body");

  const int32_t i = b.AddTensor(main, "i", TensorType::kInt32, {1});
  const int32_t text = b.AddTensor(main, "text", TensorType::kString, {1});
  const int32_t i_out = b.AddTensor(main, "i_out", TensorType::kInt32, {1});
  const int32_t text_out = b.AddTensor(main, "text_out", TensorType::kString, {1});
  OpOptions loop;
  loop.cond_subgraph = cond;
  loop.body_subgraph = body;
  b.AddNode(main, "WHILE", {i, text}, {i_out, text_out}, loop);
  b.SetInputs(main, {i, text});
  b.SetOutputs(main, {i_out, text_out});

  const int32_t ci = b.AddTensor(cond, "i", TensorType::kInt32, {1});
  const int32_t ctext = b.AddTensor(cond, "text", TensorType::kString, {1});
  const int32_t limit = b.AddConstant(cond, "limit", TensorType::kInt32, {1}, Int32Bytes({10}));
  const int32_t less = b.AddTensor(cond, "less", TensorType::kBool, {1});
  b.AddNode(cond, "LESS", {ci, limit}, {less});
  b.SetInputs(cond, {ci, ctext});
  b.SetOutputs(cond, {less});

  const int32_t bi = b.AddTensor(body, "i", TensorType::kInt32, {1});
  const int32_t btext = b.AddTensor(body, "text", TensorType::kString, {1});
  const int32_t one = b.AddConstant(body, "one", TensorType::kInt32, {1}, Int32Bytes({1}));
  const int32_t bi_next = b.AddTensor(body, "i_next", TensorType::kInt32, {1});
  b.AddNode(body, "ADD", {bi, one}, {bi_next});
  b.SetInputs(body, {bi, btext});
  b.SetOutputs(body, {bi_next, btext});

  SyntheticModel model = std::move(b).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  return testing::WriteTempFile("while_forwarding_string.tflite",
                                std::string(bytes.begin(), bytes.end()));
}

std::string Int32Npy(const std::string& name, int32_t value) {
  const std::vector<uint8_t> bytes = Int32Bytes({value});
  auto npy = runtime::EncodeNpy(TensorType::kInt32, {1}, bytes);
  EXPECT_TRUE(npy.ok()) << npy.status().message();
  return testing::WriteTempFile(name, std::string(npy->begin(), npy->end()));
}

TEST(RunLoop, AWhileForwardingAStringRunsAndValidates) {
  const std::string model = WhileForwardingStringModel();
  const std::string zero = Int32Npy("i_zero.npy", 0);
  auto run = RunTool("run --validate --json --input i=" + zero + " " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
  EXPECT_TRUE(j.at("own_buffers").at("identical").get<bool>()) << run.out;
}

// With the seed-1 inputs the counter starts far below 10 and upstream's interpreter loops for
// minutes; the run stops at the iteration limit instead.
TEST(RunLoop, ALoopThatDoesNotEndStopsAtTheIterationLimit) {
  const std::string model = WhileForwardingStringModel();
  const std::string start = Int32Npy("i_start.npy", -1'000'000'000);
  auto run = RunTool("run --max-loop-iterations 1000 --input i=" + start + " " + model);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("node 0 (WHILE): the loop ran 1000 iterations and its condition is "
                         "still true; stopped at --max-loop-iterations"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;
}

TEST(RunLoop, AnInvokePastTheTimeLimitStops) {
  const std::string model = WhileForwardingStringModel();
  const std::string start = Int32Npy("i_far.npy", -2'000'000'000);
  auto run = RunTool("run --time-limit 0.2 --max-loop-iterations 4000000000 --input i=" + start +
                     " " + model);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("ran past its time limit of 0.2 s (--time-limit)"), std::string::npos)
      << run.err;
  auto bad = RunTool("run --time-limit soon " + model);
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
}  // namespace tfa
