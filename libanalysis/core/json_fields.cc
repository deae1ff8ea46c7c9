#include "libanalysis/core/json_fields.h"

#include <limits>
#include <utility>

namespace tfa {

using Json = nlohmann::json;

JsonFields::JsonFields(const Json& object, std::string path)
    : object_(object), path_(std::move(path)) {}

Status JsonFields::CheckObject() const {
  if (!object_.is_object()) return Error(path_, "expected an object");
  return Status::Ok();
}

const Json* JsonFields::Find(const std::string& key) {
  known_.insert(key);
  if (!object_.is_object()) return nullptr;
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

Result<const Json*> JsonFields::Require(const std::string& key) {
  const Json* field = Find(key);
  if (field == nullptr) return Error(Path(key), "missing");
  return field;
}

Result<const Json*> JsonFields::Array(const std::string& key, Presence presence) {
  const Json* field = Find(key);
  if (field == nullptr) {
    if (presence == Presence::kRequired) return Error(Path(key), "missing");
    return field;
  }
  if (!field->is_array()) return Error(Path(key), "expected an array");
  return field;
}

namespace {

// The field when present; nullptr when absent and optional; an error when absent and required.
Result<const Json*> Lookup(JsonFields& fields, const std::string& key,
                           JsonFields::Presence presence) {
  if (presence == JsonFields::Presence::kRequired) return fields.Require(key);
  return fields.Find(key);
}

}  // namespace

Status JsonFields::Read(const std::string& key, std::string* out, Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_string()) return Error(Path(key), "expected a string");
  *out = field->get<std::string>();
  return Status::Ok();
}

Status JsonFields::Read(const std::string& key, bool* out, Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_boolean()) return Error(Path(key), "expected true or false");
  *out = field->get<bool>();
  return Status::Ok();
}

Status JsonFields::Read(const std::string& key, int32_t* out, int64_t min_value,
                        Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_number_integer()) return Error(Path(key), "expected an integer");
  if (field->is_number_unsigned() &&
      field->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    return Error(Path(key), "out of range: " + std::to_string(field->get<uint64_t>()));
  }
  const int64_t value = field->get<int64_t>();
  if (value < min_value || value > std::numeric_limits<int32_t>::max()) {
    return Error(Path(key), "out of range: " + std::to_string(value));
  }
  *out = static_cast<int32_t>(value);
  return Status::Ok();
}

Status JsonFields::Read(const std::string& key, uint64_t* out, Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_number_unsigned()) return Error(Path(key), "expected a non-negative integer");
  *out = field->get<uint64_t>();
  return Status::Ok();
}

Status JsonFields::Read(const std::string& key, double* out, Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_number() || field->get<double>() < 0) {
    return Error(Path(key), "expected a non-negative number");
  }
  *out = field->get<double>();
  return Status::Ok();
}

Status JsonFields::Read(const std::string& key, std::vector<std::string>* out, Presence presence) {
  auto found = Lookup(*this, key, presence);
  if (!found.ok()) return found.status();
  const Json* field = *found;
  if (field == nullptr) return Status::Ok();
  if (!field->is_array()) return Error(Path(key), "expected an array of strings");
  for (const Json& item : *field) {
    if (!item.is_string()) return Error(Path(key), "expected an array of strings");
    out->push_back(item.get<std::string>());
  }
  return Status::Ok();
}

Status JsonFields::CheckNoOtherFields() const {
  if (!object_.is_object()) return Status::Ok();
  for (const auto& [key, value] : object_.items()) {
    if (!known_.count(key)) return Error(Path(key), "unknown field");
  }
  return Status::Ok();
}

std::string JsonFields::Path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string JsonFields::Path(const std::string& key, size_t index) const {
  return Path(key) + "[" + std::to_string(index) + "]";
}

Status JsonFields::Error(const std::string& path, const std::string& what) {
  return Status::Error((path.empty() ? std::string("top level") : path) + ": " + what);
}

}  // namespace tfa
