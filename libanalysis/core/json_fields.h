// One reader for the fields of a JSON object, shared by every parser of JSON we are given (the
// gate's baselines, delegate profiles): each error names the field's path
// ("models[1].configs[0].arena_bytes: expected a non-negative integer"), and fields nobody asked
// about are refused, so a misspelt key never silently does nothing.
#ifndef LIBANALYSIS_CORE_JSON_FIELDS_H_
#define LIBANALYSIS_CORE_JSON_FIELDS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa {

class JsonFields {
 public:
  enum class Presence { kOptional, kRequired };

  // `path` names the object ("" for the top level).
  JsonFields(const nlohmann::json& object, std::string path);

  Status CheckObject() const;

  // The field, or nullptr when it is absent; either way it counts as known.
  const nlohmann::json* Find(const std::string& key);
  // The field, which must be present.
  [[nodiscard]] Result<const nlohmann::json*> Require(const std::string& key);
  // The field as an array; nullptr when it is absent and optional.
  [[nodiscard]] Result<const nlohmann::json*> Array(const std::string& key,
                                                    Presence presence = Presence::kOptional);

  // Typed reads. An absent optional field leaves *out as it is (its default).
  Status Read(const std::string& key, std::string* out, Presence presence = Presence::kOptional);
  Status Read(const std::string& key, bool* out, Presence presence = Presence::kOptional);
  // An integer in [min_value, INT32_MAX].
  Status Read(const std::string& key, int32_t* out, int64_t min_value,
              Presence presence = Presence::kOptional);
  Status Read(const std::string& key, uint64_t* out, Presence presence = Presence::kOptional);
  // A non-negative number.
  Status Read(const std::string& key, double* out, Presence presence = Presence::kOptional);
  Status Read(const std::string& key, std::vector<std::string>* out,
              Presence presence = Presence::kOptional);

  // Refuses every field no Find/Require/Read asked about.
  Status CheckNoOtherFields() const;

  std::string Path(const std::string& key) const;
  // "PATH.key[i]"
  std::string Path(const std::string& key, size_t index) const;
  // "PATH: what" (or "top level: what").
  static Status Error(const std::string& path, const std::string& what);

 private:
  const nlohmann::json& object_;
  std::string path_;
  std::set<std::string> known_;
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_JSON_FIELDS_H_
