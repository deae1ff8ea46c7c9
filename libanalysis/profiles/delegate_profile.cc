#include "libanalysis/profiles/delegate_profile.h"

#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "libanalysis/core/closest_name.h"
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

// Reads the JSON fields of one profile. Every accessor reports the field's path on error, so a
// malformed profile is one line naming the file and the field.
class ProfileReader {
 public:
  explicit ProfileReader(std::string source_name) : source_name_(std::move(source_name)) {}

  Status Error(const std::string& where, const std::string& what) const {
    return Status::Error(source_name_ + ": " + where + ": " + what);
  }

  Status ReadString(const Json& object, const char* key, const std::string& where,
                    std::string* out) const {
    if (!object.contains(key)) return Status::Ok();
    const Json& value = object.at(key);
    if (!value.is_string()) return Error(where + "." + key, "expected a string");
    *out = value.get<std::string>();
    return Status::Ok();
  }

  Status ReadBool(const Json& object, const char* key, const std::string& where, bool* out) const {
    if (!object.contains(key)) return Status::Ok();
    const Json& value = object.at(key);
    if (!value.is_boolean()) return Error(where + "." + key, "expected true or false");
    *out = value.get<bool>();
    return Status::Ok();
  }

  Status ReadInt(const Json& object, const char* key, const std::string& where, int64_t min_value,
                 int32_t* out) const {
    if (!object.contains(key)) return Status::Ok();
    const Json& value = object.at(key);
    if (!value.is_number_integer()) return Error(where + "." + key, "expected an integer");
    const int64_t v = value.get<int64_t>();
    if (v < min_value || v > std::numeric_limits<int32_t>::max()) {
      return Error(where + "." + key, "out of range: " + std::to_string(v));
    }
    *out = static_cast<int32_t>(v);
    return Status::Ok();
  }

  Status ReadNumber(const Json& object, const char* key, const std::string& where,
                    double* out) const {
    if (!object.contains(key)) return Status::Ok();
    const Json& value = object.at(key);
    if (!value.is_number() || value.get<double>() < 0) {
      return Error(where + "." + key, "expected a non-negative number");
    }
    *out = value.get<double>();
    return Status::Ok();
  }

  Status ReadStrings(const Json& object, const char* key, const std::string& where,
                     std::vector<std::string>* out) const {
    if (!object.contains(key)) return Status::Ok();
    const Json& value = object.at(key);
    if (!value.is_array()) return Error(where + "." + key, "expected an array of strings");
    for (const Json& item : value) {
      if (!item.is_string()) return Error(where + "." + key, "expected an array of strings");
      out->push_back(item.get<std::string>());
    }
    return Status::Ok();
  }

  Status ReadTypes(const Json& object, const char* key, const std::string& where,
                   std::vector<TensorType>* out) const {
    std::vector<std::string> names;
    TFA_RETURN_IF_ERROR(ReadStrings(object, key, where, &names));
    for (const std::string& name : names) {
      const std::optional<TensorType> type = TensorTypeFromName(name);
      if (!type) return Error(where + "." + key, "unknown tensor type '" + name + "'");
      out->push_back(*type);
    }
    return Status::Ok();
  }

  Status ReadActivations(const Json& object, const char* key, const std::string& where,
                         std::vector<Activation>* out) const {
    std::vector<std::string> names;
    TFA_RETURN_IF_ERROR(ReadStrings(object, key, where, &names));
    for (const std::string& name : names) {
      bool found = false;
      for (Activation a : {Activation::kNone, Activation::kRelu, Activation::kReluN1To1,
                           Activation::kRelu6, Activation::kTanh, Activation::kSignBit}) {
        if (name == ActivationName(a)) {
          out->push_back(a);
          found = true;
        }
      }
      if (!found) return Error(where + "." + key, "unknown fused activation '" + name + "'");
    }
    return Status::Ok();
  }

  // An integer option: default, min and max, with min <= default <= max.
  Status ReadIntOption(const Json& value, const std::string& where, ProfileOption* option) const {
    option->kind = ProfileOption::Kind::kInt;
    for (const char* key : {"default", "min", "max"}) {
      if (!value.contains(key) || !value.at(key).is_number_integer()) {
        return Error(where + "." + key, "expected an integer");
      }
    }
    option->number = value.at("default").get<int64_t>();
    option->min = value.at("min").get<int64_t>();
    option->max = value.at("max").get<int64_t>();
    if (option->min > option->number || option->number > option->max) {
      return Error(where, "default " + std::to_string(option->number) + " outside [" +
                              std::to_string(option->min) + ", " + std::to_string(option->max) +
                              "]");
    }
    return Status::Ok();
  }

  Status ReadChecks(const Json& object, const std::string& where, const char* key,
                    std::vector<std::string>* out) const {
    TFA_RETURN_IF_ERROR(ReadStrings(object, key, where, out));
    for (const std::string& name : *out) {
      if (!FindRuleCheck(name)) return Error(where + "." + key, "unknown check '" + name + "'");
    }
    return Status::Ok();
  }

  Status ReadRule(const Json& j, const std::string& where, OpRule* rule) const {
    if (!j.is_object()) return Error(where, "expected an object");
    static const char* const kKeys[] = {"op",
                                        "custom",
                                        "max_version",
                                        "requires_option",
                                        "input_types",
                                        "output_types",
                                        "min_rank",
                                        "max_rank",
                                        "fused_activation_in",
                                        "constant_weights",
                                        "broadcast",
                                        "max_stride",
                                        "checks",
                                        "source",
                                        "note"};
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (const char* k : kKeys) known = known || key == k;
      if (!known) return Error(where, "unknown field '" + key + "'");
    }
    TFA_RETURN_IF_ERROR(ReadString(j, "op", where, &rule->op));
    TFA_RETURN_IF_ERROR(ReadBool(j, "custom", where, &rule->custom));
    if (rule->op.empty()) return Error(where, "missing \"op\"");
    if (!rule->custom && !BuiltinCodeFromName(rule->op)) {
      return Error(where, UnknownBuiltinOpMessage(rule->op) + "; custom ops need \"custom\": true");
    }
    TFA_RETURN_IF_ERROR(ReadInt(j, "max_version", where, 0, &rule->max_version));
    TFA_RETURN_IF_ERROR(ReadString(j, "requires_option", where, &rule->requires_option));
    TFA_RETURN_IF_ERROR(ReadTypes(j, "input_types", where, &rule->input_types));
    TFA_RETURN_IF_ERROR(ReadTypes(j, "output_types", where, &rule->output_types));
    TFA_RETURN_IF_ERROR(ReadInt(j, "min_rank", where, -1, &rule->min_rank));
    TFA_RETURN_IF_ERROR(ReadInt(j, "max_rank", where, -1, &rule->max_rank));
    TFA_RETURN_IF_ERROR(
        ReadActivations(j, "fused_activation_in", where, &rule->fused_activation_in));
    TFA_RETURN_IF_ERROR(ReadBool(j, "constant_weights", where, &rule->constant_weights));
    TFA_RETURN_IF_ERROR(ReadBool(j, "broadcast", where, &rule->allow_broadcast));
    TFA_RETURN_IF_ERROR(ReadInt(j, "max_stride", where, 0, &rule->max_stride));
    TFA_RETURN_IF_ERROR(ReadChecks(j, where, "checks", &rule->checks));
    return ReadString(j, "source", where, &rule->source);
  }

  Status ReadProfile(const Json& j, DelegateProfile* profile) const {
    if (!j.is_object()) return Error("profile", "expected a JSON object");
    if (!j.contains("format") || j.at("format") != std::string(kProfileFormat)) {
      return Error("format", "expected \"" + std::string(kProfileFormat) + "\"");
    }
    TFA_RETURN_IF_ERROR(ReadString(j, "name", "profile", &profile->name));
    if (profile->name.empty()) return Error("name", "missing");
    TFA_RETURN_IF_ERROR(ReadString(j, "description", "profile", &profile->description));
    TFA_RETURN_IF_ERROR(ReadString(j, "source", "profile", &profile->source));
    TFA_RETURN_IF_ERROR(ReadString(j, "unlisted_reason", "profile", &profile->unlisted_reason));
    TFA_RETURN_IF_ERROR(
        ReadString(j, "unlisted_custom_reason", "profile", &profile->unlisted_custom_reason));
    TFA_RETURN_IF_ERROR(ReadString(j, "version_reason", "profile", &profile->version_reason));
    TFA_RETURN_IF_ERROR(ReadChecks(j, "profile", "node_checks", &profile->node_checks));

    if (j.contains("options")) {
      const Json& options = j.at("options");
      if (!options.is_object()) return Error("options", "expected an object");
      for (const auto& [key, value] : options.items()) {
        const std::string where = "options." + key;
        ProfileOption option;
        if (!value.is_object() || !value.contains("default")) {
          return Error(where, "expected {\"default\": true|false|N, \"description\": ...}");
        }
        if (value.at("default").is_number_integer()) {
          TFA_RETURN_IF_ERROR(ReadIntOption(value, where, &option));
        } else {
          TFA_RETURN_IF_ERROR(ReadBool(value, "default", where, &option.value));
        }
        TFA_RETURN_IF_ERROR(ReadString(value, "description", where, &option.description));
        profile->options[key] = std::move(option);
      }
    }
    if (j.contains("ops_excluded_unless")) {
      const Json& excluded = j.at("ops_excluded_unless");
      if (!excluded.is_object()) return Error("ops_excluded_unless", "expected an object");
      for (const auto& [key, value] : excluded.items()) {
        if (!profile->options.contains(key)) {
          return Error("ops_excluded_unless." + key, "not a declared option");
        }
        TFA_RETURN_IF_ERROR(ReadStrings(excluded, key.c_str(), "ops_excluded_unless",
                                        &profile->ops_excluded_unless[key]));
      }
    }

    if (!j.contains("ops") || !j.at("ops").is_array()) {
      return Error("ops", "expected an array of op rules");
    }
    const Json& ops = j.at("ops");
    for (size_t i = 0; i < ops.size(); ++i) {
      OpRule rule;
      TFA_RETURN_IF_ERROR(ReadRule(ops[i], "ops[" + std::to_string(i) + "]", &rule));
      if (!rule.requires_option.empty() && !profile->options.contains(rule.requires_option)) {
        return Error("ops[" + std::to_string(i) + "].requires_option",
                     "'" + rule.requires_option + "' is not a declared option");
      }
      Node probe;
      probe.kind = rule.custom ? NodeKind::kCustom : NodeKind::kBuiltin;
      probe.op = rule.op;
      if (profile->FindRule(probe)) {
        return Error("ops[" + std::to_string(i) + "]", "second rule for " + rule.op);
      }
      profile->ops.push_back(std::move(rule));
    }

    if (j.contains("partition")) {
      const Json& p = j.at("partition");
      if (!p.is_object()) return Error("partition", "expected an object");
      PartitionSettings& s = profile->partition;
      TFA_RETURN_IF_ERROR(ReadInt(p, "max_partitions", "partition",
                                  std::numeric_limits<int32_t>::min(), &s.max_partitions));
      TFA_RETURN_IF_ERROR(
          ReadInt(p, "min_nodes_per_partition", "partition", 0, &s.min_nodes_per_partition));
      TFA_RETURN_IF_ERROR(ReadBool(p, "greedy", "partition", &s.greedy));
      TFA_RETURN_IF_ERROR(ReadBool(p, "fp16_helper", "partition", &s.fp16_helper));
      TFA_RETURN_IF_ERROR(ReadBool(p, "nonpositive_max_partitions_means_one", "partition",
                                   &s.nonpositive_max_partitions_means_one));
      TFA_RETURN_IF_ERROR(ReadBool(p, "fp16_helper_with_fp16_weights", "partition",
                                   &s.fp16_helper_with_fp16_weights));
      TFA_RETURN_IF_ERROR(ReadBool(p, "nonpositive_max_partitions_means_all", "partition",
                                   &s.nonpositive_max_partitions_means_all));
      TFA_RETURN_IF_ERROR(
          ReadString(p, "max_partitions_option", "partition", &s.max_partitions_option));
      if (!s.max_partitions_option.empty()) {
        auto option = profile->options.find(s.max_partitions_option);
        if (option == profile->options.end() || option->second.kind != ProfileOption::Kind::kInt) {
          return Error("partition.max_partitions_option",
                       "'" + s.max_partitions_option + "' is not a declared integer option");
        }
        s.max_partitions = static_cast<int32_t>(option->second.number);
      }
      TFA_RETURN_IF_ERROR(ReadBool(p, "static_unpack_follows_consumers", "partition",
                                   &s.static_unpack_follows_consumers));
    }
    if (j.contains("kernel")) {
      const Json& k = j.at("kernel");
      if (!k.is_object()) return Error("kernel", "expected an object");
      TFA_RETURN_IF_ERROR(
          ReadString(k, "delegate_kernel", "kernel", &profile->kernel.delegate_kernel));
      if (!profile->kernel.delegate_kernel.empty() && profile->kernel.delegate_kernel != "gpu") {
        return Error("kernel.delegate_kernel", "expected \"gpu\" or absent");
      }
      TFA_RETURN_IF_ERROR(ReadBool(k, "prepare_before_delegation", "kernel",
                                   &profile->kernel.prepare_before_delegation));
    }
    if (j.contains("transfer")) {
      const Json& t = j.at("transfer");
      if (!t.is_object()) return Error("transfer", "expected an object");
      TFA_RETURN_IF_ERROR(ReadNumber(t, "bandwidth_bytes_per_second", "transfer",
                                     &profile->transfer.bandwidth_bytes_per_second));
      TFA_RETURN_IF_ERROR(ReadNumber(t, "transition_latency_seconds", "transfer",
                                     &profile->transfer.transition_latency_seconds));
    }
    return Status::Ok();
  }

 private:
  std::string source_name_;
};

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
  if (name == "nnapi" || name == "add-sub") return ProfileTrust::kTranscribed;
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
    if (rule.custom == custom && rule.op == node.op) return &rule;
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
    const ProfileReader reader(source_name);
    TFA_RETURN_IF_ERROR(reader.ReadProfile(j, &profile));
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
