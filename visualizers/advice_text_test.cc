#include "visualizers/advice_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "visualizers/visualizer_test_data.h"

namespace tfa {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CopyEstimate Copy(uint64_t to, uint64_t from, uint64_t once, int64_t transitions, double seconds) {
  CopyEstimate c;
  c.bytes_to_delegate = to;
  c.bytes_from_delegate = from;
  c.init_upload_bytes = once;
  c.transitions = transitions;
  c.copy_seconds = seconds;
  return c;
}

// gpu keeps candidate 0 (CONV_2D #0 .. ADD #1); supporting MY_CUSTOM #2 would merge it with
// candidate 1 (MUL #3).
DelegationAdvice TinyAdvice(int32_t max_partitions) {
  DelegationAdvice advice;
  advice.delegate = "gpu";
  advice.profile_max_partitions = max_partitions;
  CandidatePartition first;
  first.index = 0;
  first.node_count = 2;
  first.first_node = 0;
  first.last_node = 1;
  first.kept = true;
  first.copy = Copy(4096, 2048, 4000, 2, 0.5e-3);
  CandidatePartition second = first;
  second.index = 1;
  second.size_rank = 1;
  second.node_count = 1;
  second.first_node = 3;
  second.last_node = 3;
  second.kept = false;
  advice.candidates = {first, second};
  advice.profile_outcome.max_partitions = max_partitions;
  advice.profile_outcome.kept_candidates = {0};
  advice.profile_outcome.delegated_nodes = 2;
  advice.profile_outcome.delegated_partitions = 1;
  advice.profile_outcome.copy = first.copy;
  UnsupportedNodeImpact impact;
  impact.node = 2;
  impact.op = "MY_CUSTOM";
  impact.reason = "custom op not supported";
  impact.joined_candidates = {0, 1};
  impact.delegated_nodes_gained = 2;
  impact.bytes_saved_per_inference = 830;
  impact.copy_seconds_saved = 830e-6;
  advice.unsupported_impacts = {impact};
  advice.rejection_groups = {{"MY_CUSTOM", "custom op not supported", {2}}};
  advice.notes = {kAdviceEstimateNote};
  return advice;
}

TEST(AdviceTextTest, SaysWhatSupportingANodeWouldDoInTheReportsUnits) {
  const Subgraph subgraph = viz::testing::TinySubgraph();
  const std::string text = AdviceText(TinyAdvice(1), subgraph);
  EXPECT_THAT(text, HasSubstr("Delegation advice for gpu (profile keeps its largest partition)"));
  EXPECT_THAT(text, HasSubstr("CONV_2D #0 .. ADD #1"));
  EXPECT_THAT(text, HasSubstr("supporting MY_CUSTOM #2 would merge candidates #0 and #1, "
                              "delegate 2 more nodes and save 830 B of copies per inference "
                              "(0 fewer transitions, 830.00 us saved)"));
  EXPECT_THAT(text, HasSubstr("  1 x MY_CUSTOM: custom op not supported"));
  EXPECT_THAT(text, HasSubstr("Note: times are a copy-cost estimate"));
  // One byte formatter everywhere (libanalysis/core/byte_units.h): decimal kB, as the report.
  EXPECT_THAT(text, HasSubstr("4.0 kB"));
  EXPECT_THAT(text, Not(HasSubstr("KiB")));
}

TEST(AdviceTextTest, NamesThePartitionsTheProfileKeeps) {
  const Subgraph subgraph = viz::testing::TinySubgraph();
  EXPECT_THAT(AdviceText(TinyAdvice(2), subgraph),
              HasSubstr("(profile keeps its 2 largest partitions)"));
  EXPECT_THAT(AdviceText(TinyAdvice(std::numeric_limits<int32_t>::max()), subgraph),
              HasSubstr("(profile keeps every partition)"));
}

}  // namespace
}  // namespace tfa
