// A --delegate as a user writes it (a built-in profile name, `ops=A,B`, `nodes=i,j` or a profile
// file, with the options that follow it), and the profile it resolves to.
#ifndef LIBANALYSIS_PLAN_DELEGATE_REQUEST_H_
#define LIBANALYSIS_PLAN_DELEGATE_REQUEST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

struct DelegateRequest {
  std::string spec;  // built-in profile name, `ops=A,B`, `nodes=i,j`, or a profile file path
  std::optional<int32_t> max_partitions;
  std::optional<int32_t> min_nodes_per_partition;
  bool no_greedy = false;
  std::vector<std::pair<std::string, std::string>> options;  // --delegate-option KEY=VALUE
};

// The profile a request names, with the request's partition settings and options applied.
[[nodiscard]] Result<DelegateProfile> ResolveDelegateRequest(const DelegateRequest& request);

// ResolveDelegateRequest of `spec` with `options` and no partition overrides.
[[nodiscard]] Result<DelegateProfile> ResolveDelegateSpec(
    const std::string& spec, const std::vector<std::pair<std::string, std::string>>& options = {});

// Every request resolved, in order; the first error stops.
[[nodiscard]] Result<std::vector<DelegateProfile>> ResolveDelegateRequests(
    const std::vector<DelegateRequest>& requests);

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_DELEGATE_REQUEST_H_
