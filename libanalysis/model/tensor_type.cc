#include "libanalysis/model/tensor_type.h"

#include <array>
#include <utility>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

struct TypeInfo {
  TensorType type;
  const char* name;
  uint32_t element_size;  // 0 = not shape-determined
};

// Element sizes follow tflite/util.cc GetSizeOfType; bool is sizeof(bool) == 1. The sub-byte types
// count 1 there too; BytesRequired then packs them (DataBytes).
constexpr std::array<TypeInfo, 21> kTypes = {{
    {TensorType::kFloat32, "float32", 4},     {TensorType::kFloat16, "float16", 2},
    {TensorType::kInt32, "int32", 4},         {TensorType::kUInt8, "uint8", 1},
    {TensorType::kInt64, "int64", 8},         {TensorType::kString, "string", 0},
    {TensorType::kBool, "bool", 1},           {TensorType::kInt16, "int16", 2},
    {TensorType::kComplex64, "complex64", 8}, {TensorType::kInt8, "int8", 1},
    {TensorType::kFloat64, "float64", 8},     {TensorType::kComplex128, "complex128", 16},
    {TensorType::kUInt64, "uint64", 8},       {TensorType::kResource, "resource", 0},
    {TensorType::kVariant, "variant", 0},     {TensorType::kUInt32, "uint32", 4},
    {TensorType::kUInt16, "uint16", 2},       {TensorType::kInt4, "int4", 1},
    {TensorType::kBFloat16, "bfloat16", 2},   {TensorType::kInt2, "int2", 1},
    {TensorType::kUInt4, "uint4", 1},
}};

const TypeInfo* Find(TensorType type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

}  // namespace

const char* TensorTypeName(TensorType type) {
  const TypeInfo* info = Find(type);
  return info ? info->name : "unknown";
}

std::optional<TensorType> TensorTypeFromName(const std::string& name) {
  for (const TypeInfo& info : kTypes) {
    if (name == info.name) return info.type;
  }
  return std::nullopt;
}

std::optional<TensorType> TensorTypeFromSchemaValue(int value) {
  if (value < 0 || value >= static_cast<int>(kTypes.size())) return std::nullopt;
  return static_cast<TensorType>(value);
}

std::optional<uint32_t> ElementSize(TensorType type) {
  const TypeInfo* info = Find(type);
  if (!info || info->element_size == 0) return std::nullopt;
  return info->element_size;
}

std::optional<uint64_t> DataBytes(TensorType type, uint64_t elements) {
  const auto element_size = ElementSize(type);
  if (!element_size) return std::nullopt;
  if (type == TensorType::kInt4 || type == TensorType::kUInt4) return elements / 2 + elements % 2;
  if (type == TensorType::kInt2) return elements / 4 + (elements % 4 != 0 ? 1 : 0);
  return CheckedMul(elements, *element_size);
}

}  // namespace tfa
