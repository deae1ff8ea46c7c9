#include "runtime/kernels/cpu/pack.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

bool PackType(TensorType type) {
  switch (type) {
    case TensorType::kFloat32:
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kInt16:
    case TensorType::kUInt16:
    case TensorType::kInt32:
    case TensorType::kUInt32:
    case TensorType::kInt64:
      return true;
    default:
      return false;
  }
}

bool UnpackType(TensorType type) {
  switch (type) {
    case TensorType::kFloat32:
    case TensorType::kFloat16:
    case TensorType::kBFloat16:
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kInt16:
    case TensorType::kInt32:
    case TensorType::kBool:
      return true;
    default:
      return false;
  }
}

// Upstream compares TfLiteTensor::params: the first scale and zero point, 0 when unquantized.
bool SameScalarQuantization(const RuntimeTensor& a, const RuntimeTensor& b) {
  const auto scale = [](const RuntimeTensor& t) {
    return t.quantization && !t.quantization->scale.empty() ? t.quantization->scale[0] : 0.0f;
  };
  const auto zero_point = [](const RuntimeTensor& t) {
    return t.quantization && !t.quantization->zero_point.empty() ? t.quantization->zero_point[0]
                                                                 : int64_t{0};
  };
  return scale(a) == scale(b) && zero_point(a) == zero_point(b);
}

// The product of `shape`'s dimensions in [begin, end).
int64_t Product(const std::vector<int32_t>& shape, int begin, int end) {
  int64_t n = 1;
  for (int d = begin; d < end; ++d) n *= shape[static_cast<size_t>(d)];
  return n;
}

Result<int> PackAxis(const KernelContext& context) {
  if (context.inputs.empty()) return Status::Error("expects at least 1 input, has 0");
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (!context.inputs[i]) return Status::Error("input " + std::to_string(i) + " is absent");
  }
  TFA_RETURN_IF_ERROR(CheckArity(context, context.inputs.size(), context.inputs.size(), 1));
  const RuntimeTensor& first = context.input(0);
  auto axis = ResolveAxis(context.options().axis, first.Rank() + 1);
  if (!axis.ok()) return axis.status();
  if (!PackType(first.type)) {
    return Status::Error(std::string("type ") + TensorTypeName(first.type) +
                         " is not supported by PACK");
  }
  const RuntimeTensor& output = context.output(0);
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const RuntimeTensor& input = context.input(i);
    if (input.shape != first.shape) {
      return Status::Error("input " + std::to_string(i) + " has shape " + ShapeString(input.shape) +
                           ", input 0 " + ShapeString(first.shape));
    }
    if (input.type != first.type) {
      return Status::Error("input " + std::to_string(i) + " is " + TensorTypeName(input.type) +
                           ", input 0 " + TensorTypeName(first.type));
    }
    if (!SameScalarQuantization(input, output)) {
      return Status::Error("input " + std::to_string(i) +
                           " is quantized differently from the output (PACK does not rescale)");
    }
  }
  if (output.type != first.type) {
    return Status::Error(std::string("output is ") + TensorTypeName(output.type) + ", the inputs " +
                         TensorTypeName(first.type));
  }
  std::vector<int32_t> shape = first.shape;
  shape.insert(shape.begin() + *axis, static_cast<int32_t>(context.inputs.size()));
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, shape));
  return *axis;
}

Result<int> UnpackAxis(const KernelContext& context) {
  if (context.inputs.size() != 1 || !context.inputs[0])
    return Status::Error("expects 1 input, has " + std::to_string(context.inputs.size()));
  const RuntimeTensor& input = context.input(0);
  if (input.NumElements() <= 0) return Status::Error("input has no elements");
  auto axis = ResolveAxis(context.options().axis, input.Rank());
  if (!axis.ok()) return axis.status();
  if (!UnpackType(input.type)) {
    return Status::Error(std::string("type ") + TensorTypeName(input.type) +
                         " is not supported by UNPACK");
  }
  // UnpackOptions' num is the output count; upstream requires it to be the axis' extent.
  if (static_cast<int64_t>(context.outputs.size()) != input.Dim(*axis)) {
    return Status::Error("dimension " + std::to_string(*axis) + " of " + ShapeString(input.shape) +
                         " does not unpack into " + std::to_string(context.outputs.size()) +
                         " outputs");
  }
  std::vector<int32_t> shape = input.shape;
  shape.erase(shape.begin() + *axis);
  for (size_t i = 0; i < context.outputs.size(); ++i) {
    if (!context.outputs[i]) return Status::Error("output " + std::to_string(i) + " is absent");
    const RuntimeTensor& output = context.output(i);
    if (output.type != input.type) {
      return Status::Error("output " + std::to_string(i) + " is " + TensorTypeName(output.type) +
                           ", the input " + TensorTypeName(input.type));
    }
    if (!SameScalarQuantization(input, output)) {
      return Status::Error("output " + std::to_string(i) +
                           " is quantized differently from the input (UNPACK does not rescale)");
    }
    TFA_RETURN_IF_ERROR(CheckOutputShape(output, shape));
  }
  return *axis;
}

}  // namespace

Status PreparePack(KernelContext& context) { return PackAxis(context).status(); }

// Output row o is input 0's row o, input 1's row o, ...: a row being everything from the axis on.
Status EvalPack(KernelContext& context) {
  auto axis = PackAxis(context);
  if (!axis.ok()) return axis.status();
  const RuntimeTensor& first = context.input(0);
  const uint64_t element = ElementSize(first.type).value_or(0);
  const int64_t outer = Product(first.shape, 0, *axis);
  const uint64_t run = static_cast<uint64_t>(Product(first.shape, *axis, first.Rank())) * element;
  uint8_t* out = context.output(0).data;
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < context.inputs.size(); ++i) {
      std::memcpy(out, context.input(i).data + static_cast<uint64_t>(o) * run, run);
      out += run;
    }
  }
  return Status::Ok();
}

Status PrepareUnpack(KernelContext& context) { return UnpackAxis(context).status(); }

Status EvalUnpack(KernelContext& context) {
  auto axis = UnpackAxis(context);
  if (!axis.ok()) return axis.status();
  const RuntimeTensor& input = context.input(0);
  const uint64_t element = ElementSize(input.type).value_or(0);
  const int64_t outer = Product(input.shape, 0, *axis);
  const int64_t parts = input.Dim(*axis);
  const uint64_t run =
      static_cast<uint64_t>(Product(input.shape, *axis + 1, input.Rank())) * element;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p = 0; p < parts; ++p) {
      std::memcpy(context.output(static_cast<size_t>(p)).data + static_cast<uint64_t>(o) * run,
                  input.data + static_cast<uint64_t>(o * parts + p) * run, run);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
