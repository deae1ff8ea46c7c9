#include "libanalysis/report/model_explorer_ids.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

SignatureDef Signature(std::string key, int32_t subgraph) {
  SignatureDef s;
  s.key = std::move(key);
  s.subgraph_index = subgraph;
  return s;
}

TEST(ModelExplorerIds, NamedSubgraphKeepsItsName) {
  EXPECT_EQ(ModelExplorerGraphId(0, "main", {}), "main");
  EXPECT_EQ(ModelExplorerGraphId(2, "while_body", {Signature("decode", 2)}), "while_body");
}

TEST(ModelExplorerIds, NamelessSubgraphIsMainOrNumbered) {
  EXPECT_EQ(ModelExplorerGraphId(0, "", {}), "main");
  EXPECT_EQ(ModelExplorerGraphId(1, "", {}), "subgraph_1");
  EXPECT_EQ(ModelExplorerGraphId(12, "", {Signature("serving_default", 0)}), "subgraph_12");
}

TEST(ModelExplorerIds, NamelessSubgraphTakesItsFirstSignaturesKey) {
  const std::vector<SignatureDef> signatures = {Signature("prefill", 0), Signature("decode", 1),
                                                Signature("decode_again", 1)};
  EXPECT_EQ(ModelExplorerGraphId(0, "", signatures), "prefill");
  EXPECT_EQ(ModelExplorerGraphId(1, "", signatures), "decode");
}

TEST(ModelExplorerIds, FirstSignatureWithAnEmptyKeyGivesTheDefaultName) {
  const std::vector<SignatureDef> signatures = {Signature("", 1), Signature("decode", 1)};
  EXPECT_EQ(ModelExplorerGraphId(1, "", signatures), "subgraph_1");
}

TEST(ModelExplorerIds, NodeIdIsTheOperatorIndex) {
  EXPECT_EQ(ModelExplorerNodeId(0), "0");
  EXPECT_EQ(ModelExplorerNodeId(117), "117");
}

}  // namespace
}  // namespace tfa
