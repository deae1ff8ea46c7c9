#include "libanalysis/report/accelerator_comparison_json.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace tfa {

using Json = nlohmann::ordered_json;

std::string AcceleratorComparisonToJson(const AcceleratorComparison& comparison, int indent) {
  Json j;
  j["ranking"] =
      "fewest CPU nodes, then fewest bytes copied per inference, then fewest delegate partitions";
  Json candidates = Json::array();
  for (const AcceleratorCandidate& c : comparison.candidates) {
    Json cj;
    cj["rank"] = c.rank;
    cj["accelerator"] = c.accelerator;
    cj["delegate"] = c.delegate;
    cj["compiler_plugin"] = c.compiler_plugin;
    cj["nodes"] = c.nodes;
    cj["cpu_nodes"] = c.cpu_nodes;
    cj["delegated_partitions"] = c.delegated_partitions;
    cj["copy"] = {{"bytes_to_delegate", c.bytes_to_delegate},
                  {"bytes_from_delegate", c.bytes_from_delegate},
                  {"bytes_per_inference", c.bytes_per_inference()},
                  {"transitions", c.transitions},
                  {"init_upload_bytes", c.init_upload_bytes}};
    Json next = Json::array();
    for (const SupportNext& s : c.support_next) {
      next.push_back({{"op", s.op},
                      {"rejected_nodes", s.rejected_nodes},
                      {"cpu_nodes_moved", s.cpu_nodes_moved},
                      {"delegated_partitions_saved", s.delegated_partitions_saved},
                      {"bytes_saved_per_inference", s.bytes_saved_per_inference}});
    }
    cj["support_next"] = std::move(next);
    cj["notes"] = c.notes;
    candidates.push_back(std::move(cj));
  }
  j["candidates"] = std::move(candidates);
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tfa
