#include "visualizers/advice_text.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "libanalysis/core/byte_units.h"
#include "libanalysis/profiles/node_support.h"

namespace tfa {
namespace {

// |value| without overflow at INT64_MIN.
uint64_t Magnitude(int64_t value) {
  return value >= 0 ? static_cast<uint64_t>(value) : static_cast<uint64_t>(-(value + 1)) + 1;
}

// Savings of a few bytes are nanoseconds: below a millisecond, microseconds.
std::string FormatSeconds(double seconds) {
  char buffer[32];
  if (seconds > -1e-3 && seconds < 1e-3) {
    std::snprintf(buffer, sizeof buffer, "%.2f us", seconds * 1e6);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f ms", seconds * 1e3);
  }
  return buffer;
}

std::string PadLeft(std::string text, size_t width) {
  if (text.size() < width) text.insert(0, width - text.size(), ' ');
  return text;
}

std::string NodeName(const Subgraph& subgraph, int32_t node) {
  return UpstreamOpName(subgraph.nodes[static_cast<size_t>(node)]) + " #" + std::to_string(node);
}

std::string CandidateList(const std::vector<int32_t>& candidates) {
  std::string out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0) out += i + 1 == candidates.size() ? " and " : ", ";
    out += '#';
    out += std::to_string(candidates[i]);
  }
  return out;
}

// "its largest partition", "its 3 largest partitions", "every partition".
std::string KeptPartitionsText(int32_t max_partitions) {
  if (max_partitions == std::numeric_limits<int32_t>::max()) return "every partition";
  if (max_partitions == 1) return "its largest partition";
  return "its " + std::to_string(max_partitions) + " largest partitions";
}

// "1 more node", "3 fewer transitions": `count` of `noun`, more when `gained` >= 0.
std::string MoreOrFewer(int64_t gained, const std::string& more, const std::string& fewer,
                        const std::string& noun) {
  const uint64_t count = Magnitude(gained);
  return std::to_string(count) + " " + (gained >= 0 ? more : fewer) + " " + noun +
         (count == 1 ? "" : "s");
}

std::string OutcomeRow(const std::string& label, const DelegationOutcome& outcome) {
  return PadLeft(label, 7) + PadLeft(std::to_string(outcome.delegated_partitions), 12) +
         PadLeft(std::to_string(outcome.delegated_nodes), 16) +
         PadLeft(HumanBytes(outcome.copy.bytes_per_inference()), 17) +
         PadLeft(std::to_string(outcome.copy.transitions), 13) +
         PadLeft(FormatSeconds(outcome.copy.copy_seconds), 13) + "  candidates " +
         (outcome.kept_candidates.empty() ? "none" : CandidateList(outcome.kept_candidates)) + "\n";
}

std::string ImpactLine(const UnsupportedNodeImpact& impact, const Subgraph& subgraph) {
  std::string line = "supporting " + NodeName(subgraph, impact.node) + " would ";
  if (impact.joined_candidates.size() >= 2) {
    line += "merge candidates " + CandidateList(impact.joined_candidates);
  } else if (impact.joined_candidates.size() == 1) {
    line += "extend candidate " + CandidateList(impact.joined_candidates);
  } else {
    line += "make a new partition";
  }
  if (!impact.partly_joined_candidates.empty()) {
    line += " (taking part of " + CandidateList(impact.partly_joined_candidates) + ")";
  }
  line +=
      ", delegate " + MoreOrFewer(impact.delegated_nodes_gained, "more", "fewer", "node") + " and ";
  line += impact.bytes_saved_per_inference >= 0 ? "save " : "add ";
  line += HumanBytes(Magnitude(impact.bytes_saved_per_inference));
  line += " of copies per inference (" +
          MoreOrFewer(impact.transitions_saved, "fewer", "more", "transition") + ", " +
          FormatSeconds(impact.copy_seconds_saved) + " saved)";
  return line + "\n      rejected: " + impact.reason + "\n";
}

}  // namespace

std::string AdviceText(const DelegationAdvice& advice, const Subgraph& subgraph) {
  std::string out = "Delegation advice for " + advice.delegate + " (profile keeps " +
                    KeptPartitionsText(advice.profile_max_partitions) + ")\n";
  out += "Candidate partitions (preview before keep-N-largest), plan order:\n";
  out +=
      "     #  rank  nodes  first .. last                            in/inference  "
      "out/inference  constants      copy est.  kept\n";
  for (const CandidatePartition& c : advice.candidates) {
    std::string span = NodeName(subgraph, c.first_node) + " .. " + NodeName(subgraph, c.last_node);
    span.resize(std::max<size_t>(span.size(), 40), ' ');
    out += PadLeft(std::to_string(c.index), 6) + PadLeft(std::to_string(c.size_rank), 6) +
           PadLeft(std::to_string(c.node_count), 7) + "  " + span +
           PadLeft(HumanBytes(c.copy.bytes_to_delegate), 12) +
           PadLeft(HumanBytes(c.copy.bytes_from_delegate), 15) +
           PadLeft(HumanBytes(c.copy.init_upload_bytes), 11) +
           PadLeft(FormatSeconds(c.copy.copy_seconds), 15) + (c.kept ? "  yes" : "  no") + "\n";
  }
  if (advice.candidates.empty()) out += "  none: the delegate supports no planned node\n";

  out += "Outcome of --max-partitions N:\n";
  out += "      N  partitions  delegated nodes  bytes/inference  transitions    copy est.\n";
  for (const DelegationOutcome& outcome : advice.max_partition_outcomes) {
    out += OutcomeRow(std::to_string(outcome.max_partitions), outcome);
  }
  out += OutcomeRow("profile", advice.profile_outcome);

  out += "Unsupported nodes ranked by impact (with the profile's settings):\n";
  for (const UnsupportedNodeImpact& impact : advice.unsupported_impacts) {
    out += "  " + ImpactLine(impact, subgraph);
  }
  if (advice.unsupported_impacts.empty()) out += "  none next to a candidate\n";

  out += "Rejection reasons:\n";
  for (const RejectionGroup& group : advice.rejection_groups) {
    out +=
        "  " + std::to_string(group.nodes.size()) + " x " + group.op + ": " + group.reason + "\n";
  }
  for (const std::string& note : advice.notes) out += "Note: " + note + "\n";
  return out;
}

}  // namespace tfa
