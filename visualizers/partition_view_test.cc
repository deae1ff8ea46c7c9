#include "visualizers/partition_view.h"

#include <gtest/gtest.h>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"
#include "visualizers/visualizer_test_data.h"

namespace tfa::viz {
namespace {

using testing::TinyReport;
using testing::TinyReportWithWeightPartition;
using testing::TinySubgraph;
using testing::TinySubgraphWithWeightNode;

TEST(PartitionViewTest, TinyGraphEdgesAndSummaries) {
  Result<PartitionView> view = BuildPartitionView(TinySubgraph(), TinyReport());
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(view->partition_of_node, (std::vector<int32_t>{0, 0, 1, 2}));
  // input→#0, #0→#1 (t2 read twice is one edge), #1→#2, #2→#3, #1→#3, #3→output. No weights.
  ASSERT_EQ(view->edges.size(), 6u);
  size_t boundary = 0;
  for (const TensorEdge& e : view->edges) boundary += e.crosses_boundary() ? 1 : 0;
  EXPECT_EQ(boundary, 5u);
  EXPECT_EQ(view->edges[0].from_node, -1);
  EXPECT_EQ(view->edges[0].tensor, 0);
  EXPECT_EQ(view->edges[5].to_node, -1);
  EXPECT_EQ(view->edges[5].bytes, 1200000u);

  ASSERT_EQ(view->partitions.size(), 3u);
  EXPECT_EQ(view->partitions[0].node_count, 2u);
  EXPECT_EQ(view->partitions[0].first_node, 0);
  EXPECT_EQ(view->partitions[0].last_node, 1);
  EXPECT_EQ(view->partitions[0].op_summary, "ADD×1, CONV_2D×1");
  EXPECT_EQ(view->partitions[0].boundary_in_bytes, 4096u);
  EXPECT_EQ(view->partitions[0].boundary_out_bytes, 2048u);  // t3 counted once for P1 and P2
  EXPECT_EQ(view->partitions[1].boundary_in_bytes, 2048u);
  EXPECT_EQ(view->partitions[1].boundary_out_bytes, 1000u);
  EXPECT_EQ(view->partitions[1].unsupported_nodes, 1u);
  EXPECT_EQ(view->partitions[2].boundary_in_bytes, 3048u);
  EXPECT_EQ(view->partitions[2].boundary_out_bytes, 1200000u);
}

TEST(PartitionViewTest, OnlyCpuNodesCountAsUnsupported) {
  // Delegates applied in turn: add-sub rejects CONV_2D #0, which gpu then takes.
  SubgraphReport report = TinyReport();
  report.unsupported.push_back({0, "CONV_2D", "add-sub", "op CONV_2D is not ADD or SUB"});
  Result<PartitionView> view = BuildPartitionView(TinySubgraph(), report);
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(view->partitions[0].unsupported_nodes, 0u);
  EXPECT_EQ(view->partitions[1].unsupported_nodes, 1u);
}

TEST(PartitionViewTest, RejectsOutOfRangeAndDuplicateNodes) {
  SubgraphReport report = TinyReport();
  report.partitions[1].nodes.push_back(9);
  Result<PartitionView> out_of_range = BuildPartitionView(TinySubgraph(), report);
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_EQ(out_of_range.status().message(),
            "subgraph 0: partition 1: node 9 is out of range (4 nodes)");
  report = TinyReport();
  report.partitions[2].nodes.push_back(0);
  Result<PartitionView> duplicate = BuildPartitionView(TinySubgraph(), report);
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.status().message(), "subgraph 0: node 0 is in partitions 0 and 2");
}

TEST(PartitionViewTest, WeightNodesAreFolded) {
  Result<PartitionView> view =
      BuildPartitionView(TinySubgraphWithWeightNode(), TinyReportWithWeightPartition());
  ASSERT_TRUE(view.ok()) << view.status().message();
  // Weights move once, not per inference: still the six edges of the tiny graph.
  EXPECT_EQ(view->edges.size(), 6u);
  EXPECT_EQ(view->partitions[3].weight_nodes, 1u);
  EXPECT_TRUE(view->partitions[3].weights_only());
  EXPECT_FALSE(view->partitions[0].weights_only());
}

// An edge is a copy when the report counts it as one: every boundary edge of the tiny report's
// gpu partitions; none when the delegate reads TFLite's buffers in place.
TEST(PartitionViewTest, EdgesAreCopiesAsTheReportCountsThem) {
  Result<PartitionView> copying = BuildPartitionView(TinySubgraph(), TinyReport());
  ASSERT_TRUE(copying.ok()) << copying.status().message();
  for (const TensorEdge& e : copying->edges) EXPECT_EQ(e.copied, e.crosses_boundary()) << e.tensor;

  SubgraphReport in_place = TinyReport();
  for (PartitionReport& p : in_place.partitions) {
    if (p.kind != PartitionReport::Kind::kDelegate) continue;
    p.in_place = true;
    p.bytes_to_delegate = p.bytes_from_delegate = p.init_upload_bytes = 0;
  }
  Result<PartitionView> view = BuildPartitionView(TinySubgraph(), in_place);
  ASSERT_TRUE(view.ok()) << view.status().message();
  for (const TensorEdge& e : view->edges) EXPECT_FALSE(e.copied) << e.tensor;
}

TEST(PartitionViewTest, OpSummaryKeepsTheMostFrequentKinds) {
  Subgraph s = TinySubgraph();
  s.nodes[2].op = "ADD";
  s.nodes[3].op = "ADD";
  EXPECT_EQ(SummarizeOps(s, {0, 1, 2, 3}, 1), "ADD×3, …");
  EXPECT_EQ(SummarizeOps(s, {0, 1, 2, 3}), "ADD×3, CONV_2D×1");
}

}  // namespace
}  // namespace tfa::viz

namespace tfa::viz {
namespace {

// With the GPU delegate's fp16 helper the kernel reads fp16 constants, not the CPU's
// DEQUANTIZE outputs: the picture's boundary bytes are the report's copy bytes.
TEST(PartitionViewTest, BoundaryBytesIntoAGpuPartitionAreTheReportsCopyBytes) {
  auto model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ReportOptions options;
  DelegateRequest gpu;
  gpu.spec = "gpu";
  options.delegates.push_back(gpu);
  auto report = BuildReport(*model, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const SubgraphReport& s = report->subgraphs[0];
  auto view = BuildPartitionView(model->subgraphs[0], s);
  ASSERT_TRUE(view.ok()) << view.status().message();
  for (size_t p = 0; p < s.partitions.size(); ++p) {
    if (s.partitions[p].kind != PartitionReport::Kind::kDelegate) continue;
    EXPECT_EQ(view->partitions[p].boundary_in_bytes, s.partitions[p].bytes_to_delegate);
    EXPECT_EQ(view->partitions[p].boundary_out_bytes, s.partitions[p].bytes_from_delegate);
  }
}

}  // namespace
}  // namespace tfa::viz
