// Tensor element types with the values of the .tflite schema's TensorType enum, and the element
// sizes TfLite uses to size tensor data.
#ifndef LIBANALYSIS_MODEL_TENSOR_TYPE_H_
#define LIBANALYSIS_MODEL_TENSOR_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>

namespace tfa {

enum class TensorType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUInt8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUInt64 = 12,
  kResource = 13,
  kVariant = 14,
  kUInt32 = 15,
  kUInt16 = 16,
  kInt4 = 17,
  kBFloat16 = 18,
  kInt2 = 19,
  kUInt4 = 20,
};

// Upstream's lower-case names as TfLiteTypeGetName prints them in tools ("float32", "int8").
const char* TensorTypeName(TensorType type);
std::optional<TensorType> TensorTypeFromName(const std::string& name);
std::optional<TensorType> TensorTypeFromSchemaValue(int value);

// Bytes per element, or nullopt for types whose size is not a function of the shape
// (string, resource, variant).
std::optional<uint32_t> ElementSize(TensorType type);

// Bytes of `elements` values of `type` as tflite/util.cc BytesRequired computes them: the element
// count times ElementSize, except that sub-byte types are packed (int4 and uint4 two to a byte,
// int2 four), rounded up. Nullopt for types ElementSize does not size, or on overflow.
std::optional<uint64_t> DataBytes(TensorType type, uint64_t elements);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_TENSOR_TYPE_H_
