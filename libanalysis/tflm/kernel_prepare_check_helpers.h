// What TFLite Micro's kernels print when Prepare fails, and the tensor reads their checks share
// (kernel_prepare_checks.cc and its per-family files): TF_LITE_ENSURE_EQ's and
// TF_LITE_ENSURE_TYPES_EQ's lines, TfLiteTypeGetName's names, TfLiteTensor::params.
#ifndef LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECK_HELPERS_H_
#define LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECK_HELPERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/model/graph.h"
#include "libanalysis/model/tensor_type.h"

namespace tfa::tflm::prepare_checks {

using T = TensorType;

// The tensor at `index` of `ids`, or nullptr where the node has none or names no tensor.
const Tensor* At(const Subgraph& subgraph, const IdList& ids, size_t index);
// TfLiteTypeGetName: the upper-case names TFLM's messages print ("FLOAT32", "INT4").
std::string TypeName(TensorType type);
// The TfLiteType value (c_api_types.h) TF_LITE_ENSURE_EQ prints for a type.
int TfLiteTypeValue(TensorType type);
bool Is(const Tensor* tensor, TensorType type);
// Affine-quantized: the model gives the tensor both scales and zero points.
bool Affine(const Tensor* tensor);
// TfLiteTensor::params: the first scale and zero point, 0 without quantization.
float Scale(const Tensor* tensor);
int64_t ZeroPoint(const Tensor* tensor);
int64_t Dim(const Tensor* tensor, size_t axis);  // 0 past the rank
int64_t Rank(const Tensor* tensor);
// TFLM's line, then the kernel file and why: "LINE (file.cc: why)".
std::string Failure(std::string_view tflm_line, std::string_view file, std::string_view why = {});
// TF_LITE_ENSURE_EQ's line for two integers.
std::string NotEqual(std::string_view a, std::string_view b, int64_t x, int64_t y);
// TF_LITE_ENSURE_EQ on two TfLiteTypes: the line prints their enum values.
std::string TypesNotEqual(std::string_view a, std::string_view b, TensorType x, TensorType y);
// TF_LITE_ENSURE_TYPES_EQ: the line prints their names.
std::string TypeNamesNotEqual(std::string_view a, std::string_view b, TensorType x, TensorType y);
// TF_LITE_ENSURE_EQ on NumInputs(node), then on NumOutputs(node): the line of the first that
// fails.
std::optional<std::string> CountFailure(const Node& node, size_t inputs, size_t outputs,
                                        std::string_view file);
// "first TYPE, second TYPE" for a refusal's why.
std::string Types(std::string_view first, const Tensor* a, std::string_view second,
                  const Tensor* b);

// BATCH_MATMUL's shape checks after the rank checks, shared by the reference kernel and
// CMSIS-NN's port: batch dimensions that broadcast (leading 1s up to the larger rank), equal
// accumulation depths after adj_x / adj_y, and an output of at least that rank (the last check's
// line is in `output_rank_file`).
std::optional<std::string> BatchMatMulShapeFailure(const Node& node, const Tensor* lhs,
                                                   const Tensor* rhs, const Tensor* output,
                                                   std::string_view file,
                                                   std::string_view output_rank_file);

}  // namespace tfa::tflm::prepare_checks

#endif  // LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECK_HELPERS_H_
