#include "libanalysis/plan/delegate_request.h"

namespace tfa {

Result<DelegateProfile> ResolveDelegateRequest(const DelegateRequest& request) {
  auto profile = ResolveDelegateProfile(request.spec);
  if (!profile.ok()) return profile.status();
  DelegateProfile p = std::move(profile).value();
  if (request.max_partitions) p.partition.max_partitions = *request.max_partitions;
  if (request.min_nodes_per_partition) {
    p.partition.min_nodes_per_partition = *request.min_nodes_per_partition;
  }
  if (request.no_greedy) p.partition.greedy = false;
  for (const auto& [key, value] : request.options) {
    TFA_RETURN_IF_ERROR(p.SetOption(key, value));  // its message names the delegate
  }
  // Upstream's GPU delegate turns max_delegated_partitions <= 0 into 1 and NNAPI's keeps every
  // partition; a delegate that only keeps the N largest would keep none, which no user means.
  const PartitionSettings& partition = p.partition;
  if (partition.max_partitions <= 0 && !partition.nonpositive_max_partitions_means_one &&
      !partition.nonpositive_max_partitions_means_all) {
    return Status::Error("--max-partitions " + std::to_string(partition.max_partitions) + " for " +
                         p.name +
                         ": it keeps the N largest partitions, so N must be at least 1 (gpu "
                         "takes N <= 0 as 1, nnapi as every partition)");
  }
  return p;
}

Result<DelegateProfile> ResolveDelegateSpec(
    const std::string& spec, const std::vector<std::pair<std::string, std::string>>& options) {
  DelegateRequest request;
  request.spec = spec;
  request.options = options;
  return ResolveDelegateRequest(request);
}

Result<std::vector<DelegateProfile>> ResolveDelegateRequests(
    const std::vector<DelegateRequest>& requests) {
  std::vector<DelegateProfile> profiles;
  for (const DelegateRequest& request : requests) {
    auto profile = ResolveDelegateRequest(request);
    if (!profile.ok()) return profile.status();
    profiles.push_back(std::move(profile).value());
  }
  return profiles;
}

}  // namespace tfa
