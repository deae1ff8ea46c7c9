#include "runtime/kernels/cpu/flexbuffer_map.h"

#include <flatbuffers/flexbuffers.h>

#include <limits>
#include <string>

namespace tfa::runtime {
namespace {

flexbuffers::Reference Lookup(std::span<const uint8_t> bytes, const char* key) {
  return flexbuffers::GetRoot(bytes.data(), bytes.size()).AsMap()[key];
}

Result<int32_t> ToInt32(const flexbuffers::Reference& value, const std::string& what) {
  if (value.IsInt()) {
    const int64_t v = value.AsInt64();
    if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max())
      return static_cast<int32_t>(v);
  } else if (value.IsUInt()) {
    const uint64_t v = value.AsUInt64();
    if (v <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
      return static_cast<int32_t>(v);
  } else {
    return Status::Error(what + " is not an integer");
  }
  return Status::Error(what + " does not fit int32");
}

template <typename Vector>
Result<std::vector<int32_t>> ToInt32s(const Vector& vector, const std::string& key) {
  std::vector<int32_t> values;
  for (size_t i = 0; i < vector.size(); ++i) {
    auto v = ToInt32(vector[i], "custom option '" + key + "' element " + std::to_string(i));
    if (!v.ok()) return v.status();
    values.push_back(*v);
  }
  return values;
}

}  // namespace

Result<FlexbufferMap> FlexbufferMap::Read(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Status::Error("custom options are empty, expected a flexbuffer map");
  if (!flexbuffers::VerifyBuffer(bytes.data(), bytes.size()))
    return Status::Error("custom options are not a well-formed flexbuffer");
  if (!flexbuffers::GetRoot(bytes.data(), bytes.size()).IsMap())
    return Status::Error("custom options are a flexbuffer but not a map");
  return FlexbufferMap(bytes);
}

bool FlexbufferMap::Has(const char* key) const { return !Lookup(bytes_, key).IsNull(); }

Result<int32_t> FlexbufferMap::Int(const char* key) const {
  const flexbuffers::Reference value = Lookup(bytes_, key);
  if (value.IsNull()) return Status::Error(std::string("custom option '") + key + "' is missing");
  return ToInt32(value, std::string("custom option '") + key + "'");
}

Result<int64_t> FlexbufferMap::AsInt64(const char* key) const {
  const flexbuffers::Reference value = Lookup(bytes_, key);
  if (value.IsNull()) return int64_t{0};
  if (value.IsInt()) return value.AsInt64();
  if (value.IsUInt()) {
    const uint64_t v = value.AsUInt64();
    if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return static_cast<int64_t>(v);
  } else if (value.IsFloat()) {
    // The range check keeps the conversion defined; 2^63 itself is out of range.
    const double v = value.AsDouble();
    if (v > -9.2233720368547758e18 && v < 9.2233720368547758e18) return static_cast<int64_t>(v);
  } else {
    return Status::Error(std::string("custom option '") + key + "' is not a number");
  }
  return Status::Error(std::string("custom option '") + key + "' does not fit int64");
}

Result<float> FlexbufferMap::Float(const char* key) const {
  const flexbuffers::Reference value = Lookup(bytes_, key);
  if (value.IsNull()) return Status::Error(std::string("custom option '") + key + "' is missing");
  if (!value.IsNumeric())
    return Status::Error(std::string("custom option '") + key + "' is not a number");
  return value.AsFloat();
}

Result<bool> FlexbufferMap::Bool(const char* key) const {
  const flexbuffers::Reference value = Lookup(bytes_, key);
  if (value.IsNull()) return Status::Error(std::string("custom option '") + key + "' is missing");
  if (!value.IsBool() && !value.IsNumeric())
    return Status::Error(std::string("custom option '") + key + "' is not a boolean");
  return value.AsBool();
}

Result<std::vector<int32_t>> FlexbufferMap::IntVector(const char* key) const {
  const flexbuffers::Reference value = Lookup(bytes_, key);
  if (value.IsNull()) return Status::Error(std::string("custom option '") + key + "' is missing");
  if (value.IsTypedVector()) return ToInt32s(value.AsTypedVector(), key);
  if (value.IsFixedTypedVector()) return ToInt32s(value.AsFixedTypedVector(), key);
  if (value.IsVector() && !value.IsMap()) return ToInt32s(value.AsVector(), key);
  return Status::Error(std::string("custom option '") + key + "' is not a vector");
}

}  // namespace tfa::runtime
