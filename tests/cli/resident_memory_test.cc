// report carries the memory delegates own outside the arena and the resident estimate built on
// it (arena + persistent + delegate-owned + mapped weights), in JSON and text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// The estimates of libanalysis/report/delegate_memory.h for hand_landmark_full, in bytes: XNNPACK's
// packed weights 10,862,720 + workspace 4,315,168 (xnnpack_workspace.h); the GPU delegate's shared
// tensors 4,315,136 + staging buffers 803,360 + constants 10,862,720, which the OpenCL delegate
// allocated to the byte on PoCL and on NVIDIA's OpenCL (run --delegate gpu --validate).
TEST(ResidentMemory, DelegateMemoryAndTheResidentTotal) {
  const std::string model = testing::CorpusModelPath("hands__hand_landmark_full");
  for (const auto& [delegate, bytes] :
       {std::pair<std::string, uint64_t>{"xnnpack", 15177888}, {"gpu", 15981216}}) {
    SCOPED_TRACE(delegate);
    auto run = RunTool("report --json --delegate " + delegate + " " + model);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto j = nlohmann::json::parse(run.out);
    const auto& memory = j.at("subgraphs").at(0).at("delegate_memory");
    ASSERT_EQ(memory.size(), 1u);
    EXPECT_EQ(memory[0].at("delegate"), delegate);
    EXPECT_EQ(memory[0].at("total_bytes"), bytes);
    uint64_t parts = 0;
    for (const auto& part : memory[0].at("parts")) {
      EXPECT_FALSE(part.at("method").get<std::string>().empty());
      EXPECT_EQ(part.at("basis"), "predicted");
      parts += part.at("bytes").get<uint64_t>();
    }
    EXPECT_EQ(parts, bytes);
    const auto& total = j.at("interpreter");
    EXPECT_EQ(total.at("delegate_bytes"), bytes);
    EXPECT_EQ(total.at("resident_bytes").get<uint64_t>(),
              total.at("arena_bytes").get<uint64_t>() +
                  total.at("persistent_bytes").get<uint64_t>() + bytes +
                  total.at("constant_bytes").get<uint64_t>());
  }
  auto text = RunTool("report --delegate xnnpack " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  xnnpack needs 15.2 MB outside the arena: "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\nresident estimate "), std::string::npos) << text.out;
  // Markdown, HTML and CSV carry the parts and their basis too.
  auto markdown = RunTool("report --format markdown --delegate gpu " + model);
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find("| gpu shared_tensors (predicted) | 4315136 |"), std::string::npos)
      << markdown.out;
  auto nnapi = RunTool("report --format csv --delegate nnapi " + model);
  ASSERT_EQ(nnapi.exit_code, 0) << nnapi.err;
  EXPECT_NE(nnapi.out.find(",predicted+unknown\n"), std::string::npos) << nnapi.out;
  auto unknown = RunTool("report --delegate nnapi " + model);
  EXPECT_NE(unknown.out.find("nnapi needs unknown memory outside the arena"), std::string::npos)
      << unknown.out;
}

}  // namespace
}  // namespace tfa
