#include "cli/report_text.h"

#include <gtest/gtest.h>

#include <sstream>

namespace tfa::cli {
namespace {

constexpr char kLongName[] = "ops=CONV_2D,DEPTHWISE_CONV_2D,FULLY_CONNECTED";

// #0 CONV_2D on the delegate; #1, #2 PRELU and #3 RESHAPE stay on the CPU.
Model FourNodeModel() {
  Model model;
  Subgraph sg;
  for (const char* op : {"CONV_2D", "PRELU", "PRELU", "RESHAPE"}) {
    Node n;
    n.op = op;
    sg.nodes.push_back(n);
  }
  model.subgraphs.push_back(sg);
  return model;
}

Report FourNodeReport() {
  Report r;
  r.model = "m.tflite";
  r.delegates = {kLongName};
  SubgraphReport s;
  s.nodes = 4;
  PartitionReport delegated;
  delegated.kind = PartitionReport::Kind::kDelegate;
  delegated.delegate = kLongName;
  delegated.nodes = {0};
  delegated.bytes_to_delegate = 999960;
  PartitionReport cpu;
  cpu.nodes = {1, 2, 3};
  s.partitions = {delegated, cpu};
  s.delegated_partition_count = 1;
  s.copy.bytes_to_delegate = 999960;
  const std::string reason = std::string("op not listed in ") + kLongName;
  s.unsupported = {{1, "PRELU", kLongName, reason},
                   {2, "PRELU", kLongName, reason},
                   {3, "RESHAPE", kLongName, reason}};
  r.subgraphs.push_back(s);
  return r;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ReportText, BytesJustBelowAMegabyteReadOneMegabyte) {
  const std::string text = ReportText(FourNodeReport(), FourNodeModel());
  EXPECT_NE(text.find("copies per inference: 1.0 MB to delegates"), std::string::npos) << text;
  EXPECT_EQ(text.find("1000.0 kB"), std::string::npos) << text;
}

TEST(ReportText, PartitionColumnsStayAlignedWithLongDelegateNames) {
  const std::vector<std::string> lines = Lines(ReportText(FourNodeReport(), FourNodeModel()));
  size_t header = 0;
  while (header < lines.size() && lines[header].find("first..last") == std::string::npos) ++header;
  ASSERT_LT(header + 2, lines.size());
  // "nodes" ends where the node counts end, in both rows.
  const size_t nodes_end = lines[header].find("nodes") + 5;
  EXPECT_EQ(lines[header + 1].substr(nodes_end - 1, 2), "1 ") << lines[header + 1];
  EXPECT_EQ(lines[header + 2].substr(nodes_end - 1, 2), "3 ") << lines[header + 2];
  EXPECT_EQ(lines[header + 1].find("first..last"), std::string::npos);
  EXPECT_EQ(lines[header].find("first..last") + 11, lines[header + 1].find("0..0") + 4)
      << lines[header] << "\n"
      << lines[header + 1];
}

TEST(ReportText, NodesLeftOnTheCpuAreGroupedByOpAndReason) {
  const std::string text = ReportText(FourNodeReport(), FourNodeModel());
  const std::string reason = std::string("op not listed in ") + kLongName;
  EXPECT_NE(text.find("  3 nodes left on the CPU, by op and reason (--verbose lists every node):\n"
                      "       2 x PRELU: " +
                      reason +
                      "  (#1..2)\n"
                      "       1 x RESHAPE: " +
                      reason + "  (#3)\n"),
            std::string::npos)
      << text;
  const std::string verbose = ReportText(FourNodeReport(), FourNodeModel(), true);
  EXPECT_NE(verbose.find("  3 nodes left on the CPU:\n    PRELU #1: " + reason +
                         "\n    PRELU #2: " + reason + "\n    RESHAPE #3: " + reason + "\n"),
            std::string::npos)
      << verbose;
}

}  // namespace
}  // namespace tfa::cli
