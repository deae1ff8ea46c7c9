#include "cli/run_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tfa::cli {
namespace {

struct OpTotal {
  std::string op;
  int32_t nodes = 0;
  double microseconds = 0;
};

double TotalMicroseconds(const std::vector<runtime::NodeTiming>& timings) {
  double total = 0;
  for (const runtime::NodeTiming& t : timings) total += t.microseconds;
  return total;
}

double Share(double part, double total) { return total > 0 ? part / total : 0; }

// Op types slowest first; ties by name, so the order does not depend on the map.
std::vector<OpTotal> OpTotals(const std::vector<runtime::NodeTiming>& timings) {
  std::map<std::string, OpTotal> by_op;
  for (const runtime::NodeTiming& t : timings) {
    OpTotal& total = by_op[t.op];
    total.op = t.op;
    ++total.nodes;
    total.microseconds += t.microseconds;
  }
  std::vector<OpTotal> totals;
  for (auto& [op, total] : by_op) totals.push_back(total);
  std::stable_sort(totals.begin(), totals.end(), [](const OpTotal& a, const OpTotal& b) {
    return a.microseconds > b.microseconds;
  });
  return totals;
}

}  // namespace

std::string ProfileText(const std::vector<runtime::NodeTiming>& timings) {
  const double total = TotalMicroseconds(timings);
  std::vector<runtime::NodeTiming> slowest = timings;
  std::stable_sort(slowest.begin(), slowest.end(),
                   [](const runtime::NodeTiming& a, const runtime::NodeTiming& b) {
                     return a.microseconds > b.microseconds;
                   });
  std::string text =
      fmt::format("\n  profile of one Invoke: {} nodes, {:.3f} ms\n", timings.size(), total / 1000);
  text += fmt::format("  {:>6}  {:<28} {:>10} {:>7}\n", "node", "op", "ms", "share");
  for (const runtime::NodeTiming& t : slowest) {
    text += fmt::format("  {:>6}  {:<28} {:>10.3f} {:>6.1f}%\n", t.node, t.op,
                        t.microseconds / 1000, 100 * Share(t.microseconds, total));
  }
  text += fmt::format("\n  {:<28} {:>6} {:>10} {:>7}\n", "op", "nodes", "ms", "share");
  for (const OpTotal& o : OpTotals(timings)) {
    text += fmt::format("  {:<28} {:>6} {:>10.3f} {:>6.1f}%\n", o.op, o.nodes,
                        o.microseconds / 1000, 100 * Share(o.microseconds, total));
  }
  return text;
}

nlohmann::ordered_json ProfileJson(const std::vector<runtime::NodeTiming>& timings) {
  const double total = TotalMicroseconds(timings);
  nlohmann::ordered_json j{{"total_ms", total / 1000},
                           {"nodes", nlohmann::ordered_json::array()},
                           {"ops", nlohmann::ordered_json::array()}};
  for (const runtime::NodeTiming& t : timings) {
    j["nodes"].push_back({{"node", t.node},
                          {"op", t.op},
                          {"ms", t.microseconds / 1000},
                          {"share", Share(t.microseconds, total)}});
  }
  for (const OpTotal& o : OpTotals(timings)) {
    j["ops"].push_back({{"op", o.op},
                        {"nodes", o.nodes},
                        {"ms", o.microseconds / 1000},
                        {"share", Share(o.microseconds, total)}});
  }
  return j;
}

}  // namespace tfa::cli
