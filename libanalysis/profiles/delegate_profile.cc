#include "libanalysis/profiles/delegate_profile.h"

#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "libanalysis/core/closest_name.h"
#include "libanalysis/core/json_fields.h"
#include "libanalysis/core/json_nesting.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/profiles/builtin_profile_sources.h"
#include "libanalysis/profiles/rule_checks.h"

namespace tfa {
namespace {

constexpr std::string_view kProfileFormat = "tflite-analyze-profile/1";
constexpr uint64_t kMaxProfileFileBytes = uint64_t{16} << 20;

using Json = nlohmann::json;

Status ReadTypes(JsonFields& fields, const char* key, std::vector<TensorType>* out) {
  std::vector<std::string> names;
  TFA_RETURN_IF_ERROR(fields.Read(key, &names));
  for (const std::string& name : names) {
    const std::optional<TensorType> type = TensorTypeFromName(name);
    if (!type) return JsonFields::Error(fields.Path(key), "unknown tensor type '" + name + "'");
    out->push_back(*type);
  }
  return Status::Ok();
}

Status ReadActivations(JsonFields& fields, const char* key, std::vector<Activation>* out) {
  std::vector<std::string> names;
  TFA_RETURN_IF_ERROR(fields.Read(key, &names));
  for (const std::string& name : names) {
    bool found = false;
    for (Activation a : {Activation::kNone, Activation::kRelu, Activation::kReluN1To1,
                         Activation::kRelu6, Activation::kTanh, Activation::kSignBit}) {
      if (name == ActivationName(a)) {
        out->push_back(a);
        found = true;
      }
    }
    if (!found) {
      return JsonFields::Error(fields.Path(key), "unknown fused activation '" + name + "'");
    }
  }
  return Status::Ok();
}

Status ReadChecks(JsonFields& fields, const char* key, std::vector<std::string>* out) {
  TFA_RETURN_IF_ERROR(fields.Read(key, out));
  for (const std::string& name : *out) {
    if (!FindRuleCheck(name)) {
      return JsonFields::Error(fields.Path(key), "unknown check '" + name + "'");
    }
  }
  return Status::Ok();
}

// An option: {"default": true|false|N, "description": ...}; an integer option also has min and
// max, with min <= default <= max.
Status ReadOption(const Json& value, const std::string& where, ProfileOption* option) {
  JsonFields fields(value, where);
  const Json* default_value = fields.Find("default");
  if (!value.is_object() || default_value == nullptr) {
    return JsonFields::Error(where, "expected {\"default\": true|false|N, \"description\": ...}");
  }
  TFA_RETURN_IF_ERROR(fields.Read("description", &option->description));
  if (!default_value->is_number_integer()) {
    TFA_RETURN_IF_ERROR(fields.Read("default", &option->value));
    return fields.CheckNoOtherFields();
  }
  option->kind = ProfileOption::Kind::kInt;
  const std::pair<const char*, int64_t*> bounds[] = {
      {"default", &option->number}, {"min", &option->min}, {"max", &option->max}};
  for (const auto& [key, target] : bounds) {
    const Json* field = fields.Find(key);
    if (field == nullptr || !field->is_number_integer()) {
      return JsonFields::Error(fields.Path(key), "expected an integer");
    }
    *target = field->get<int64_t>();
  }
  if (option->min > option->number || option->number > option->max) {
    return JsonFields::Error(where, "default " + std::to_string(option->number) + " outside [" +
                                        std::to_string(option->min) + ", " +
                                        std::to_string(option->max) + "]");
  }
  return fields.CheckNoOtherFields();
}

Status ReadRule(const Json& j, const std::string& where, OpRule* rule) {
  JsonFields fields(j, where);
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  // Unknown fields first: a misspelt key explains the errors that would follow.
  for (const char* key :
       {"op", "custom", "prefix", "max_version", "requires_option", "input_types", "output_types",
        "min_rank", "max_rank", "fused_activation_in", "constant_weights", "broadcast",
        "max_stride", "checks", "source", "note", "denied", "partition_index"}) {
    (void)fields.Find(key);
  }
  TFA_RETURN_IF_ERROR(fields.CheckNoOtherFields());
  TFA_RETURN_IF_ERROR(fields.Read("op", &rule->op));
  TFA_RETURN_IF_ERROR(fields.Read("custom", &rule->custom));
  TFA_RETURN_IF_ERROR(fields.Read("prefix", &rule->prefix));
  if (rule->op.empty()) return JsonFields::Error(where, "missing \"op\"");
  if (rule->prefix && !rule->custom) {
    return JsonFields::Error(where, "\"prefix\" needs \"custom\": true");
  }
  if (!rule->custom && !BuiltinCodeFromName(rule->op)) {
    return JsonFields::Error(
        where, UnknownBuiltinOpMessage(rule->op) + "; custom ops need \"custom\": true");
  }
  TFA_RETURN_IF_ERROR(fields.Read("max_version", &rule->max_version, 0));
  TFA_RETURN_IF_ERROR(fields.Read("requires_option", &rule->requires_option));
  TFA_RETURN_IF_ERROR(ReadTypes(fields, "input_types", &rule->input_types));
  TFA_RETURN_IF_ERROR(ReadTypes(fields, "output_types", &rule->output_types));
  TFA_RETURN_IF_ERROR(fields.Read("min_rank", &rule->min_rank, -1));
  TFA_RETURN_IF_ERROR(fields.Read("max_rank", &rule->max_rank, -1));
  TFA_RETURN_IF_ERROR(ReadActivations(fields, "fused_activation_in", &rule->fused_activation_in));
  TFA_RETURN_IF_ERROR(fields.Read("constant_weights", &rule->constant_weights));
  TFA_RETURN_IF_ERROR(fields.Read("broadcast", &rule->allow_broadcast));
  TFA_RETURN_IF_ERROR(fields.Read("max_stride", &rule->max_stride, 0));
  TFA_RETURN_IF_ERROR(ReadChecks(fields, "checks", &rule->checks));
  TFA_RETURN_IF_ERROR(fields.Read("denied", &rule->denied));
  int32_t partition_index = 0;
  TFA_RETURN_IF_ERROR(fields.Read("partition_index", &partition_index, 0));
  rule->partition_index = static_cast<uint32_t>(partition_index);
  return fields.Read("source", &rule->source);
}

// An optional object field of the profile, read by `read` (nothing when absent).
template <typename ReadFields>
Status ReadSection(JsonFields& profile, const char* key, ReadFields read) {
  const Json* section = profile.Find(key);
  if (section == nullptr) return Status::Ok();
  JsonFields fields(*section, key);
  TFA_RETURN_IF_ERROR(fields.CheckObject());
  TFA_RETURN_IF_ERROR(read(fields));
  return fields.CheckNoOtherFields();
}

Status ReadPartition(JsonFields& fields, DelegateProfile* profile) {
  PartitionSettings& s = profile->partition;
  TFA_RETURN_IF_ERROR(
      fields.Read("max_partitions", &s.max_partitions, std::numeric_limits<int32_t>::min()));
  TFA_RETURN_IF_ERROR(fields.Read("min_nodes_per_partition", &s.min_nodes_per_partition, 0));
  TFA_RETURN_IF_ERROR(fields.Read("greedy", &s.greedy));
  TFA_RETURN_IF_ERROR(fields.Read("fp16_helper", &s.fp16_helper));
  TFA_RETURN_IF_ERROR(
      fields.Read("nonpositive_max_partitions_means_one", &s.nonpositive_max_partitions_means_one));
  TFA_RETURN_IF_ERROR(
      fields.Read("fp16_helper_with_fp16_weights", &s.fp16_helper_with_fp16_weights));
  TFA_RETURN_IF_ERROR(
      fields.Read("nonpositive_max_partitions_means_all", &s.nonpositive_max_partitions_means_all));
  TFA_RETURN_IF_ERROR(fields.Read("max_partitions_option", &s.max_partitions_option));
  if (!s.max_partitions_option.empty()) {
    auto option = profile->options.find(s.max_partitions_option);
    if (option == profile->options.end() || option->second.kind != ProfileOption::Kind::kInt) {
      return JsonFields::Error(
          fields.Path("max_partitions_option"),
          "'" + s.max_partitions_option + "' is not a declared integer option");
    }
    s.max_partitions = static_cast<int32_t>(option->second.number);
  }
  return fields.Read("static_unpack_follows_consumers", &s.static_unpack_follows_consumers);
}

Status ReadProfile(const Json& j, DelegateProfile* profile) {
  if (!j.is_object()) return JsonFields::Error("profile", "expected a JSON object");
  JsonFields fields(j, "");
  std::string format;
  TFA_RETURN_IF_ERROR(fields.Read("format", &format));
  if (format != kProfileFormat) {
    return JsonFields::Error("format", "expected \"" + std::string(kProfileFormat) + "\"");
  }
  TFA_RETURN_IF_ERROR(fields.Read("name", &profile->name));
  if (profile->name.empty()) return JsonFields::Error("name", "missing");
  TFA_RETURN_IF_ERROR(fields.Read("description", &profile->description));
  TFA_RETURN_IF_ERROR(fields.Read("source", &profile->source));
  TFA_RETURN_IF_ERROR(fields.Read("unlisted_reason", &profile->unlisted_reason));
  TFA_RETURN_IF_ERROR(fields.Read("unlisted_custom_reason", &profile->unlisted_custom_reason));
  TFA_RETURN_IF_ERROR(fields.Read("version_reason", &profile->version_reason));
  TFA_RETURN_IF_ERROR(ReadChecks(fields, "node_checks", &profile->node_checks));
  TFA_RETURN_IF_ERROR(fields.Read("applied_at_build", &profile->applied_at_build));
  TFA_RETURN_IF_ERROR(fields.Read("denied_reason", &profile->denied_reason));
  TFA_RETURN_IF_ERROR(
      fields.Read("unlisted_builtin_supported", &profile->unlisted_builtin_supported));
  TFA_RETURN_IF_ERROR(ReadSection(fields, "compiler_plugin", [&](JsonFields& plugin) {
    CompilerPluginSettings settings;
    TFA_RETURN_IF_ERROR(plugin.Read("vendor", &settings.vendor));
    if (settings.vendor.empty()) return JsonFields::Error(plugin.Path("vendor"), "missing");
    TFA_RETURN_IF_ERROR(plugin.Read("manufacturer", &settings.manufacturer));
    std::string strategy = "default";
    TFA_RETURN_IF_ERROR(plugin.Read("partition_strategy", &strategy));
    if (strategy != "default") {
      // GroupPartitions (union-find, kLiteRtCompilerOptionsPartitionStrategyWeaklyConnected)
      // orders its partitions by hash-map iteration: not reproducible here.
      return JsonFields::Error(plugin.Path("partition_strategy"),
                               "expected \"default\" (GroupPartitionsV2)");
    }
    profile->compiler_plugin = std::move(settings);
    return Status::Ok();
  }));

  if (const Json* options = fields.Find("options")) {
    if (!options->is_object()) return JsonFields::Error("options", "expected an object");
    for (const auto& [key, value] : options->items()) {
      ProfileOption option;
      TFA_RETURN_IF_ERROR(ReadOption(value, "options." + key, &option));
      profile->options[key] = std::move(option);
    }
  }
  TFA_RETURN_IF_ERROR(ReadSection(fields, "ops_excluded_unless", [&](JsonFields& excluded) {
    for (const auto& [key, value] : j.at("ops_excluded_unless").items()) {
      if (!profile->options.contains(key)) {
        return JsonFields::Error(excluded.Path(key), "not a declared option");
      }
      TFA_RETURN_IF_ERROR(excluded.Read(key, &profile->ops_excluded_unless[key]));
    }
    return Status::Ok();
  }));

  const Json* ops = fields.Find("ops");
  if (ops == nullptr || !ops->is_array()) {
    return JsonFields::Error("ops", "expected an array of op rules");
  }
  for (size_t i = 0; i < ops->size(); ++i) {
    const std::string where = fields.Path("ops", i);
    OpRule rule;
    TFA_RETURN_IF_ERROR(ReadRule((*ops)[i], where, &rule));
    if (!rule.requires_option.empty() && !profile->options.contains(rule.requires_option)) {
      return JsonFields::Error(where + ".requires_option",
                               "'" + rule.requires_option + "' is not a declared option");
    }
    Node probe;
    probe.kind = rule.custom ? NodeKind::kCustom : NodeKind::kBuiltin;
    probe.op = rule.op;
    if (profile->FindRule(probe)) return JsonFields::Error(where, "second rule for " + rule.op);
    profile->ops.push_back(std::move(rule));
  }

  TFA_RETURN_IF_ERROR(ReadSection(fields, "partition", [&](JsonFields& partition) {
    return ReadPartition(partition, profile);
  }));
  TFA_RETURN_IF_ERROR(ReadSection(fields, "kernel", [&](JsonFields& kernel) {
    TFA_RETURN_IF_ERROR(kernel.Read("delegate_kernel", &profile->kernel.delegate_kernel));
    if (!profile->kernel.delegate_kernel.empty() && profile->kernel.delegate_kernel != "gpu") {
      return JsonFields::Error(kernel.Path("delegate_kernel"), "expected \"gpu\" or absent");
    }
    return kernel.Read("prepare_before_delegation", &profile->kernel.prepare_before_delegation);
  }));
  TFA_RETURN_IF_ERROR(ReadSection(fields, "transfer", [&](JsonFields& transfer) {
    TFA_RETURN_IF_ERROR(
        transfer.Read("bandwidth_bytes_per_second", &profile->transfer.bandwidth_bytes_per_second));
    TFA_RETURN_IF_ERROR(
        transfer.Read("transition_latency_seconds", &profile->transfer.transition_latency_seconds));
    return transfer.Read("in_place", &profile->transfer.in_place);
  }));
  return fields.CheckNoOtherFields();
}

// Splits "A,B,C" into its non-empty items; empty items are an error.
Result<std::vector<std::string>> SplitList(const std::string& spec, const std::string& list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) return Status::Error("--delegate " + spec + ": empty item in the list");
    items.push_back(item);
  }
  if (items.empty() || list.back() == ',') {
    return Status::Error("--delegate " + spec + ": expected a comma-separated list");
  }
  return items;
}

Result<DelegateProfile> OpsProfile(const std::string& spec) {
  auto items = SplitList(spec, spec.substr(4));
  if (!items.ok()) return items.status();
  DelegateProfile profile;
  profile.name = spec;
  profile.description = "claims every node whose op (builtin name or custom code) is listed";
  profile.kind = ProfileKind::kOps;
  profile.claimed_ops = std::move(*items);
  return profile;
}

Result<DelegateProfile> NodesProfile(const std::string& spec) {
  auto items = SplitList(spec, spec.substr(6));
  if (!items.ok()) return items.status();
  DelegateProfile profile;
  profile.name = spec;
  profile.description = "claims exactly the listed node indices";
  profile.kind = ProfileKind::kNodes;
  for (const std::string& item : *items) {
    int32_t node = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), node);
    if (error != std::errc() || end != item.data() + item.size() || node < 0) {
      return Status::Error("--delegate " + spec + ": '" + item + "' is not a node index");
    }
    profile.claimed_nodes.push_back(node);
  }
  return profile;
}

// Which built-in profiles have been checked against upstream (DelegateProfile::trust).
ProfileTrust BuiltinProfileTrust(const std::string& name) {
  if (name == "gpu" || name == "xnnpack") return ProfileTrust::kVerified;
  if (name == "nnapi" || name == "add-sub" || name == "flex" || name.starts_with("npu-")) {
    return ProfileTrust::kTranscribed;
  }
  return ProfileTrust::kUser;
}

}  // namespace

int32_t PartitionSettings::EffectiveMaxPartitions() const {
  if (nonpositive_max_partitions_means_one && max_partitions <= 0) return 1;
  return max_partitions;
}

bool PartitionSettings::UsesFp16Helper(const Subgraph& subgraph) const {
  if (fp16_helper) return true;
  if (!fp16_helper_with_fp16_weights) return false;
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    if (node.kind == NodeKind::kBuiltin && node.op == "DEQUANTIZE" && !node.inputs.empty() &&
        node.inputs[0] >= 0) {
      const Tensor& input = subgraph.tensors[static_cast<size_t>(node.inputs[0])];
      if (input.type == TensorType::kFloat16 && input.is_constant()) return true;
    }
  }
  return false;
}

int32_t PartitionSettings::EffectiveMaxPartitions(bool fp16_helper_runs) const {
  if (nonpositive_max_partitions_means_all && !fp16_helper_runs && max_partitions <= 0) {
    return std::numeric_limits<int32_t>::max();
  }
  return EffectiveMaxPartitions();
}

const char* ProfileTrustName(ProfileTrust trust) {
  switch (trust) {
    case ProfileTrust::kVerified:
      return "verified";
    case ProfileTrust::kTranscribed:
      return "transcribed";
    case ProfileTrust::kUser:
      return "user";
  }
  return "user";
}

double TransferCosts::EstimatedCopySeconds(uint64_t bytes, int64_t transitions) const {
  double seconds = static_cast<double>(transitions) * transition_latency_seconds;
  if (bandwidth_bytes_per_second > 0) {
    seconds += static_cast<double>(bytes) / bandwidth_bytes_per_second;
  }
  return seconds;
}

Status DelegateProfile::SetOption(const std::string& key, const std::string& value) {
  auto it = options.find(key);
  if (it == options.end()) {
    std::string known;
    for (const auto& [name, option] : options) known += (known.empty() ? "" : ", ") + name;
    return Status::Error("delegate " + name + ": unknown option '" + key +
                         "' (options: " + (known.empty() ? "none" : known) + ")");
  }
  ProfileOption& option = it->second;
  if (option.kind == ProfileOption::Kind::kInt) {
    int64_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    const bool parsed =
        error == std::errc() && end == value.data() + value.size() && !value.empty();
    if (!parsed || number < option.min || number > option.max) {
      return Status::Error("delegate " + name + ": option " + key + " expects an integer in [" +
                           std::to_string(option.min) + ", " + std::to_string(option.max) +
                           "], got '" + value + "'");
    }
    option.number = number;
    if (partition.max_partitions_option == key) {
      partition.max_partitions = static_cast<int32_t>(number);
    }
    return Status::Ok();
  }
  if (value == "true" || value == "1") {
    option.value = true;
  } else if (value == "false" || value == "0") {
    option.value = false;
  } else {
    return Status::Error("delegate " + name + ": option " + key + " expects true or false, got '" +
                         value + "'");
  }
  return Status::Ok();
}

bool DelegateProfile::OptionEnabled(const std::string& key) const {
  auto it = options.find(key);
  return it != options.end() && it->second.kind == ProfileOption::Kind::kBool && it->second.value;
}

int64_t DelegateProfile::OptionNumber(const std::string& key) const {
  auto it = options.find(key);
  return it != options.end() && it->second.kind == ProfileOption::Kind::kInt ? it->second.number
                                                                             : 0;
}

const OpRule* DelegateProfile::FindRule(const Node& node) const {
  const bool custom = node.kind == NodeKind::kCustom;
  for (const OpRule& rule : ops) {
    if (rule.custom != custom) continue;
    if (rule.prefix ? node.op.starts_with(rule.op) : rule.op == node.op) return &rule;
  }
  return nullptr;
}

Result<DelegateProfile> ParseDelegateProfileJson(std::string_view text,
                                                 const std::string& source_name) {
  // Parse without exceptions: a malformed file is a discarded value, reported as one line. The
  // reader checks every value's type before reading it; the catch keeps any nlohmann surprise
  // inside the library boundary all the same.
  // A profile nests a few levels (root, ops, one rule, its lists); refusing deeper text before
  // parsing bounds the parser's recursion on hostile input.
  constexpr int kMaxProfileNesting = 8;
  TFA_RETURN_IF_ERROR(CheckJsonNesting(text, kMaxProfileNesting).WithContext(source_name));
  try {
    const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Status::Error(source_name + ": not valid JSON");
    DelegateProfile profile;
    profile.source = source_name;
    TFA_RETURN_IF_ERROR(ReadProfile(j, &profile).WithContext(source_name));
    return profile;
  } catch (const Json::exception& e) {
    return Status::Error(source_name + ": " + e.what());
  }
}

std::vector<std::string> BuiltinProfileNames() {
  std::vector<std::string> names;
  for (const BuiltinProfileSource& source : BuiltinProfileSources()) {
    names.emplace_back(source.name);
  }
  return names;
}

Status CheckClaimedOpNames(const DelegateProfile& profile, const Model& model) {
  if (profile.kind != ProfileKind::kOps) return Status::Ok();
  std::set<std::string_view> model_ops;
  for (const Subgraph& subgraph : model.subgraphs) {
    for (const Node& node : subgraph.nodes) model_ops.insert(node.op);
  }
  for (const std::string& op : profile.claimed_ops) {
    if (BuiltinCodeFromName(op) || model_ops.contains(op)) continue;
    std::vector<std::string_view> known = BuiltinOpNames();
    known.insert(known.end(), model_ops.begin(), model_ops.end());
    return Status::Error("--delegate " + profile.name + ": unknown op '" + op +
                         "', neither a builtin op nor an op of " + model.path +
                         DidYouMean(op, known));
  }
  return Status::Ok();
}

Result<DelegateProfile> ResolveDelegateProfile(const std::string& spec) {
  if (spec.starts_with("ops=")) return OpsProfile(spec);
  if (spec.starts_with("nodes=")) return NodesProfile(spec);
  for (const BuiltinProfileSource& source : BuiltinProfileSources()) {
    if (spec == source.name) {
      auto profile = ParseDelegateProfileJson(source.json, "built-in profile " + spec);
      if (profile.ok()) profile->trust = BuiltinProfileTrust(spec);
      return profile;
    }
  }
  std::error_code error;
  if (!std::filesystem::exists(spec, error)) {
    std::string names;
    for (const std::string& name : BuiltinProfileNames()) names += name + ", ";
    return Status::Error("--delegate " + spec + ": no such profile file, and not one of " + names +
                         "ops=A,B, nodes=i,j");
  }
  // Profiles are small; refuse anything that could not be one before reading it.
  auto bytes = ReadFileBytes(spec, kMaxProfileFileBytes);
  if (!bytes.ok()) return bytes.status();
  return ParseDelegateProfileJson(
      std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), spec);
}

}  // namespace tfa
