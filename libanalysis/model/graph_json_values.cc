#include "libanalysis/model/graph_json_values.h"

#include <cmath>
#include <limits>
#include <utility>

namespace tfa::graph_json {

namespace {

Status RangeError(const std::string& path, int64_t v, int64_t min, int64_t max) {
  return Fail(path, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]");
}

}  // namespace

Status Fail(const std::string& path, const std::string& reason) {
  return Status::Error(path + ": " + reason);
}

// The value at `path` + `member` as an integer in [min, max]. The path is joined only for an
// error: a million-node file checks millions of values.
Result<int64_t> Int(const Value& v, const std::string& path, std::string_view member, int64_t min,
                    int64_t max) {
  const auto where = [&] { return path + std::string(member); };
  if (!v.is_integer()) return Fail(where(), "expected an integer");
  int64_t i = v.integer;
  if (v.kind == Value::Kind::kUnsigned) {
    if (v.unsigned_integer > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(where(), "integer out of range");
    }
    i = static_cast<int64_t>(v.unsigned_integer);
  }
  if (i < min || i > max) return RangeError(where(), i, min, max);
  return i;
}

// The list under `key` of the object at `path`, each element in [min, max] (min >= -1 and
// max <= INT32_MAX, so an element that did not fit in int32 is out of range too). A view of
// `list`'s values, which the caller copies into its graph: the list keeps its storage for the
// next object's, so a million nodes' lists cost no allocation here.
Result<std::span<const int32_t>> IntList(const IntListValue& list, const char* key,
                                         const std::string& path, int64_t min, int64_t max,
                                         bool required) {
  if (list.kind == Value::Kind::kAbsent) {
    if (required) return Fail(path, std::string("missing \"") + key + "\"");
    return std::span<const int32_t>();
  }
  // Appended piece by piece: GCC 12's -Wrestrict misfires on a literal + std::string temporary
  // at -O3 (GCC bug 105329), which Release builds make an error.
  const auto element = [&](size_t i) {
    std::string text = ".";
    text += key;
    text += '[';
    text += std::to_string(i);
    text += ']';
    return text;
  };
  if (list.kind != Value::Kind::kArray) return Fail(path + "." + key, "expected an array");
  for (size_t i = 0; i < list.values.size(); ++i) {
    if (list.values[i] < min || list.values[i] > max) {
      return RangeError(path + element(i), list.values[i], min, max);
    }
  }
  if (list.first_unfit) {
    return Int(*list.first_unfit, path, element(list.values.size()), min, max).status();
  }
  return std::span<const int32_t>(list.values);
}

json ToJson(Value&& v) {
  switch (v.kind) {
    case Value::Kind::kBool:
      return v.boolean;
    case Value::Kind::kInt:
      return v.integer;
    case Value::Kind::kUnsigned:
      return v.unsigned_integer;
    case Value::Kind::kFloat:
      return v.number;
    case Value::Kind::kString:
      return std::move(v.text);
    default:
      return nullptr;
  }
}

Result<int64_t> JsonInt(const json& v, const std::string& path, int64_t min, int64_t max) {
  if (!v.is_number_integer()) return Fail(path, "expected an integer");
  int64_t i = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(path, "integer out of range");
    }
    i = static_cast<int64_t>(u);
  } else {
    i = v.get<int64_t>();
  }
  if (i < min || i > max) return RangeError(path, i, min, max);
  return i;
}

Status JsonFloat(const json& v, const std::string& path, float& out) {
  if (!v.is_number()) return Fail(path, "expected a number");
  const double d = v.get<double>();
  if (std::fabs(d) > std::numeric_limits<float>::max()) return Fail(path, "out of float range");
  out = static_cast<float>(d);
  return Status::Ok();
}

Status JsonBool(const json& v, const std::string& path, bool& out) {
  if (!v.is_boolean()) return Fail(path, "expected a boolean");
  out = v.get<bool>();
  return Status::Ok();
}

Status JsonString(const json& v, const std::string& path, std::string& out) {
  if (!v.is_string()) return Fail(path, "expected a string");
  out = v.get<std::string>();
  return Status::Ok();
}

}  // namespace tfa::graph_json
