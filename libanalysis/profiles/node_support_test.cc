// ReasonText: the reasons reports show are one line, name what the check objected to, and read the
// same on every node they apply to; checked on unit cases and on every delegate's verdicts over
// the corpus and the external models of the oracle.
#include "libanalysis/profiles/node_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

NodeSupport Rejected(int32_t node, std::string reason, std::string detail = "") {
  NodeSupport verdict;
  verdict.node = node;
  verdict.reason = std::move(reason);
  verdict.detail = std::move(detail);
  return verdict;
}

TEST(ReasonText, IsOneLineWithTheDetailAfterUpstreamsWords) {
  EXPECT_EQ(ReasonText(Rejected(3, "Only support 1D indices\n", "input 1 (tensor 7, int32 [2,3])")),
            "Only support 1D indices: input 1 (tensor 7, int32 [2,3])");
  EXPECT_EQ(ReasonText(Rejected(3, "OP is supported, but tensor type/shape isn't compatible.",
                                "input 1 (tensor 57, int32) is not float32 or float16")),
            "OP is supported, but tensor type/shape isn't compatible: input 1 (tensor 57, int32) "
            "is not float32 or float16");
  EXPECT_EQ(ReasonText(Rejected(3, "two\nlines\r\n")), "two lines");
  EXPECT_EQ(ReasonText(Rejected(3, "Softmax.beta != 1 is not supported.")),
            "Softmax.beta != 1 is not supported.");
}

// XNNPACK's log names the node; the report names it too, so the same reason on several nodes
// groups. Another node's number, or a longer one, stays.
TEST(ReasonText, DropsTheNodesOwnNumber) {
  EXPECT_EQ(ReasonText(Rejected(192, "unsupported custom operator type \"T\" in node #192")),
            "unsupported custom operator type \"T\"");
  EXPECT_EQ(ReasonText(Rejected(5, "Quantized tensor #9 in node #5 has invalid quantization")),
            "Quantized tensor #9 has invalid quantization");
  EXPECT_EQ(ReasonText(Rejected(5, "unpacks static data for node 51 in node #51")),
            "unpacks static data for node 51 in node #51");
}

std::vector<std::string> ModelsToScan() {
  std::vector<std::string> paths;
  for (const std::string& name : testing::CorpusModelNames()) {
    paths.push_back(testing::CorpusModelPath(name));
  }
  for (const char* dir : {"external", "int8"}) {
    for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath(dir))) {
      if (entry.path().extension() == ".tflite") paths.push_back(entry.path().string());
    }
  }
  return paths;
}

// Every reason every built-in delegate gives on real models is one line (a newline in one broke
// the report's table: GATHER's "Only support 1D indices\n" on yamnet).
TEST(ReasonText, EveryReasonOnTheCorpusAndExternalModelsIsOneLine) {
  size_t models = 0, reasons = 0, with_detail = 0;
  for (const std::string& path : ModelsToScan()) {
    auto model = LoadModelFile(path);
    if (!model.ok()) continue;  // the oracle keeps models upstream refuses too
    ++models;
    for (const char* delegate : {"gpu", "xnnpack", "nnapi"}) {
      auto profile = ResolveDelegateProfile(delegate);
      ASSERT_TRUE(profile.ok()) << profile.status().message();
      for (const Subgraph& subgraph : model->subgraphs) {
        auto selection = SelectDelegateNodes(subgraph, *profile);
        if (!selection.ok()) continue;
        for (const NodeSupport& verdict : selection->verdicts) {
          if (verdict.supported) continue;
          const std::string text = ReasonText(verdict);
          ++reasons;
          with_detail += verdict.detail.empty() ? 0 : 1;
          EXPECT_EQ(text.find_first_of("\n\r"), std::string::npos)
              << path << " " << delegate << " node " << verdict.node << ": " << text;
        }
      }
    }
  }
  EXPECT_GE(models, 40u);
  EXPECT_GT(reasons, 1000u);
  EXPECT_GT(with_detail, 0u);
}

}  // namespace
}  // namespace tfa
