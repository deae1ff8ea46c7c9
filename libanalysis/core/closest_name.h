// "did you mean CONV_2D?": the known name a mistyped one was most likely meant to be. Shared by
// every place that refuses an unknown name (op names in profiles and in --delegate ops=..., the
// tool's subcommands), so they all suggest alike.
#ifndef LIBANALYSIS_CORE_CLOSEST_NAME_H_
#define LIBANALYSIS_CORE_CLOSEST_NAME_H_

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfa {

namespace closest_name_internal {

// Upper case without '_' and '-': "Conv2D", "CONV2D" and "conv-2d" all read "CONV2D".
inline std::string Folded(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '_' || c == '-') continue;
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// Levenshtein distance, one row at a time.
inline size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace closest_name_internal

// The candidate `name` most likely misspells: one that differs only in case, '_' or '-', else the
// nearest by edit distance (case-folded) within a third of the name's length (at least 1); the
// first such candidate on ties. Nothing when no candidate is that close.
inline std::optional<std::string> ClosestName(std::string_view name,
                                              const std::vector<std::string_view>& candidates) {
  using closest_name_internal::EditDistance;
  using closest_name_internal::Folded;
  const std::string folded = Folded(name);
  for (std::string_view c : candidates) {
    if (Folded(c) == folded) return std::string(c);
  }
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    const size_t distance = EditDistance(folded, Folded(c));
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(c);
    }
  }
  return best;
}

// " (did you mean X?)" for ClosestName's answer, or "".
inline std::string DidYouMean(std::string_view name,
                              const std::vector<std::string_view>& candidates) {
  const auto closest = ClosestName(name, candidates);
  return closest ? " (did you mean " + *closest + "?)" : "";
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_CLOSEST_NAME_H_
