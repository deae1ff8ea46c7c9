#include "libanalysis/report/report_json.h"

#include <algorithm>
#include <charconv>
#include <concepts>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace tfa {
namespace {

// Streams JSON in the layout nlohmann's dump(indent) gives (so the contract's bytes stay as they
// were): members and elements one per line at `indent` spaces a level, "key": value, empty
// containers as {} and [], no newline at the end; compact (",", ":") when indent < 0.
class JsonWriter {
 public:
  JsonWriter(std::ostream& out, int indent, int level)
      : out_(out), indent_(indent), base_level_(level) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter() { Flush(); }

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  void Key(std::string_view key) {
    NextItem();
    QuotedString(key);
    buffer_ += indent_ >= 0 ? ": " : ":";
    after_key_ = true;
  }
  void String(std::string_view s) {
    BeforeValue();
    QuotedString(s);
  }
  void Bool(bool b) {
    BeforeValue();
    buffer_ += b ? "true" : "false";
  }
  template <std::integral Integer>
  void Number(Integer v) {
    BeforeValue();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    buffer_.append(digits, end);
  }
  // A value already written as JSON by nlohmann's dump(indent) at level 0: its lines are moved to
  // this writer's current level.
  void Serialized(std::string_view json) {
    BeforeValue();
    for (char c : json) {
      buffer_ += c;
      if (c == '\n') Indent(Level());
    }
  }

  template <std::integral Integer>
  void Member(std::string_view key, Integer v) {
    Key(key);
    Number(v);
  }
  void Member(std::string_view key, std::string_view s) {
    Key(key);
    String(s);
  }
  void Member(std::string_view key, const char* s) { Member(key, std::string_view(s)); }
  void Member(std::string_view key, bool b) {
    Key(key);
    Bool(b);
  }

  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  size_t Level() const { return static_cast<size_t>(base_level_) + open_.size(); }

  void Indent(size_t level) {
    if (indent_ > 0) buffer_.append(level * static_cast<size_t>(indent_), ' ');
  }

  // The separator and line break before a member or an array element.
  void NextItem() {
    if (open_.empty()) return;
    if (!open_.back()) buffer_ += ',';
    open_.back() = false;
    if (indent_ >= 0) {
      buffer_ += '\n';
      Indent(Level());
    }
  }

  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    NextItem();
  }

  void Open(char bracket) {
    BeforeValue();
    buffer_ += bracket;
    open_.push_back(true);
  }

  void Close(char bracket) {
    const bool empty = open_.back();
    open_.pop_back();
    if (!empty && indent_ >= 0) {
      buffer_ += '\n';
      Indent(Level());
    }
    buffer_ += bracket;
    if (buffer_.size() >= kFlushBytes) Flush();
  }

  // Plain printable ASCII is written as is; anything else goes through nlohmann's escaping, which
  // also puts U+FFFD in place of bytes that are not UTF-8 (names come from model files unchecked).
  void QuotedString(std::string_view s) {
    bool plain = true;
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') {
        plain = false;
        break;
      }
    }
    if (plain) {
      buffer_ += '"';
      buffer_ += s;
      buffer_ += '"';
      return;
    }
    buffer_ += nlohmann::json(std::string(s))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  static constexpr size_t kFlushBytes = size_t{1} << 16;

  std::ostream& out_;
  const int indent_;
  const int base_level_;
  std::string buffer_;
  std::vector<bool> open_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

void IntArray(JsonWriter& w, std::span<const int32_t> values) {
  w.BeginArray();
  for (int32_t v : values) w.Number(v);
  w.EndArray();
}

void StringArray(JsonWriter& w, const std::vector<std::string>& values) {
  w.BeginArray();
  for (const std::string& v : values) w.String(v);
  w.EndArray();
}

void WritePlanStepNode(JsonWriter& w, const PlanStepNode& n) {
  w.BeginObject();
  if (n.delegate_kernel) {
    w.Member("delegate_kernel", n.op);
  } else {
    w.Member("node", n.node);
    w.Member("op", n.op);
  }
  w.EndObject();
}

void WriteAllocs(JsonWriter& w, const std::vector<ArenaAllocation>& allocs) {
  w.BeginArray();
  for (const ArenaAllocation& al : allocs) {
    w.BeginObject();
    w.Member("tensor", al.tensor);
    w.Member("offset", al.offset);
    w.Member("size", al.size);
    w.Member("first_node", al.first_step);
    w.Member("last_node", al.last_step);
    if (al.persistent) w.Member("arena", "persistent");
    if (al.shares_buffer_of) w.Member("shares_buffer_of", *al.shares_buffer_of);
    if (al.temporary_of) {
      w.Key("temporary_of");
      WritePlanStepNode(w, *al.temporary_of);
    }
    w.EndObject();
  }
  w.EndArray();
}

void WriteArena(JsonWriter& w, const ArenaReport& a, bool with_allocs) {
  w.BeginObject();
  w.Member("size", a.size);
  w.Member("persistent_size", a.persistent_size);
  w.Member("lower_bound", a.lower_bound);
  w.Member("peak_node", a.peak_step);
  w.Member("peak_step", a.peak_step);
  if (a.planned && !a.peak_at.op.empty()) {
    w.Key("peak_at");
    WritePlanStepNode(w, a.peak_at);
  }
  if (!a.assumptions.empty()) {
    w.Key("assumptions");
    StringArray(w, a.assumptions);
  }
  if (!a.planned) w.Member("planned", false);
  if (a.planned && a.high_water_mark != a.size) w.Member("high_water_mark", a.high_water_mark);
  if (a.planning_stops_at_node) w.Member("planning_stops_at_node", *a.planning_stops_at_node);
  if (!a.notes.empty()) {
    w.Key("notes");
    StringArray(w, a.notes);
  }
  if (with_allocs) {
    w.Key("allocs");
    WriteAllocs(w, a.allocs);
  }
  w.EndObject();
}

void WriteAfterInvoke(JsonWriter& w, const AfterInvokeReport& r) {
  const ArenaReport& a = r.arena;
  w.BeginObject();
  w.Member("planned", a.planned);
  w.Member("invoked", r.invoked);
  w.Member("released", r.released);
  w.Member("arena_size", a.size);
  w.Member("persistent_size", a.persistent_size);
  w.Member("arena_high_water_mark", a.high_water_mark);
  w.Member("persistent_high_water_mark", r.persistent_high_water_mark);
  if (!a.assumptions.empty()) {
    w.Key("assumptions");
    StringArray(w, a.assumptions);
  }
  if (a.planning_stops_at_node) w.Member("planning_stops_at_node", *a.planning_stops_at_node);
  if (!a.notes.empty()) {
    w.Key("notes");
    StringArray(w, a.notes);
  }
  w.Key("allocs");
  WriteAllocs(w, a.allocs);
  w.EndObject();
}

// "accelerators": {"segments": [...], "cpu_nodes": [...], "unknown": [...]}
void WriteAccelerators(JsonWriter& w, const AcceleratorReport& a) {
  w.Key("accelerators");
  w.BeginObject();
  w.Key("segments");
  w.BeginArray();
  for (const AcceleratorSegment& segment : a.segments) {
    w.BeginObject();
    w.Member("accelerator", segment.accelerator);
    w.Member("node", segment.node);
    w.Member("op", segment.op);
    w.Member("program_bytes", segment.program_bytes);
    w.Key("inputs");
    IntArray(w, segment.inputs);
    w.Key("outputs");
    IntArray(w, segment.outputs);
    w.Member("bytes_in", segment.bytes_in);
    w.Member("bytes_out", segment.bytes_out);
    w.EndObject();
  }
  w.EndArray();
  w.Key("cpu_nodes");
  IntArray(w, a.cpu_nodes);
  w.Key("unknown");
  StringArray(w, a.unknowns);
  w.EndObject();
}

void WriteSubgraph(JsonWriter& w, const SubgraphReport& s) {
  w.BeginObject();
  w.Member("index", s.index);
  w.Member("nodes", s.nodes);
  w.Key("partitions");
  w.BeginArray();
  for (const PartitionReport& p : s.partitions) {
    const bool delegated = p.kind == PartitionReport::Kind::kDelegate;
    w.BeginObject();
    w.Member("kind", delegated ? "delegate" : "cpu");
    if (delegated) w.Member("delegate", p.delegate);
    w.Key("nodes");
    IntArray(w, p.nodes);
    w.Key("inputs");
    IntArray(w, p.inputs);
    w.Key("outputs");
    IntArray(w, p.outputs);
    if (delegated) {
      w.Member("bytes_to_delegate", p.bytes_to_delegate);
      w.Member("bytes_from_delegate", p.bytes_from_delegate);
      w.Member("init_upload_bytes", p.init_upload_bytes);
      if (p.in_place) w.Member("in_place", true);
    }
    w.EndObject();
  }
  w.EndArray();
  w.Member("delegated_partition_count", s.delegated_partition_count);
  w.Key("copy");
  w.BeginObject();
  w.Member("bytes_to_delegate", s.copy.bytes_to_delegate);
  w.Member("bytes_from_delegate", s.copy.bytes_from_delegate);
  w.Member("transitions", s.copy.transitions);
  w.Member("init_upload_bytes", s.copy.init_upload_bytes);
  if (s.accelerators) {
    w.Member("accelerator_bytes_in", s.copy.accelerator_bytes_in);
    w.Member("accelerator_bytes_out", s.copy.accelerator_bytes_out);
  }
  w.EndObject();
  w.Key("unsupported_nodes");
  w.BeginArray();
  for (const UnsupportedNode& u : s.unsupported) {
    w.BeginObject();
    w.Member("node", u.node);
    w.Member("op", u.op);
    w.Member("delegate", u.delegate);
    w.Member("reason", u.reason);
    w.EndObject();
  }
  w.EndArray();
  if (s.arena) {
    w.Key("arena");
    WriteArena(w, *s.arena, true);
  }
  if (s.arena_cpu_only) {
    w.Key("arena_cpu_only");
    WriteArena(w, *s.arena_cpu_only, false);
  }
  if (s.after_invoke) {
    w.Key("after_invoke");
    WriteAfterInvoke(w, *s.after_invoke);
  }
  if (!s.delegate_memory.empty()) {
    w.Key("delegate_memory");
    w.BeginArray();
    for (const DelegateMemory& m : s.delegate_memory) {
      w.BeginObject();
      w.Member("delegate", m.delegate);
      w.Member("total_bytes", m.total_bytes);
      w.Member("has_unknown", m.has_unknown());
      w.Key("parts");
      w.BeginArray();
      for (const DelegateMemoryPart& p : m.parts) {
        w.BeginObject();
        w.Member("kind", p.kind);
        w.Member("bytes", p.bytes);
        w.Member("method", p.method);
        w.Member("basis", MemoryBasisName(p.basis));
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
  }
  if (s.accelerators) WriteAccelerators(w, *s.accelerators);
  if (!s.unresolved_ops.empty()) {
    w.Key("unresolved_ops");
    w.BeginArray();
    for (const UnresolvedOp& op : s.unresolved_ops) {
      w.BeginObject();
      w.Member("node", op.node);
      w.Member("op", op.op);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

// Signature keys as a JSON object: a key named twice keeps its first place and its last tensor,
// as assigning into a JSON object does.
void WriteTensorsByKey(JsonWriter& w, const std::vector<std::pair<std::string, int32_t>>& keys) {
  std::unordered_map<std::string_view, int32_t> last;
  for (const auto& [key, tensor] : keys) last[key] = tensor;
  std::unordered_set<std::string_view> written;
  w.BeginObject();
  for (const auto& [key, tensor] : keys) {
    if (written.insert(key).second) w.Member(key, last[key]);
  }
  w.EndObject();
}

void WriteOpVersions(JsonWriter& w, std::string_view key,
                     const std::vector<OpVersionRequirement>& ops) {
  w.Key(key);
  w.BeginArray();
  for (const OpVersionRequirement& op : ops) {
    w.BeginObject();
    w.Member("op", op.op);
    w.Member("version", op.version);
    w.EndObject();
  }
  w.EndArray();
}

// "min_runtime_version": {"minimum": "2.3.0", "set_by": [...], "unknown": [...]}; no "minimum"
// when no op of the model is in upstream's table.
void WriteRuntimeVersion(JsonWriter& w, const RuntimeVersionRequirement& r) {
  w.Key("min_runtime_version");
  w.BeginObject();
  if (!r.minimum.empty()) w.Member("minimum", r.minimum);
  WriteOpVersions(w, "set_by", r.setting_ops);
  WriteOpVersions(w, "unknown", r.unknown);
  w.EndObject();
}

void WriteReport(JsonWriter& w, const ReportJsonView& view) {
  const Report& r = *view.report;
  w.BeginObject();
  w.Member("model", r.model);
  w.Member("tool_version", r.tool_version);
  w.Key("delegates");
  StringArray(w, r.delegates);
  if (!r.delegate_trust.empty()) {
    w.Key("delegate_profiles");
    w.BeginArray();
    for (size_t i = 0; i < r.delegates.size() && i < r.delegate_trust.size(); ++i) {
      w.BeginObject();
      w.Member("name", r.delegates[i]);
      w.Member("trust", r.delegate_trust[i]);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!r.delegation_notes.empty()) {
    w.Key("delegation_notes");
    StringArray(w, r.delegation_notes);
  }
  if (!r.delegate_failures.empty()) {
    w.Key("delegate_failures");
    w.BeginArray();
    for (const DelegateFailureReport& f : r.delegate_failures) {
      w.BeginObject();
      w.Member("delegate", f.delegate);
      w.Member("subgraph", f.subgraph);
      w.Key("nodes");
      IntArray(w, f.nodes);
      w.Member("reason", f.reason);
      w.Key("log");
      StringArray(w, f.log);
      w.Key("also_removed");
      StringArray(w, f.also_removed);
      w.EndObject();
    }
    w.EndArray();
  }
  const bool refusals = std::any_of(r.subgraphs.begin(), r.subgraphs.end(),
                                    [](const auto& s) { return !s.refused_delegates.empty(); });
  if (refusals) {
    w.Key("delegate_refusals");
    w.BeginArray();
    for (const SubgraphReport& s : r.subgraphs) {
      for (const DelegateRefusalReport& refusal : s.refused_delegates) {
        w.BeginObject();
        w.Member("delegate", refusal.delegate);
        w.Member("subgraph", s.index);
        w.Member("dynamic_tensor", refusal.dynamic_tensor);
        w.Member("reason", refusal.reason);
        w.EndObject();
      }
    }
    w.EndArray();
  }
  WriteRuntimeVersion(w, r.runtime_version);
  if (r.allocate_tensors_failure) {
    w.Key("allocate_tensors");
    w.BeginObject();
    w.Member("status", "unresolved_ops");
    w.Member("message", *r.allocate_tensors_failure);
    w.EndObject();
  }
  w.Key("subgraphs");
  w.BeginArray();
  for (const SubgraphReport& s : r.subgraphs) {
    if (view.only_subgraphs && std::find(view.only_subgraphs->begin(), view.only_subgraphs->end(),
                                         s.index) == view.only_subgraphs->end()) {
      continue;
    }
    WriteSubgraph(w, s);
  }
  w.EndArray();
  if (!r.signatures.empty()) {
    w.Key("signatures");
    w.BeginArray();
    for (const SignatureReport& s : r.signatures) {
      w.BeginObject();
      w.Member("key", s.key);
      w.Member("subgraph", s.subgraph);
      w.Key("inputs");
      WriteTensorsByKey(w, s.inputs);
      w.Key("outputs");
      WriteTensorsByKey(w, s.outputs);
      w.EndObject();
    }
    w.EndArray();
  }
  if (r.interpreter) {
    const InterpreterTotals& t = *r.interpreter;
    w.Key("interpreter");
    w.BeginObject();
    w.Member("arena_bytes", t.arena_bytes);
    w.Member("persistent_bytes", t.persistent_bytes);
    w.Member("subgraphs_planned", t.subgraphs_planned);
    w.Member("delegate_bytes", t.delegate_bytes);
    w.Member("delegate_bytes_unknown", t.delegate_bytes_unknown);
    w.Member("constant_bytes", t.constant_bytes);
    w.Member("resident_bytes", t.resident_bytes);
    w.Member("resident_unknown", t.resident_unknown);
    w.Key("resident_terms");
    w.BeginArray();
    for (const ResidentTerm& term : t.resident_terms) {
      w.BeginObject();
      w.Member("term", term.term);
      w.Member("bytes", term.bytes);
      w.Member("basis", MemoryBasisName(term.basis));
      w.Member("method", term.method);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  if (r.invoke) {
    w.Key("invoke");
    w.BeginObject();
    w.Member("determined", !r.invoke->undetermined.has_value());
    w.Key("facts_used");
    StringArray(w, r.invoke->facts_used);
    if (r.invoke->undetermined) w.Member("undetermined", r.invoke->undetermined->description);
    w.EndObject();
  }
  for (const auto& [key, json] : view.extra_members) {
    w.Key(key);
    w.Serialized(json);
  }
  w.EndObject();
}

}  // namespace

void WriteReportJson(const ReportJsonView& view, std::ostream& out) {
  JsonWriter w(out, 2, 0);
  WriteReport(w, view);
}

void WriteReportsJson(const std::vector<ReportJsonView>& views, std::ostream& out) {
  JsonWriter w(out, 2, 0);
  w.BeginObject();
  w.Key("reports");
  w.BeginArray();
  for (const ReportJsonView& view : views) WriteReport(w, view);
  w.EndArray();
  w.EndObject();
}

std::string ReportToJson(const Report& report, int indent) {
  std::ostringstream out;
  {
    JsonWriter w(out, indent, 0);
    WriteReport(w, ReportJsonView{&report, nullptr, {}});
  }
  return out.str();
}

}  // namespace tfa
