#include "libanalysis/report/advice_json.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace tfa {

using Json = nlohmann::ordered_json;

namespace {

Json CopyJson(const CopyEstimate& copy) {
  Json j;
  j["bytes_to_delegate"] = copy.bytes_to_delegate;
  j["bytes_from_delegate"] = copy.bytes_from_delegate;
  j["bytes_per_inference"] = copy.bytes_per_inference();
  j["init_upload_bytes"] = copy.init_upload_bytes;
  j["transitions"] = copy.transitions;
  j["estimated_copy_seconds"] = copy.copy_seconds;
  return j;
}

Json OutcomeJson(const DelegationOutcome& outcome) {
  Json j;
  j["max_partitions"] = outcome.max_partitions;
  j["kept_candidates"] = outcome.kept_candidates;
  j["delegated_nodes"] = outcome.delegated_nodes;
  j["delegated_partitions"] = outcome.delegated_partitions;
  j["copy"] = CopyJson(outcome.copy);
  return j;
}

Json OpImpactJson(const OpSupportImpact& impact) {
  Json j;
  j["op"] = impact.op;
  j["rejected_nodes"] = impact.rejected_nodes;
  j["delegated_nodes_gained"] = impact.delegated_nodes_gained;
  j["delegated_partitions_saved"] = impact.delegated_partitions_saved;
  j["bytes_saved_per_inference"] = impact.bytes_saved_per_inference;
  j["after"] = OutcomeJson(impact.after);
  return j;
}

}  // namespace

std::string AdviceToJson(const DelegationAdvice& advice, int indent) {
  Json j;
  j["delegate"] = advice.delegate;
  j["estimate"] = kAdviceEstimateNote;
  j["transfer"] = {{"bandwidth_bytes_per_second", advice.transfer.bandwidth_bytes_per_second},
                   {"transition_latency_seconds", advice.transfer.transition_latency_seconds},
                   {"in_place", advice.transfer.in_place}};
  j["profile_max_partitions"] = advice.profile_max_partitions;
  j["min_nodes_per_partition"] = advice.min_nodes_per_partition;
  j["full_delegation"] = advice.full_delegation;
  Json candidates = Json::array();
  for (const CandidatePartition& c : advice.candidates) {
    Json cj;
    cj["index"] = c.index;
    cj["size_rank"] = c.size_rank;
    cj["node_count"] = c.node_count;
    cj["first_node"] = c.first_node;
    cj["last_node"] = c.last_node;
    cj["kept"] = c.kept;
    cj["copy"] = CopyJson(c.copy);
    candidates.push_back(std::move(cj));
  }
  j["candidates"] = std::move(candidates);
  j["profile_outcome"] = OutcomeJson(advice.profile_outcome);
  Json table = Json::array();
  for (const DelegationOutcome& outcome : advice.max_partition_outcomes) {
    table.push_back(OutcomeJson(outcome));
  }
  j["max_partitions"] = std::move(table);
  j["max_partitions_capped"] = advice.max_partitions_table_capped;
  Json impacts = Json::array();
  for (const UnsupportedNodeImpact& impact : advice.unsupported_impacts) {
    Json ij;
    ij["node"] = impact.node;
    ij["op"] = impact.op;
    ij["reason"] = impact.reason;
    ij["joined_candidates"] = impact.joined_candidates;
    ij["partly_joined_candidates"] = impact.partly_joined_candidates;
    ij["candidate_count_after"] = impact.candidate_count_after;
    ij["delegated_nodes_gained"] = impact.delegated_nodes_gained;
    ij["bytes_saved_per_inference"] = impact.bytes_saved_per_inference;
    ij["transitions_saved"] = impact.transitions_saved;
    ij["estimated_copy_seconds_saved"] = impact.copy_seconds_saved;
    ij["after"] = OutcomeJson(impact.after);
    impacts.push_back(std::move(ij));
  }
  j["unsupported_impacts"] = std::move(impacts);
  j["unsupported_adjacent"] = advice.unsupported_adjacent;
  Json op_impacts = Json::array();
  for (const OpSupportImpact& impact : advice.op_impacts)
    op_impacts.push_back(OpImpactJson(impact));
  j["op_impacts"] = std::move(op_impacts);
  Json groups = Json::array();
  for (const RejectionGroup& group : advice.rejection_groups) {
    groups.push_back({{"op", group.op}, {"reason", group.reason}, {"nodes", group.nodes}});
  }
  j["rejection_groups"] = std::move(groups);
  j["notes"] = advice.notes;
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tfa
