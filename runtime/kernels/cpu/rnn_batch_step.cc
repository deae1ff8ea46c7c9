#include "runtime/kernels/cpu/rnn_batch_step.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/kernels/cpu/hybrid_math.h"

namespace tfa::runtime {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrix = Eigen::Map<const RowMajor>;
using StridedMatrix = Eigen::Map<RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;

// tensor_utils.h ApplyActivationToVector, element by element with upstream's argument order (so
// a NaN comes out as upstream's does).
float Activate(Activation activation, float x) {
  switch (activation) {
    case Activation::kRelu:
      return std::max(0.0f, x);
    case Activation::kReluN1To1:
      return std::max(-1.0f, std::min(x, 1.0f));
    case Activation::kRelu6:
      return std::max(0.0f, std::min(x, 6.0f));
    case Activation::kTanh:
      return std::tanh(x);
    case Activation::kSignBit:
      return std::signbit(x) ? 1.0f : 0.0f;
    case Activation::kNone:
    case Activation::kUnknown:  // refused at Prepare
      break;
  }
  return x;
}

// result[b][r] += weights[r] . operand_b, upstream's PortableMatrixBatchVectorMultiplyAccumulate.
void AccumulateReference(const float* weights, int32_t rows, int32_t cols, const float* operand,
                         int32_t batch, float* result, int64_t stride) {
  for (int32_t b = 0; b < batch; ++b) {
    const float* x = operand + static_cast<int64_t>(b) * cols;
    for (int32_t r = 0; r < rows; ++r) {
      const float* w = weights + static_cast<int64_t>(r) * cols;
      float dot = 0;
      for (int32_t c = 0; c < cols; ++c) dot += w[c] * x[c];
      result[b * stride + r] += dot;
    }
  }
}

// The same product on Eigen.
void AccumulateEigen(const float* weights, int32_t rows, int32_t cols, const float* operand,
                     int32_t batch, float* result, int64_t stride) {
  if (batch == 0 || rows == 0 || cols == 0) return;
  StridedMatrix out(result, batch, rows, Eigen::OuterStride<>(stride));
  out.noalias() += ConstMatrix(operand, batch, cols) * ConstMatrix(weights, rows, cols).transpose();
}

// The weights as upstream's hybrid kernel reads them: the bytes as int8, TfLiteTensor::params'
// scale (interpreter.cc GetLegacyQuantization: one scale and one zero point, else 0).
HybridWeights HybridView(const RuntimeTensor& weights) {
  HybridWeights w;
  w.data = weights.Data<const int8_t>();
  w.rows = weights.Dim(0);
  w.cols = weights.Dim(1);
  const Quantization* q = weights.quantization;
  w.scale = q && q->scale.size() == 1 && q->zero_point.size() == 1 ? q->scale[0] : 0.0f;
  return w;
}

bool IsZero(const float* values, int64_t size) {
  return std::all_of(values, values + size, [](float v) { return v == 0.0f; });
}

// result rows += weights . operand rows: upstream's BatchQuantizeFloats (each row into
// `quantized`, its scaling factor and zero point into the cell's) then
// MatrixBatchVectorMultiplyAccumulate (asymmetric: less row sum x zero point), the whole product
// skipped when the operand is all zeros (kernel_utils.cc).
void AccumulateHybrid(const RnnCell& cell, const RuntimeTensor& weights, const float* operand,
                      int32_t cols, int32_t batch, int8_t* quantized, const int32_t* row_sums,
                      float* result, int64_t stride) {
  if (IsZero(operand, static_cast<int64_t>(batch) * cols)) return;
  const HybridWeights w = HybridView(weights);
  for (int32_t b = 0; b < batch; ++b) {
    const float* x = operand + static_cast<int64_t>(b) * cols;
    int8_t* q = quantized + static_cast<int64_t>(b) * cols;
    const QuantizedRow row = cell.asymmetric ? AsymmetricQuantizeFloats(x, cols, q)
                                             : SymmetricQuantizeFloats(x, cols, q);
    cell.scaling_factors[b] = row.scale * w.scale;
    if (cell.asymmetric) cell.zero_points[b] = row.offset;
  }
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* x = quantized + static_cast<int64_t>(b) * cols;
    float* out = result + b * stride;
    for (int64_t r = 0; r < w.rows; ++r) {
      const int8_t* row = w.data + r * cols;
      int32_t dot = 0;
      for (int32_t c = 0; c < cols; ++c) dot += row[c] * x[c];
      if (cell.asymmetric) dot -= row_sums[r] * cell.zero_points[b];
      out[r] += static_cast<float>(dot) * cell.scaling_factors[b];
    }
  }
}

// tensor_utils ReductionSumVector: each weight row's sum.
void SumRows(const RuntimeTensor& weights, int32_t* sums) {
  const HybridWeights w = HybridView(weights);
  for (int64_t r = 0; r < w.rows; ++r) {
    int32_t sum = 0;
    for (int64_t c = 0; c < w.cols; ++c) sum += w.data[r * w.cols + c];
    sums[r] = sum;
  }
}

}  // namespace

Result<bool> RnnWeightsAreHybrid(const RuntimeTensor& input,
                                 std::initializer_list<const RuntimeTensor*> weights) {
  if (input.type != TensorType::kFloat32) {
    return Status::Error(std::string("the input is ") + TensorTypeName(input.type) +
                         ": upstream's kernel takes float32 only");
  }
  const RuntimeTensor* first = *weights.begin();
  for (const RuntimeTensor* w : weights) {
    if (w != nullptr && w->type != first->type) {
      return Status::Error(std::string("weights of types ") + TensorTypeName(first->type) +
                           " and " + TensorTypeName(w->type) +
                           ": upstream's kernel takes one type for all");
    }
  }
  switch (first->type) {
    case TensorType::kFloat32:
      return false;
    case TensorType::kInt8:
    case TensorType::kUInt8:
      return true;
    default:
      return Status::Error(std::string("the weights are ") + TensorTypeName(first->type) +
                           ": upstream's kernel takes float32, int8 or uint8 weights");
  }
}

Status CheckRnnFloat(const RuntimeTensor& tensor, const char* role) {
  if (tensor.type == TensorType::kFloat32) return Status::Ok();
  return Status::Error(std::string(role) + " is " + TensorTypeName(tensor.type) +
                       ": upstream's kernel reads it as float32");
}

Status CheckRnnActivation(Activation activation) {
  if (activation == Activation::kUnknown)
    return Status::Error("an activation upstream's ApplyActivationToVector does not apply");
  return Status::Ok();
}

void RnnBatchStep(const RnnCell& cell, const float* input, const float* aux_input, int32_t batch,
                  float* hidden, float* output, int64_t output_stride) {
  const int32_t units = cell.units;
  for (int32_t b = 0; b < batch; ++b) std::copy_n(cell.bias, units, output + b * output_stride);
  const bool aux = aux_input != nullptr && cell.aux_size > 0;
  if (cell.hybrid) {
    // Upstream's row sums: the input's, the auxiliary input's (with one), the recurrent ones'.
    const int32_t* input_sums = cell.row_sums;
    const int32_t* aux_sums = cell.row_sums + (aux ? units : 0);
    const int32_t* recurrent_sums = aux_sums + units;
    if (cell.asymmetric) {
      SumRows(*cell.input_weights, cell.row_sums);
      if (aux) SumRows(*cell.aux_weights, cell.row_sums + units);
      SumRows(*cell.recurrent_weights, cell.row_sums + (aux ? 2 : 1) * units);
    }
    AccumulateHybrid(cell, *cell.input_weights, input, cell.input_size, batch, cell.quantized_input,
                     input_sums, output, output_stride);
    if (aux) {
      AccumulateHybrid(cell, *cell.aux_weights, aux_input, cell.aux_size, batch, cell.quantized_aux,
                       aux_sums, output, output_stride);
    }
    AccumulateHybrid(cell, *cell.recurrent_weights, hidden, units, batch, cell.quantized_hidden,
                     recurrent_sums, output, output_stride);
  } else {
    const auto accumulate = cell.reference ? AccumulateReference : AccumulateEigen;
    accumulate(cell.input_weights->Data<const float>(), units, cell.input_size, input, batch,
               output, output_stride);
    if (aux) {
      accumulate(cell.aux_weights->Data<const float>(), units, cell.aux_size, aux_input, batch,
                 output, output_stride);
    }
    accumulate(cell.recurrent_weights->Data<const float>(), units, units, hidden, batch, output,
               output_stride);
  }
  for (int32_t b = 0; b < batch; ++b) {
    float* row = output + b * output_stride;
    for (int32_t u = 0; u < units; ++u) row[u] = Activate(cell.activation, row[u]);
    std::copy_n(row, units, hidden + static_cast<int64_t>(b) * units);
  }
}

}  // namespace tfa::runtime
