#include "libanalysis/tflm/kernel_prepare_check_helpers.h"

#include <algorithm>
#include <cctype>

namespace tfa::tflm::prepare_checks {

const Tensor* At(const Subgraph& subgraph, const IdList& ids, size_t index) {
  if (index >= ids.size()) return nullptr;
  const int32_t id = ids[index];
  if (id < 0 || static_cast<size_t>(id) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[id];
}

// TfLiteTypeGetName: the upper-case names TFLM's messages print ("FLOAT32", "INT4").
std::string TypeName(TensorType type) {
  std::string name = TensorTypeName(type);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// The TfLiteType value (c_api_types.h) TF_LITE_ENSURE_EQ prints for a type: the schema's
// numbering shifted by kTfLiteNoType, with FLOAT16 and FLOAT64 moved.
int TfLiteTypeValue(TensorType type) {
  switch (type) {
    case T::kFloat32:
      return 1;
    case T::kFloat16:
      return 10;
    case T::kFloat64:
      return 11;
    case T::kComplex128:
      return 12;
    default:
      break;
  }
  const int schema = static_cast<int>(type);
  return schema <= static_cast<int>(T::kInt8) ? schema : schema + 1;
}

bool Is(const Tensor* tensor, TensorType type) { return tensor != nullptr && tensor->type == type; }

// micro_allocator.cc InitializeTfLiteTensorFromFlatbuffer: a tensor is affine-quantized when the
// model gives it both scales and zero points.
bool Affine(const Tensor* tensor) {
  return tensor != nullptr && !tensor->quantization->scale.empty() &&
         !tensor->quantization->zero_point.empty();
}

// TfLiteTensor::params: the first scale and zero point, 0 without quantization.
float Scale(const Tensor* tensor) { return Affine(tensor) ? tensor->quantization->scale[0] : 0.0f; }
int64_t ZeroPoint(const Tensor* tensor) {
  return Affine(tensor) ? tensor->quantization->zero_point[0] : 0;
}

int64_t Dim(const Tensor* tensor, size_t axis) {
  if (tensor == nullptr || axis >= tensor->shape.size()) return 0;
  return tensor->shape[axis];
}
int64_t Rank(const Tensor* tensor) { return tensor == nullptr ? 0 : tensor->shape.size(); }

std::string Failure(std::string_view tflm_line, std::string_view file, std::string_view why) {
  std::string out = std::string(tflm_line) + " (" + std::string(file);
  if (!why.empty()) out += ": " + std::string(why);
  return out + ")";
}

// TF_LITE_ENSURE_EQ's line for two integers.
std::string NotEqual(std::string_view a, std::string_view b, int64_t x, int64_t y) {
  return std::string(a) + " != " + std::string(b) + " (" + std::to_string(x) +
         " != " + std::to_string(y) + ")";
}

// TF_LITE_ENSURE_EQ on two TfLiteTypes: the line prints their enum values.
std::string TypesNotEqual(std::string_view a, std::string_view b, TensorType x, TensorType y) {
  return NotEqual(a, b, TfLiteTypeValue(x), TfLiteTypeValue(y));
}

// TF_LITE_ENSURE_TYPES_EQ: the line prints their names.
std::string TypeNamesNotEqual(std::string_view a, std::string_view b, TensorType x, TensorType y) {
  return std::string(a) + " != " + std::string(b) + " (" + TypeName(x) + " != " + TypeName(y) + ")";
}

// TF_LITE_ENSURE_EQ on NumInputs(node), then on NumOutputs(node): the line of the first that
// fails.
std::optional<std::string> CountFailure(const Node& node, size_t inputs, size_t outputs,
                                        std::string_view file) {
  if (node.inputs.size() != inputs) {
    return Failure(NotEqual("NumInputs(node)", std::to_string(inputs), node.inputs.size(),
                            static_cast<int64_t>(inputs)),
                   file);
  }
  if (node.outputs.size() != outputs) {
    return Failure(NotEqual("NumOutputs(node)", std::to_string(outputs), node.outputs.size(),
                            static_cast<int64_t>(outputs)),
                   file);
  }
  return std::nullopt;
}

std::string Types(std::string_view first, const Tensor* a, std::string_view second,
                  const Tensor* b) {
  return std::string(first) + " " + TypeName(a->type) + ", " + std::string(second) + " " +
         TypeName(b->type);
}

std::optional<std::string> BatchMatMulShapeFailure(const Node& node, const Tensor* lhs,
                                                   const Tensor* rhs, const Tensor* output,
                                                   std::string_view file,
                                                   std::string_view output_rank_file) {
  // RuntimeShape::ExtendedShape: leading 1s up to the larger rank.
  const int64_t rank = std::max(Rank(lhs), Rank(rhs));
  const auto extended = [rank](const Tensor* t, int64_t axis) {
    const int64_t shift = rank - Rank(t);
    return axis < shift ? int64_t{1} : Dim(t, static_cast<size_t>(axis - shift));
  };
  for (int64_t i = 0; i < rank - 2; ++i) {
    const int64_t lhs_dim = extended(lhs, i);
    const int64_t rhs_dim = extended(rhs, i);
    if (lhs_dim != rhs_dim && lhs_dim != 1 && rhs_dim != 1) {
      return Failure(NotEqual("rhs_dim", "1", rhs_dim, 1), file);
    }
  }
  const int64_t accum_lhs = extended(lhs, node.options->adj_x ? rank - 2 : rank - 1);
  const int64_t accum_rhs = extended(rhs, node.options->adj_y ? rank - 1 : rank - 2);
  if (accum_lhs != accum_rhs) {
    return Failure(NotEqual("accum_dim_lhs", "accum_dim_rhs", accum_lhs, accum_rhs), file);
  }
  if (rank > Rank(output)) {
    return Failure("output_rank <= NumDimensions(output) was not true.", output_rank_file);
  }
  return std::nullopt;
}

}  // namespace tfa::tflm::prepare_checks
