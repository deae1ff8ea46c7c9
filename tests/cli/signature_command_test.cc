// Models with several signatures (an LLM's prefill and decode): report shows each by name with its
// inputs and outputs by key and its subgraph's partitions and arena; --signature picks one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

const std::string kDecoder = testing::OraclePath("families/decoder_two_signatures.tflite");

TEST(SignatureCommand, TextShowsEverySignatureAndWhatTheInterpreterHolds) {
  auto run = RunTool("report " + kDecoder);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("signature prefill: subgraph 0; inputs "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("signature decode: subgraph 1; inputs "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nsubgraph 0 (signature prefill): "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nsubgraph 1 (signature decode): "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("the interpreter holds "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("over 2 planned subgraphs"), std::string::npos) << run.out;
}

TEST(SignatureCommand, JsonListsSignaturesByKeyAndTheTotal) {
  auto run = RunTool("report --json " + kDecoder);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j.at("signatures").size(), 2u);
  EXPECT_EQ(j.at("signatures")[0].at("key"), "prefill");
  EXPECT_EQ(j.at("signatures")[1].at("subgraph"), 1);
  EXPECT_FALSE(j.at("signatures")[1].at("inputs").empty());
  uint64_t arenas = 0, persistent = 0;
  for (const auto& s : j.at("subgraphs")) {
    arenas += s.at("arena").at("size").get<uint64_t>();
    persistent += s.at("arena").at("persistent_size").get<uint64_t>();
  }
  EXPECT_EQ(j.at("interpreter").at("arena_bytes"), arenas);
  EXPECT_EQ(j.at("interpreter").at("persistent_bytes"), persistent);
  EXPECT_EQ(j.at("interpreter").at("subgraphs_planned"), 2);
}

TEST(SignatureCommand, PicksOneSignatureAndRefusesAnUnknownKey) {
  auto decode = RunTool("report --signature decode " + kDecoder);
  ASSERT_EQ(decode.exit_code, 0) << decode.err;
  EXPECT_EQ(decode.out.find("\nsubgraph 0 "), std::string::npos) << decode.out;
  EXPECT_NE(decode.out.find("\nsubgraph 1 (signature decode): "), std::string::npos) << decode.out;

  auto unknown = RunTool("report --signature generate " + kDecoder);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no signature \"generate\" (it has prefill, decode)"),
            std::string::npos)
      << unknown.err;
  auto both = RunTool("report --signature decode --subgraph 0 " + kDecoder);
  EXPECT_EQ(both.exit_code, 2) << both.out;
}

TEST(SignatureCommand, InfoCountsSharedWeightBuffersOnce) {
  auto run = RunTool("info --json " + kDecoder);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out).at("constant_bytes"), 67220);
}

}  // namespace
}  // namespace tfa
