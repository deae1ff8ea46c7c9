#include "runtime/kernels/cpu/kernel_util.h"

#include <limits>
#include <span>

namespace tfa::runtime {

std::string ShapeString(std::span<const int32_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

Status CheckArity(const KernelContext& context, size_t min_inputs, size_t max_inputs,
                  size_t outputs) {
  const size_t n = context.inputs.size();
  if (n < min_inputs || n > max_inputs) {
    return Status::Error(
        "expects " + std::to_string(min_inputs) +
        (max_inputs != min_inputs ? " to " + std::to_string(max_inputs) : std::string()) +
        " inputs, has " + std::to_string(n));
  }
  for (size_t i = 0; i < min_inputs; ++i) {
    if (!context.inputs[i]) return Status::Error("input " + std::to_string(i) + " is absent");
  }
  if (context.outputs.size() != outputs) {
    return Status::Error("expects " + std::to_string(outputs) + " outputs, has " +
                         std::to_string(context.outputs.size()));
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (!context.outputs[i]) return Status::Error("output " + std::to_string(i) + " is absent");
  }
  return Status::Ok();
}

Status CheckType(const RuntimeTensor& tensor, TensorType type, const char* role) {
  if (tensor.type == type) return Status::Ok();
  // A type the kernel lacks is the runtime's gap, not the model's fault (issue 31).
  return Status::Error(std::string("the runtime has no ") + TensorTypeName(tensor.type) +
                       " kernel for this op's " + role + " (it has " + TensorTypeName(type) + ")");
}

Status CheckTypeIn(const RuntimeTensor& tensor, std::span<const TensorType> types,
                   const char* role) {
  std::string names;
  for (TensorType type : types) {
    if (tensor.type == type) return Status::Ok();
    names += (names.empty() ? "" : ", ") + std::string(TensorTypeName(type));
  }
  return Status::Error(std::string("the runtime has no ") + TensorTypeName(tensor.type) +
                       " kernel for this op's " + role + " (it has " + names + ")");
}

Status CheckRank(const RuntimeTensor& tensor, int rank, const char* role) {
  if (tensor.Rank() == rank) return Status::Ok();
  return Status::Error(std::string(role) + " has shape " + ShapeString(tensor.shape) +
                       ", expected rank " + std::to_string(rank));
}

Status CheckOutputShape(const RuntimeTensor& output, const std::vector<int32_t>& computed) {
  if (output.shape == computed) return Status::Ok();
  return Status::Error("output shape " + ShapeString(output.shape) + " differs from the computed " +
                       ShapeString(computed));
}

Result<ActivationRange> GetActivationRange(Activation activation) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (activation) {
    case Activation::kNone:
    // Upstream's CalculateActivationRange (tflite/kernels/kernel_util.h) has no SIGN_BIT branch:
    // it falls to the unbounded default, so a SIGN_BIT kernel computes as with NONE.
    case Activation::kSignBit:
      return ActivationRange{-kInf, kInf};
    case Activation::kRelu:
      return ActivationRange{0.0f, kInf};
    case Activation::kReluN1To1:
      return ActivationRange{-1.0f, 1.0f};
    case Activation::kRelu6:
      return ActivationRange{0.0f, 6.0f};
    default:
      break;
  }
  return Status::Error(std::string("fused activation ") + ActivationName(activation) +
                       " is not supported");
}

int32_t ConvOutputSize(Padding padding, int32_t in, int32_t filter, int32_t stride,
                       int32_t dilation) {
  const int32_t effective_filter = (filter - 1) * dilation + 1;
  if (stride <= 0) return 0;
  if (padding == Padding::kSame) return (in + stride - 1) / stride;
  if (padding == Padding::kValid) return (in + stride - effective_filter) / stride;
  return 0;
}

int32_t ConvPaddingBefore(Padding padding, int32_t in, int32_t filter, int32_t stride,
                          int32_t dilation, int32_t out) {
  if (padding != Padding::kSame) return 0;
  const int32_t effective_filter = (filter - 1) * dilation + 1;
  const int32_t total = (out - 1) * stride + effective_filter - in;
  return std::max(total / 2, 0);
}

Result<std::vector<int32_t>> BroadcastShape(const std::vector<int32_t>& a,
                                            const std::vector<int32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int32_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return Status::Error("shapes " + ShapeString(a) + " and " + ShapeString(b) +
                           " do not broadcast");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> BroadcastStrides(const std::vector<int32_t>& shape,
                                      const std::vector<int32_t>& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t i = shape.size() - 1 - k;
    const size_t o = out.size() - 1 - k;
    strides[o] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

Result<std::vector<int64_t>> ReadIndexTensor(const RuntimeTensor& tensor, const char* role) {
  if (!tensor.data && tensor.NumElements() > 0)
    return Status::Error(std::string(role) + " has no data");
  const int64_t n = tensor.NumElements();
  std::vector<int64_t> values(static_cast<size_t>(n));
  if (tensor.type == TensorType::kInt32) {
    for (int64_t i = 0; i < n; ++i)
      values[static_cast<size_t>(i)] = tensor.Data<const int32_t>()[i];
  } else if (tensor.type == TensorType::kInt64) {
    for (int64_t i = 0; i < n; ++i)
      values[static_cast<size_t>(i)] = tensor.Data<const int64_t>()[i];
  } else {
    return Status::Error(std::string(role) + " has type " + TensorTypeName(tensor.type) +
                         ", expected int32 or int64");
  }
  return values;
}

Result<int> ResolveAxis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    return Status::Error("axis " + std::to_string(axis) + " is out of range for rank " +
                         std::to_string(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Status CheckConvBias(const KernelContext& context, int32_t out_c) {
  if (!context.has_input(2)) return Status::Ok();
  const RuntimeTensor& bias = context.input(2);
  TFA_RETURN_IF_ERROR(CheckType(bias, TensorType::kFloat32, "bias"));
  if (bias.NumElements() != out_c)
    return Status::Error("bias has " + ShapeString(bias.shape) + " elements");
  return Status::Ok();
}

}  // namespace tfa::runtime
