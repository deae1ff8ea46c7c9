#include "libanalysis/report/report_json.h"

#include <nlohmann/json.hpp>

namespace tfa {
namespace {

using json = nlohmann::ordered_json;

json PlanStepNodeJson(const PlanStepNode& n) {
  if (n.delegate_kernel) return json{{"delegate_kernel", n.op}};
  return json{{"node", n.node}, {"op", n.op}};
}

json AllocsJson(const std::vector<ArenaAllocation>& allocs) {
  json out = json::array();
  for (const ArenaAllocation& al : allocs) {
    json ja{{"tensor", al.tensor},
            {"offset", al.offset},
            {"size", al.size},
            {"first_node", al.first_step},
            {"last_node", al.last_step}};
    if (al.persistent) ja["arena"] = "persistent";
    if (al.shares_buffer_of) ja["shares_buffer_of"] = *al.shares_buffer_of;
    if (al.temporary_of) ja["temporary_of"] = PlanStepNodeJson(*al.temporary_of);
    out.push_back(std::move(ja));
  }
  return out;
}

json ArenaJson(const ArenaReport& a, bool with_allocs) {
  json j{{"size", a.size},
         {"persistent_size", a.persistent_size},
         {"lower_bound", a.lower_bound},
         {"peak_node", a.peak_step},
         {"peak_step", a.peak_step}};
  if (a.planned && !a.peak_at.op.empty()) j["peak_at"] = PlanStepNodeJson(a.peak_at);
  if (!a.assumptions.empty()) j["assumptions"] = a.assumptions;
  if (!a.planned) j["planned"] = false;
  if (a.planned && a.high_water_mark != a.size) j["high_water_mark"] = a.high_water_mark;
  if (a.planning_stops_at_node) j["planning_stops_at_node"] = *a.planning_stops_at_node;
  if (!a.notes.empty()) j["notes"] = a.notes;
  if (with_allocs) j["allocs"] = AllocsJson(a.allocs);
  return j;
}

json AfterInvokeJson(const AfterInvokeReport& r) {
  const ArenaReport& a = r.arena;
  json j{{"planned", a.planned},
         {"invoked", r.invoked},
         {"released", r.released},
         {"arena_size", a.size},
         {"persistent_size", a.persistent_size},
         {"arena_high_water_mark", a.high_water_mark},
         {"persistent_high_water_mark", r.persistent_high_water_mark}};
  if (!a.assumptions.empty()) j["assumptions"] = a.assumptions;
  if (a.planning_stops_at_node) j["planning_stops_at_node"] = *a.planning_stops_at_node;
  if (!a.notes.empty()) j["notes"] = a.notes;
  j["allocs"] = AllocsJson(a.allocs);
  return j;
}

}  // namespace

std::string ReportToJson(const Report& r, int indent) {
  json j;
  j["model"] = r.model;
  j["tool_version"] = r.tool_version;
  j["delegates"] = r.delegates;
  if (!r.delegate_trust.empty()) {
    json profiles = json::array();
    for (size_t i = 0; i < r.delegates.size() && i < r.delegate_trust.size(); ++i) {
      profiles.push_back({{"name", r.delegates[i]}, {"trust", r.delegate_trust[i]}});
    }
    j["delegate_profiles"] = profiles;
  }
  j["subgraphs"] = json::array();
  for (const SubgraphReport& s : r.subgraphs) {
    json js;
    js["index"] = s.index;
    js["nodes"] = s.nodes;
    json parts = json::array();
    for (const PartitionReport& p : s.partitions) {
      json jp;
      jp["kind"] = p.kind == PartitionReport::Kind::kDelegate ? "delegate" : "cpu";
      if (p.kind == PartitionReport::Kind::kDelegate) jp["delegate"] = p.delegate;
      jp["nodes"] = p.nodes;
      jp["inputs"] = p.inputs;
      jp["outputs"] = p.outputs;
      if (p.kind == PartitionReport::Kind::kDelegate) {
        jp["bytes_to_delegate"] = p.bytes_to_delegate;
        jp["bytes_from_delegate"] = p.bytes_from_delegate;
        jp["init_upload_bytes"] = p.init_upload_bytes;
      }
      parts.push_back(std::move(jp));
    }
    js["partitions"] = std::move(parts);
    js["delegated_partition_count"] = s.delegated_partition_count;
    js["copy"] = {{"bytes_to_delegate", s.copy.bytes_to_delegate},
                  {"bytes_from_delegate", s.copy.bytes_from_delegate},
                  {"transitions", s.copy.transitions},
                  {"init_upload_bytes", s.copy.init_upload_bytes}};
    json unsupported = json::array();
    for (const UnsupportedNode& u : s.unsupported) {
      unsupported.push_back(
          {{"node", u.node}, {"op", u.op}, {"delegate", u.delegate}, {"reason", u.reason}});
    }
    js["unsupported_nodes"] = std::move(unsupported);
    if (s.arena) js["arena"] = ArenaJson(*s.arena, true);
    if (s.arena_cpu_only) js["arena_cpu_only"] = ArenaJson(*s.arena_cpu_only, false);
    if (s.after_invoke) js["after_invoke"] = AfterInvokeJson(*s.after_invoke);
    if (!s.delegate_memory.empty()) {
      json memories = json::array();
      for (const DelegateMemory& m : s.delegate_memory) {
        json parts = json::array();
        for (const DelegateMemoryPart& p : m.parts) {
          parts.push_back({{"kind", p.kind}, {"bytes", p.bytes}, {"method", p.method}});
        }
        memories.push_back({{"delegate", m.delegate},
                            {"total_bytes", m.total_bytes},
                            {"parts", std::move(parts)}});
      }
      js["delegate_memory"] = std::move(memories);
    }
    j["subgraphs"].push_back(std::move(js));
  }
  if (!r.signatures.empty()) {
    json sigs = json::array();
    for (const SignatureReport& s : r.signatures) {
      json inputs = json::object(), outputs = json::object();
      for (const auto& [key, tensor] : s.inputs) inputs[key] = tensor;
      for (const auto& [key, tensor] : s.outputs) outputs[key] = tensor;
      sigs.push_back({{"key", s.key},
                      {"subgraph", s.subgraph},
                      {"inputs", std::move(inputs)},
                      {"outputs", std::move(outputs)}});
    }
    j["signatures"] = std::move(sigs);
  }
  if (r.interpreter) {
    j["interpreter"] = {{"arena_bytes", r.interpreter->arena_bytes},
                        {"persistent_bytes", r.interpreter->persistent_bytes},
                        {"subgraphs_planned", r.interpreter->subgraphs_planned},
                        {"delegate_bytes", r.interpreter->delegate_bytes},
                        {"constant_bytes", r.interpreter->constant_bytes},
                        {"resident_bytes", r.interpreter->resident_bytes}};
  }
  if (r.invoke) {
    json ji{{"determined", !r.invoke->undetermined.has_value()},
            {"facts_used", r.invoke->facts_used}};
    if (r.invoke->undetermined) ji["undetermined"] = r.invoke->undetermined->description;
    j["invoke"] = std::move(ji);
  }
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
