#include "corpus/generator/random_model.h"

#include <gtest/gtest.h>

#include <set>

#include "corpus/generator/shape_check.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"

namespace tfa {
namespace {

TEST(RandomModel, ExactNodeCountConsistentShapesAndLoadable) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    for (int nodes : {1, 7, 60}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(nodes) + " nodes");
      const SyntheticModel m = BuildRandomModel(seed, nodes);
      ASSERT_EQ(m.model.subgraphs.size(), 1u);
      const Subgraph& sg = m.model.subgraphs[0];
      EXPECT_EQ(sg.nodes.size(), static_cast<size_t>(nodes));
      EXPECT_FALSE(sg.outputs.empty());
      const Status shapes = CheckShapes(m.model);
      EXPECT_TRUE(shapes.ok()) << shapes.message();
      auto parsed = ParseTflite(WriteTflite(m.model, m.data), m.model.path);
      EXPECT_TRUE(parsed.ok()) << parsed.status().message();
    }
  }
}

TEST(RandomModel, DeterministicPerSeed) {
  const SyntheticModel a = BuildRandomModel(7, 40);
  const SyntheticModel b = BuildRandomModel(7, 40);
  const SyntheticModel c = BuildRandomModel(8, 40);
  EXPECT_EQ(WriteTflite(a.model, a.data), WriteTflite(b.model, b.data));
  EXPECT_NE(WriteTflite(a.model, a.data), WriteTflite(c.model, c.data));
  EXPECT_EQ(a.model.path, "random_7.tflite");
}

TEST(RandomModel, CoversFanOutFanInAndSeveralOps) {
  std::set<std::string> ops;
  bool fan_in = false;
  bool fan_out = false;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const SyntheticModel m = BuildRandomModel(seed, 50);
    const Subgraph& sg = m.model.subgraphs[0];
    std::vector<int> readers(sg.tensors.size(), 0);
    for (const Node& n : sg.nodes) {
      ops.insert(n.op);
      int activations = 0;
      for (int32_t t : n.inputs) {
        if (sg.tensors[static_cast<size_t>(t)].is_constant()) continue;
        ++readers[static_cast<size_t>(t)];
        ++activations;
      }
      fan_in |= activations >= 2;
    }
    for (int r : readers) fan_out |= r >= 2;
  }
  EXPECT_TRUE(fan_in);
  EXPECT_TRUE(fan_out);
  for (const char* op : {"CONV_2D", "DEPTHWISE_CONV_2D", "CONCATENATION", "ADD", "MUL", "RELU"}) {
    EXPECT_TRUE(ops.count(op)) << op;
  }
}

}  // namespace
}  // namespace tfa
