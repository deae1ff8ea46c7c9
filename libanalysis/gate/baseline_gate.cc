#include "libanalysis/gate/baseline_gate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "libanalysis/core/json_fields.h"
#include "libanalysis/core/json_nesting.h"
#include "libanalysis/core/key_value.h"
#include "libanalysis/model/runtime_version.h"
#include "libanalysis/report/cpu_nodes.h"
#include "libanalysis/tflm/gated_build_name.h"

namespace tfa {
namespace {

using json = nlohmann::json;

// A baseline is three objects deep (root, model, configuration) plus two arrays and a delegate
// object; anything deeper is not a baseline, and refusing it before parsing bounds the parser's
// work on hostile input.
constexpr int kMaxNesting = 8;

Result<DelegateRequest> ParseDelegate(const json& j, const std::string& path) {
  JsonFields fields(j, path);
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  DelegateRequest d;
  TFA_RETURN_IF_ERROR(fields.Read("spec", &d.spec, JsonFields::Presence::kRequired));
  if (d.spec.empty()) return JsonFields::Error(fields.Path("spec"), "empty");
  for (const char* key : {"max_partitions", "min_nodes_per_partition"}) {
    if (fields.Find(key) == nullptr) continue;
    int32_t value = 0;
    TFA_RETURN_IF_ERROR(fields.Read(key, &value, INT32_MIN));
    (std::string(key) == "max_partitions" ? d.max_partitions : d.min_nodes_per_partition) = value;
  }
  TFA_RETURN_IF_ERROR(fields.Read("no_greedy", &d.no_greedy));
  auto options = fields.Array("options");
  if (!options.ok()) return options.status();
  for (size_t i = 0; *options != nullptr && i < (*options)->size(); ++i) {
    const json& kv = (**options)[i];
    const std::string where = fields.Path("options", i);
    if (!kv.is_string()) return JsonFields::Error(where, "expected a \"KEY=VALUE\" string");
    auto option = SplitKeyValue(kv.get<std::string>());
    if (!option) return JsonFields::Error(where, "expected KEY=VALUE");
    d.options.push_back(std::move(*option));
  }
  TFA_RETURN_IF_ERROR(fields.CheckNoOtherFields());
  return d;
}

// {"NAME": count, ...}: an object of non-negative integers; absent leaves `out` empty.
Status ReadCounts(JsonFields& fields, const std::string& key,
                  std::optional<std::map<std::string, uint64_t>>* out) {
  const json* found = fields.Find(key);
  if (found == nullptr) return Status::Ok();
  JsonFields counts(*found, fields.Path(key));
  TFA_RETURN_IF_ERROR(counts.CheckObject());
  std::map<std::string, uint64_t> read;
  for (const auto& [name, value] : found->items()) {
    if (name.empty()) return JsonFields::Error(fields.Path(key), "empty name");
    TFA_RETURN_IF_ERROR(counts.Read(name, &read[name], JsonFields::Presence::kRequired));
  }
  *out = std::move(read);
  return Status::Ok();
}

nlohmann::ordered_json CountsJson(const std::map<std::string, uint64_t>& counts) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, count] : counts) j[name] = count;
  return j;
}

Result<BaselineConfig> ParseConfig(const json& j, const std::string& path) {
  JsonFields fields(j, path);
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  BaselineConfig config;
  auto delegates = fields.Array("delegates", JsonFields::Presence::kRequired);
  if (!delegates.ok()) return delegates.status();
  for (size_t i = 0; i < (*delegates)->size(); ++i) {
    auto d = ParseDelegate((**delegates)[i], fields.Path("delegates", i));
    if (!d.ok()) return d.status();
    config.delegates.push_back(std::move(*d));
  }
  const std::pair<const char*, uint64_t*> figures[] = {
      {"arena_bytes", &config.figures.arena_bytes},
      {"persistent_bytes", &config.figures.persistent_bytes},
      {"delegated_partitions", &config.figures.delegated_partitions},
      {"copy_bytes", &config.figures.copy_bytes}};
  for (const auto& [key, target] : figures) {
    TFA_RETURN_IF_ERROR(fields.Read(key, target, JsonFields::Presence::kRequired));
  }
  TFA_RETURN_IF_ERROR(fields.Read("min_runtime_version", &config.figures.min_runtime_version,
                                  JsonFields::Presence::kOptional));
  TFA_RETURN_IF_ERROR(ReadCounts(fields, "delegated_nodes", &config.figures.delegated_nodes));
  TFA_RETURN_IF_ERROR(ReadCounts(fields, "cpu_fallback_nodes", &config.figures.cpu_fallback_nodes));
  TFA_RETURN_IF_ERROR(fields.Read("target", &config.target, JsonFields::Presence::kOptional));
  if (!config.target.empty() && !tflm::GatedBuildFromName(config.target)) {
    return JsonFields::Error(fields.Path("target"),
                             "expected \"tflm\", \"tflm-32\" or \"tflm-cmsis-nn [--cpu CORE]\"");
  }
  if (!config.target.empty() && !config.delegates.empty()) {
    return JsonFields::Error(fields.Path("target"), "a TFLite Micro target takes no delegates");
  }
  // Written for people reading the file; derived from "delegates", so not checked.
  (void)fields.Find("config");
  TFA_RETURN_IF_ERROR(fields.CheckNoOtherFields());
  return config;
}

bool IsSha256Hex(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Result<BaselineModel> ParseModel(const json& j, const std::string& path) {
  JsonFields fields(j, path);
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  BaselineModel model;
  TFA_RETURN_IF_ERROR(fields.Read("file", &model.file, JsonFields::Presence::kRequired));
  if (model.file.empty() || model.file.find('/') != std::string::npos) {
    return JsonFields::Error(fields.Path("file"), "expected a file name without directories");
  }
  TFA_RETURN_IF_ERROR(fields.Read("sha256", &model.sha256, JsonFields::Presence::kRequired));
  if (!IsSha256Hex(model.sha256)) {
    return JsonFields::Error(fields.Path("sha256"), "expected 64 lower-case hex digits");
  }
  auto configs = fields.Array("configs", JsonFields::Presence::kRequired);
  if (!configs.ok()) return configs.status();
  for (size_t i = 0; i < (*configs)->size(); ++i) {
    const std::string where = fields.Path("configs", i);
    auto c = ParseConfig((**configs)[i], where);
    if (!c.ok()) return c.status();
    for (const BaselineConfig& seen : model.configs) {
      if (seen.target == c->target && SameConfig(seen.delegates, c->delegates)) {
        return JsonFields::Error(
            where, "configuration \"" + ConfigName(c->delegates, c->target) + "\" recorded twice");
      }
    }
    model.configs.push_back(std::move(*c));
  }
  TFA_RETURN_IF_ERROR(fields.CheckNoOtherFields());
  return model;
}

Result<Baseline> ParseBaselineJson(const json& j) {
  JsonFields fields(j, "");
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  std::string format;
  TFA_RETURN_IF_ERROR(fields.Read("format", &format, JsonFields::Presence::kRequired));
  if (format != kBaselineFormat) {
    return JsonFields::Error(
        "format", std::string("expected \"") + kBaselineFormat + "\", got \"" + format + "\"");
  }
  auto models = fields.Array("models", JsonFields::Presence::kRequired);
  if (!models.ok()) return models.status();
  Baseline baseline;
  for (size_t i = 0; i < (*models)->size(); ++i) {
    const std::string where = fields.Path("models", i);
    auto m = ParseModel((**models)[i], where);
    if (!m.ok()) return m.status();
    for (const BaselineModel& seen : baseline.models) {
      if (seen.file == m->file)
        return JsonFields::Error(where, "model \"" + m->file + "\" recorded twice");
    }
    baseline.models.push_back(std::move(*m));
  }
  TFA_RETURN_IF_ERROR(fields.CheckNoOtherFields());
  return baseline;
}

nlohmann::ordered_json DelegateJson(const DelegateRequest& d) {
  nlohmann::ordered_json j{{"spec", d.spec}};
  if (d.max_partitions) j["max_partitions"] = *d.max_partitions;
  if (d.min_nodes_per_partition) j["min_nodes_per_partition"] = *d.min_nodes_per_partition;
  if (d.no_greedy) j["no_greedy"] = true;
  if (!d.options.empty()) {
    auto& options = j["options"] = nlohmann::ordered_json::array();
    for (const auto& [key, value] : d.options) options.push_back(key + "=" + value);
  }
  return j;
}

const BaselineModel* FindModel(const Baseline& baseline, const std::string& file) {
  for (const BaselineModel& m : baseline.models) {
    if (m.file == file) return &m;
  }
  return nullptr;
}

const BaselineModel* FindModelBySha(const Baseline& baseline, const std::string& sha256) {
  for (const BaselineModel& m : baseline.models) {
    if (m.sha256 == sha256) return &m;
  }
  return nullptr;
}

FigureCheck CheckFigure(const std::string& figure, uint64_t before, uint64_t after,
                        const Tolerance& tolerance, bool fail_on_shrink) {
  FigureCheck check{figure, before, after, (fail_on_shrink ? "±" : "+") + tolerance.ToString()};
  const uint64_t allowed = tolerance.AllowedChange(before);
  if (after > before && after - before > allowed) {
    check.verdict = FigureCheck::Verdict::kGrew;
  } else if (fail_on_shrink && before > after && before - after > allowed) {
    check.verdict = FigureCheck::Verdict::kShrank;
  }
  return check;
}

// A newer minimum runtime means devices with the older runtime can no longer load the model
// ("Didn't find op for builtin opcode ..."): it may not rise.
FigureCheck CheckRuntimeVersion(const std::string& before, const std::string& after,
                                bool fail_on_shrink) {
  FigureCheck check{"min_runtime_version", 0, 0, fail_on_shrink ? "unchanged" : "no newer"};
  check.before_text = before;
  check.after_text = after;
  const int order = CompareRuntimeVersions(after, before);
  if (order > 0) check.verdict = FigureCheck::Verdict::kGrew;
  if (order < 0 && fail_on_shrink) check.verdict = FigureCheck::Verdict::kShrank;
  return check;
}

uint64_t CountOf(const std::map<std::string, uint64_t>& counts, const std::string& name) {
  auto it = counts.find(name);
  return it == counts.end() ? 0 : it->second;
}

// One check per name either side knows: the count may rise by `allowed` (`more_is_worse`, CPU
// fallbacks) or fall by it (delegated nodes). `nodes`, when given, names each name's nodes now.
void CheckCounts(const std::string& figure, const std::map<std::string, uint64_t>& before,
                 const std::map<std::string, uint64_t>& after, uint64_t allowed, bool more_is_worse,
                 bool fail_on_shrink, const NodesByOp* nodes, std::vector<FigureCheck>* checks) {
  std::map<std::string, uint64_t> names = before;
  names.insert(after.begin(), after.end());
  const std::string sign = fail_on_shrink ? "±" : more_is_worse ? "+" : "-";
  for (const auto& [name, unused] : names) {
    FigureCheck check{figure + "[" + name + "]", CountOf(before, name), CountOf(after, name),
                      sign + std::to_string(allowed)};
    if (nodes != nullptr) {
      auto listed = nodes->find(name);
      if (listed != nodes->end()) check.nodes = listed->second;
    }
    const uint64_t worse = more_is_worse ? check.after : check.before;
    const uint64_t better = more_is_worse ? check.before : check.after;
    if (worse > better && worse - better > allowed) {
      check.verdict = FigureCheck::Verdict::kGrew;
    } else if (fail_on_shrink && better > worse && better - worse > allowed) {
      check.verdict = FigureCheck::Verdict::kShrank;
    }
    checks->push_back(std::move(check));
  }
}

std::string NodeLabel(int32_t subgraph, int32_t node) {
  std::string label = subgraph == 0 ? "#" : "subgraph " + std::to_string(subgraph) + " #";
  label += std::to_string(node);
  return label;
}

}  // namespace

NodesByOp CpuFallbackNodesOf(const Report& report, const Model& model) {
  NodesByOp nodes;
  if (report.delegates.empty()) return nodes;
  for (const SubgraphReport& s : report.subgraphs) {
    const Subgraph& subgraph = model.subgraphs[static_cast<size_t>(s.index)];
    for (const CpuNode& n : NodesLeftOnCpu(s, subgraph, report.delegates)) {
      nodes[n.op].push_back(NodeLabel(s.index, n.node));
    }
  }
  return nodes;
}

GatedFigures GatedFiguresOf(const Report& report, const Model& model) {
  const ReportFigures f = FiguresOf(report);
  GatedFigures figures{f.arena_bytes, f.persistent_bytes, f.delegated_partitions, f.copy_bytes,
                       report.runtime_version.minimum};
  std::map<std::string, uint64_t> delegated;
  for (const std::string& delegate : report.delegates) delegated[delegate] = 0;
  for (const SubgraphReport& s : report.subgraphs) {
    for (const PartitionReport& p : s.partitions) {
      if (p.kind == PartitionReport::Kind::kDelegate) delegated[p.delegate] += p.nodes.size();
    }
  }
  std::map<std::string, uint64_t> fallbacks;
  for (const auto& [op, nodes] : CpuFallbackNodesOf(report, model)) fallbacks[op] = nodes.size();
  figures.delegated_nodes = std::move(delegated);
  figures.cpu_fallback_nodes = std::move(fallbacks);
  return figures;
}

Result<Baseline> ParseBaseline(std::string_view text, const std::string& source) {
  const Status nesting = CheckJsonNesting(text, kMaxNesting);
  if (!nesting.ok()) return nesting.WithContext(source);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // nlohmann's message is one line ("[json.exception.parse_error.101] parse error at line 3,
    // column 5: ..."), control characters from the input escaped.
    return Status::Error(source + ": not valid JSON: " + e.what());
  }
  auto baseline = ParseBaselineJson(j);
  if (!baseline.ok()) return baseline.status().WithContext(source);
  return baseline;
}

std::string BaselineToJson(const Baseline& baseline) {
  std::vector<const BaselineModel*> models;
  for (const BaselineModel& m : baseline.models) models.push_back(&m);
  std::sort(models.begin(), models.end(),
            [](const auto* a, const auto* b) { return a->file < b->file; });
  nlohmann::ordered_json root{{"format", kBaselineFormat},
                              {"models", nlohmann::ordered_json::array()}};
  for (const BaselineModel* m : models) {
    std::vector<const BaselineConfig*> configs;
    for (const BaselineConfig& c : m->configs) configs.push_back(&c);
    std::sort(configs.begin(), configs.end(), [](const auto* a, const auto* b) {
      return ConfigName(a->delegates, a->target) < ConfigName(b->delegates, b->target);
    });
    nlohmann::ordered_json jm{
        {"file", m->file}, {"sha256", m->sha256}, {"configs", nlohmann::ordered_json::array()}};
    for (const BaselineConfig* c : configs) {
      nlohmann::ordered_json delegates = nlohmann::ordered_json::array();
      for (const DelegateRequest& d : c->delegates) delegates.push_back(DelegateJson(d));
      jm["configs"].push_back({{"config", ConfigName(c->delegates, c->target)},
                               {"delegates", std::move(delegates)},
                               {"arena_bytes", c->figures.arena_bytes},
                               {"persistent_bytes", c->figures.persistent_bytes},
                               {"delegated_partitions", c->figures.delegated_partitions},
                               {"copy_bytes", c->figures.copy_bytes}});
      if (!c->figures.min_runtime_version.empty()) {
        jm["configs"].back()["min_runtime_version"] = c->figures.min_runtime_version;
      }
      if (c->figures.delegated_nodes) {
        jm["configs"].back()["delegated_nodes"] = CountsJson(*c->figures.delegated_nodes);
      }
      if (c->figures.cpu_fallback_nodes) {
        jm["configs"].back()["cpu_fallback_nodes"] = CountsJson(*c->figures.cpu_fallback_nodes);
      }
      if (!c->target.empty()) jm["configs"].back()["target"] = c->target;
    }
    root["models"].push_back(std::move(jm));
  }
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string ConfigName(const std::vector<DelegateRequest>& delegates) {
  if (delegates.empty()) return "cpu only";
  std::string out;
  for (const DelegateRequest& d : delegates) {
    if (!out.empty()) out += ' ';
    out += "--delegate " + d.spec;
    if (d.max_partitions) out += " --max-partitions " + std::to_string(*d.max_partitions);
    if (d.min_nodes_per_partition)
      out += " --min-nodes-per-partition " + std::to_string(*d.min_nodes_per_partition);
    if (d.no_greedy) out += " --no-greedy";
    for (const auto& [key, value] : d.options) out += " --delegate-option " + key + "=" + value;
  }
  return out;
}

std::string ConfigName(const std::vector<DelegateRequest>& delegates, const std::string& target) {
  return target.empty() ? ConfigName(delegates) : "--target " + target;
}

bool SameConfig(const std::vector<DelegateRequest>& a, const std::vector<DelegateRequest>& b) {
  auto same = [](const DelegateRequest& x, const DelegateRequest& y) {
    return x.spec == y.spec && x.max_partitions == y.max_partitions &&
           x.min_nodes_per_partition == y.min_nodes_per_partition && x.no_greedy == y.no_greedy &&
           x.options == y.options;
  };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same);
}

uint64_t Tolerance::AllowedChange(uint64_t baseline) const {
  if (!is_percent) return absolute;
  return static_cast<uint64_t>(std::floor(static_cast<long double>(baseline) * percent / 100.0L));
}

std::string Tolerance::ToString() const {
  if (!is_percent) return std::to_string(absolute) + " B";
  // Shortest form that reads back the same: "2%", "0.5%".
  char digits[32];
  const auto end = std::to_chars(digits, digits + sizeof digits, percent).ptr;
  return std::string(digits, end) + "%";
}

Result<Tolerance> ParseTolerance(const std::string& text, const std::string& flag) {
  const auto error = [&] {
    return Status::Error(
        flag + ": expected a percentage (\"2%\") or a byte count (\"4096\"), got \"" + text + "\"");
  };
  if (text.empty()) return error();
  Tolerance t;
  const bool percent = text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  if (number.empty() || !std::all_of(number.begin(), number.end(),
                                     [](char c) { return std::isdigit(c) || c == '.'; })) {
    return error();
  }
  try {
    size_t used = 0;
    if (percent) {
      t.percent = std::stod(number, &used);
    } else {
      t.absolute = std::stoull(number, &used);
      t.is_percent = false;
    }
    if (used != number.size()) return error();
  } catch (const std::exception&) {
    return error();
  }
  return t;
}

bool ConfigCheck::passed() const {
  return problem.empty() && std::all_of(figures.begin(), figures.end(), [](const FigureCheck& f) {
           return f.verdict == FigureCheck::Verdict::kPass;
         });
}

bool GateResult::passed() const { return failures() == 0; }

size_t GateResult::failures() const {
  size_t n = 0;
  for (const ConfigCheck& c : checks) {
    if (!c.problem.empty()) ++n;
    for (const FigureCheck& f : c.figures) n += f.verdict == FigureCheck::Verdict::kPass ? 0 : 1;
  }
  return n;
}

size_t GateResult::total() const {
  size_t n = 0;
  for (const ConfigCheck& c : checks) n += c.problem.empty() ? c.figures.size() : 1;
  return n;
}

GateResult CompareWithBaseline(const Baseline& baseline,
                               const std::vector<Measurement>& measurements,
                               const GateOptions& options) {
  GateResult result;
  for (const Measurement& m : measurements) {
    ConfigCheck check{m.path, m.file, ConfigName(m.delegates, m.target), "", {}};
    const BaselineModel* model = FindModel(baseline, m.file);
    if (model == nullptr) {
      const BaselineModel* renamed = FindModelBySha(baseline, m.sha256);
      check.problem = renamed != nullptr
                          ? "the baseline records this file's contents as \"" + renamed->file +
                                "\": renamed? (re-record with --update-baseline)"
                          : "not in the baseline (record it with --update-baseline)";
      result.checks.push_back(std::move(check));
      continue;
    }
    const BaselineConfig* config = nullptr;
    for (const BaselineConfig& c : model->configs) {
      if (c.target == m.target && SameConfig(c.delegates, m.delegates)) config = &c;
    }
    if (config == nullptr) {
      check.problem = "configuration not in the baseline (record it with --update-baseline)";
      result.checks.push_back(std::move(check));
      continue;
    }
    const GatedFigures& before = config->figures;
    const GatedFigures& after = m.figures;
    check.figures.push_back(CheckFigure("arena_bytes", before.arena_bytes, after.arena_bytes,
                                        options.arena_growth, options.fail_on_shrink));
    check.figures.push_back(CheckFigure("persistent_bytes", before.persistent_bytes,
                                        after.persistent_bytes, options.persistent_growth,
                                        options.fail_on_shrink));
    if (options.max_delegated_partitions) {
      FigureCheck partitions{"delegated_partitions", before.delegated_partitions,
                             after.delegated_partitions,
                             "<= " + std::to_string(*options.max_delegated_partitions)};
      if (after.delegated_partitions > *options.max_delegated_partitions) {
        partitions.verdict = FigureCheck::Verdict::kGrew;
      } else if (options.fail_on_shrink &&
                 after.delegated_partitions < before.delegated_partitions) {
        partitions.verdict = FigureCheck::Verdict::kShrank;
      }
      check.figures.push_back(std::move(partitions));
    } else {
      check.figures.push_back(CheckFigure("delegated_partitions", before.delegated_partitions,
                                          after.delegated_partitions, Tolerance{0, 0, false},
                                          options.fail_on_shrink));
      check.figures.back().limit = options.fail_on_shrink ? "±0" : "+0";
    }
    check.figures.push_back(CheckFigure("copy_bytes", before.copy_bytes, after.copy_bytes,
                                        options.copy_bytes_growth, options.fail_on_shrink));
    if (!before.min_runtime_version.empty() && !after.min_runtime_version.empty()) {
      check.figures.push_back(CheckRuntimeVersion(
          before.min_runtime_version, after.min_runtime_version, options.fail_on_shrink));
    } else if (before.min_runtime_version.empty() && !after.min_runtime_version.empty()) {
      check.not_checked.push_back("min_runtime_version");
    }
    // Fallbacks exist only where a delegate was applied; the CPU-only plan gates neither.
    const bool delegated = after.delegated_nodes && !after.delegated_nodes->empty();
    if (before.delegated_nodes && after.delegated_nodes) {
      CheckCounts("delegated_nodes", *before.delegated_nodes, *after.delegated_nodes,
                  options.allowed_delegated_nodes_drop, /*more_is_worse=*/false,
                  options.fail_on_shrink, nullptr, &check.figures);
    } else if (delegated) {
      check.not_checked.push_back("delegated_nodes");
    }
    if (before.cpu_fallback_nodes && after.cpu_fallback_nodes) {
      CheckCounts("cpu_fallback_nodes", *before.cpu_fallback_nodes, *after.cpu_fallback_nodes,
                  options.allowed_new_fallbacks, /*more_is_worse=*/true, options.fail_on_shrink,
                  &m.cpu_fallback_node_list, &check.figures);
    } else if (delegated) {
      check.not_checked.push_back("cpu_fallback_nodes");
    }
    result.checks.push_back(std::move(check));
  }
  return result;
}

std::vector<std::vector<DelegateRequest>> RecordedConfigs(const Baseline& baseline,
                                                          const std::string& file) {
  std::vector<std::vector<DelegateRequest>> configs;
  if (const BaselineModel* m = FindModel(baseline, file)) {
    for (const BaselineConfig& c : m->configs) {
      if (c.target.empty()) configs.push_back(c.delegates);
    }
  }
  return configs;
}

std::vector<std::string> RecordedTargets(const Baseline& baseline, const std::string& file) {
  std::vector<std::string> targets;
  if (const BaselineModel* m = FindModel(baseline, file)) {
    for (const BaselineConfig& c : m->configs) {
      if (!c.target.empty()) targets.push_back(c.target);
    }
  }
  return targets;
}

Baseline MergeIntoBaseline(Baseline baseline, const std::vector<Measurement>& measurements) {
  for (const Measurement& m : measurements) {
    auto by_name = std::find_if(baseline.models.begin(), baseline.models.end(),
                                [&](const BaselineModel& b) { return b.file == m.file; });
    if (by_name == baseline.models.end()) {
      by_name = std::find_if(baseline.models.begin(), baseline.models.end(),
                             [&](const BaselineModel& b) { return b.sha256 == m.sha256; });
    }
    if (by_name == baseline.models.end()) {
      baseline.models.push_back({m.file, m.sha256, {}});
      by_name = baseline.models.end() - 1;
    }
    by_name->file = m.file;
    by_name->sha256 = m.sha256;
    auto config = std::find_if(
        by_name->configs.begin(), by_name->configs.end(), [&](const BaselineConfig& c) {
          return c.target == m.target && SameConfig(c.delegates, m.delegates);
        });
    if (config == by_name->configs.end()) {
      by_name->configs.push_back({m.delegates, m.figures, m.target});
    } else {
      config->figures = m.figures;
    }
  }
  return baseline;
}

}  // namespace tfa
