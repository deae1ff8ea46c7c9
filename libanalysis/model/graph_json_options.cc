#include "libanalysis/model/graph_json_options.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tfa::graph_json {

namespace {

constexpr Activation kActivations[] = {
    Activation::kNone, Activation::kRelu,    Activation::kReluN1To1, Activation::kRelu6,
    Activation::kTanh, Activation::kSignBit, Activation::kUnknown};
constexpr Padding kPaddings[] = {Padding::kSame, Padding::kValid, Padding::kUnknown};

}  // namespace

const char* PaddingName(Padding padding) {
  switch (padding) {
    case Padding::kSame:
      return "SAME";
    case Padding::kValid:
      return "VALID";
    case Padding::kUnknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

Status ReadOption(const json& v, const std::string& path, int32_t& out) {
  auto i =
      JsonInt(v, path, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  if (!i.ok()) return i.status();
  out = static_cast<int32_t>(*i);
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, uint64_t& out) {
  auto i = JsonInt(v, path, 0, std::numeric_limits<int64_t>::max());
  if (!i.ok()) return i.status();
  out = static_cast<uint64_t>(*i);
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, bool& out) {
  return JsonBool(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, float& out) {
  return JsonFloat(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, std::string& out) {
  return JsonString(v, path, out);
}
Status ReadOption(const json& v, const std::string& path, std::vector<int32_t>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    TFA_RETURN_IF_ERROR(ReadOption(v[i], path + "[" + std::to_string(i) + "]", out[i]));
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, std::vector<float>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0.0f);
  for (size_t i = 0; i < v.size(); ++i) {
    TFA_RETURN_IF_ERROR(ReadOption(v[i], path + "[" + std::to_string(i) + "]", out[i]));
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, std::vector<uint8_t>& out) {
  if (!v.is_array()) return Fail(path, "expected an array");
  out.assign(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    auto byte = JsonInt(v[i], path + "[" + std::to_string(i) + "]", 0, 255);
    if (!byte.ok()) return byte.status();
    out[i] = static_cast<uint8_t>(*byte);
  }
  return Status::Ok();
}
Status ReadOption(const json& v, const std::string& path, Activation& out) {
  std::string name;
  TFA_RETURN_IF_ERROR(JsonString(v, path, name));
  for (Activation a : kActivations) {
    if (name == ActivationName(a)) {
      out = a;
      return Status::Ok();
    }
  }
  return Fail(path, "unknown activation \"" + name + "\"");
}
Status ReadOption(const json& v, const std::string& path, Padding& out) {
  std::string name;
  TFA_RETURN_IF_ERROR(JsonString(v, path, name));
  for (Padding p : kPaddings) {
    if (name == PaddingName(p)) {
      out = p;
      return Status::Ok();
    }
  }
  return Fail(path, "unknown padding \"" + name + "\"");
}

Status ReadOptions(const json& v, const std::string& path, OpOptions& o) {
  if (!v.is_object()) return Fail(path, "expected an object");
  for (auto it = v.begin(); it != v.end(); ++it) {
    // Not structured bindings: clang 14 (the fuzz build) cannot capture those in a lambda.
    const std::string& key = it.key();
    const json& value = it.value();
    bool known = false;
    Status status = Status::Ok();
    VisitOptionFields(o, o, [&](const char* name, auto& field, auto&) {
      if (known || key != name) return;
      known = true;
      status = ReadOption(value, path + "." + key, field);
    });
    if (!known) return Fail(path + "." + key, "unknown option");
    TFA_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

ordered_json OptionJson(Activation a) { return ActivationName(a); }
ordered_json OptionJson(Padding p) { return PaddingName(p); }

}  // namespace tfa::graph_json
