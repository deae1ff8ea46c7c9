#include "runtime/kernel_intermediates.h"

#include <gtest/gtest.h>

namespace tfa::runtime {
namespace {

// The node's own intermediates first (an absent one stays -1), then the scale tensor of each
// blockwise-quantized input; affine inputs and an out-of-range scale index add nothing.
TEST(KernelIntermediatesTest, BlockwiseScalesFollowTheNodesOwn) {
  Subgraph graph;
  for (int i = 0; i < 5; ++i) graph.tensors.emplace_back();
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 32;
  blockwise.block_scales = 3;
  graph.tensors[1].quantization = blockwise;
  Quantization out_of_range = blockwise;
  out_of_range.block_scales = 9;
  graph.tensors[2].quantization = out_of_range;
  graph.tensors[0].quantization = Quantization{{0.5f}, {0}, 0};
  Node node;
  node.inputs = {0, 1, 2, -1};
  node.intermediates = {4, -1};
  EXPECT_EQ(KernelIntermediates(graph, node), (std::vector<int32_t>{4, -1, 3}));
}

}  // namespace
}  // namespace tfa::runtime
