// Inputs shared by the visualizer tests: a four-node subgraph with a hand-made three-partition
// report whose every edge and byte count is known, and hand-made reports over corpus models.
#ifndef VISUALIZERS_VISUALIZER_TEST_DATA_H_
#define VISUALIZERS_VISUALIZER_TEST_DATA_H_

#include <gtest/gtest.h>

#include <string>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report.h"
#include "tests/support/test_paths.h"

namespace tfa::viz::testing {

// t0 (input, 4096 B) → #0 CONV_2D (+ constant t1) → t2 → #1 ADD(t2, t2) → t3 (2048 B)
// → #2 MY_CUSTOM → t4 (1000 B) → #3 MUL(t4, t3) → t5 (output, 1.2 MB).
inline Subgraph TinySubgraph() {
  Subgraph s;
  auto tensor = [](const char* name, uint64_t bytes, AllocationType allocation) {
    Tensor t;
    t.name = name;
    t.bytes = bytes;
    t.allocation = allocation;
    return t;
  };
  s.tensors = {tensor("image", 4096, AllocationType::kArenaRw),
               tensor("weights", 512, AllocationType::kMmapRo),
               tensor("conv", 4096, AllocationType::kArenaRw),
               tensor("sum", 2048, AllocationType::kArenaRw),
               tensor("custom", 1000, AllocationType::kArenaRw),
               tensor("result", 1200000, AllocationType::kArenaRw)};
  auto node = [](const char* op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    Node n;
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    return n;
  };
  s.nodes = {node("CONV_2D", {0, 1}, {2}), node("ADD", {2, 2}, {3}), node("MY_CUSTOM", {3}, {4}),
             node("MUL", {4, 3}, {5})};
  s.inputs = {0};
  s.outputs = {5};
  s.execution_plan = {0, 1, 2, 3};
  return s;
}

inline PartitionReport Partition(PartitionReport::Kind kind, const std::string& delegate,
                                 std::vector<int32_t> nodes) {
  PartitionReport p;
  p.kind = kind;
  p.delegate = delegate;
  p.nodes = std::move(nodes);
  return p;
}

// P0 gpu {#0, #1}, P1 CPU {#2} (unsupported by gpu), P2 gpu {#3}, with the copy figures
// BuildReport gives them.
inline SubgraphReport TinyReport() {
  SubgraphReport r;
  r.nodes = 4;
  r.partitions = {Partition(PartitionReport::Kind::kDelegate, "gpu", {0, 1}),
                  Partition(PartitionReport::Kind::kCpu, "", {2}),
                  Partition(PartitionReport::Kind::kDelegate, "gpu", {3})};
  r.partitions[0].inputs = {0, 1};
  r.partitions[0].outputs = {3};
  r.partitions[0].bytes_to_delegate = 4096;
  r.partitions[0].bytes_from_delegate = 2048;
  r.partitions[0].init_upload_bytes = 512;
  r.partitions[1].inputs = {3};
  r.partitions[1].outputs = {4};
  r.partitions[2].inputs = {3, 4};
  r.partitions[2].outputs = {5};
  r.partitions[2].bytes_to_delegate = 3048;
  r.partitions[2].bytes_from_delegate = 1200000;
  r.delegated_partition_count = 2;
  r.copy = {4096 + 3048, 2048 + 1200000, 4, 512};
  r.unsupported = {{2, "MY_CUSTOM", "gpu", "custom op <MY_CUSTOM> has no GPU kernel"}};
  return r;
}

// The tiny graph with a weight node: #4 DEQUANTIZE of constant t6 (256 B) makes t7 (512 B),
// which MUL #3 also reads; #4 runs first, alone in CPU partition P3.
inline Subgraph TinySubgraphWithWeightNode() {
  Subgraph s = TinySubgraph();
  Tensor fp16;
  fp16.name = "fp16 weights";
  fp16.bytes = 256;
  fp16.allocation = AllocationType::kMmapRo;
  Tensor dequantized;
  dequantized.name = "dequantized";
  dequantized.bytes = 512;
  s.tensors.push_back(fp16);
  s.tensors.push_back(dequantized);
  Node dequantize;
  dequantize.op = "DEQUANTIZE";
  dequantize.inputs = {6};
  dequantize.outputs = {7};
  s.nodes.push_back(dequantize);
  s.nodes[3].inputs.push_back(7);
  s.execution_plan = {4, 0, 1, 2, 3};
  return s;
}

inline SubgraphReport TinyReportWithWeightPartition() {
  SubgraphReport report = TinyReport();
  report.nodes = 5;
  report.partitions[2].inputs = {3, 4, 7};
  report.partitions[2].init_upload_bytes = 512;  // t7, made once by #4
  report.partitions.push_back(Partition(PartitionReport::Kind::kCpu, "", {4}));
  report.partitions.back().inputs = {6};
  report.partitions.back().outputs = {7};
  return report;
}

inline Subgraph CorpusSubgraph(const std::string& name) {
  Result<Model> model = LoadModelFile(tfa::testing::CorpusModelPath(name));
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok() || model->subgraphs.empty()) return {};
  return std::move(model->subgraphs[0]);
}

// Splits the nodes 0..n-1 into `parts` consecutive ranges alternating gpu / CPU / gpu / …; the
// first node of every CPU range is reported unsupported.
inline SubgraphReport AlternatingReport(size_t node_count, size_t parts) {
  SubgraphReport r;
  r.nodes = node_count;
  for (size_t p = 0; p < parts; ++p) {
    const bool cpu = p % 2 == 1;
    std::vector<int32_t> nodes;
    for (size_t n = node_count * p / parts; n < node_count * (p + 1) / parts; ++n) {
      nodes.push_back(static_cast<int32_t>(n));
    }
    if (cpu && !nodes.empty()) r.unsupported.push_back({nodes.front(), "", "gpu", "test reason"});
    r.partitions.push_back(
        Partition(cpu ? PartitionReport::Kind::kCpu : PartitionReport::Kind::kDelegate,
                  cpu ? "" : "gpu", std::move(nodes)));
    if (!cpu) ++r.delegated_partition_count;
  }
  return r;
}

}  // namespace tfa::viz::testing

#endif  // VISUALIZERS_VISUALIZER_TEST_DATA_H_
