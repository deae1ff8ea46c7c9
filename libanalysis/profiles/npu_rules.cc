#include "libanalysis/profiles/npu_rules.h"

#include <optional>
#include <string>

#include "libanalysis/model/tensor_type.h"

namespace tfa {
namespace {

CheckOutcome Reject(std::string reason, std::string detail = {}) {
  return CheckOutcome{CheckOutcome::Kind::kReject, std::move(reason), std::move(detail)};
}

// "input 1 (tensor 57, int4)".
std::string Describe(const char* what, size_t position, int32_t index, const Tensor& tensor) {
  std::string out = what;
  out += ' ';
  out += std::to_string(position);
  out += " (tensor ";
  out += std::to_string(index);
  out += ", ";
  out += TensorTypeName(tensor.type);
  out += ')';
  return out;
}

// The first present input or output that `accepts` refuses, described; nullopt when none.
template <typename Accepts>
std::optional<std::string> FirstRefusedTensor(const NodeContext& context, Accepts accepts) {
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    const Tensor* t = context.Input(i);
    if (t && !accepts(*t)) return Describe("input", i, context.inputs[i], *t);
  }
  for (size_t i = 0; i < context.node.outputs.size(); ++i) {
    const Tensor* t = context.Output(i);
    if (t && !accepts(*t)) return Describe("output", i, context.node.outputs[i], *t);
  }
  return std::nullopt;
}

CheckOutcome ExampleRmsNormComposite(const NodeContext& context) {
  if (context.node.options->composite_name == "odml.rms_norm") return {};
  return Reject("composite " + context.node.options->composite_name + " is not odml.rms_norm");
}

// ConvertDataType's switch (qnn_compose_graph.cc); blockwise quantization is refused by
// ConvertTensor. Upstream returns the error from the whole Partition call; here the op stays
// on the CPU and the reason says so.
bool QnnConvertsTensor(const Tensor& t) {
  if (t.quantization->blockwise) return false;
  switch (t.type) {
    case TensorType::kBool:
    case TensorType::kInt8:
    case TensorType::kInt16:
    case TensorType::kInt32:
    case TensorType::kInt64:
    case TensorType::kUInt8:
    case TensorType::kUInt16:
    case TensorType::kUInt32:
    case TensorType::kUInt64:
    case TensorType::kFloat16:
    case TensorType::kFloat32:
    case TensorType::kFloat64:
      return true;
    default:
      return false;
  }
}

CheckOutcome QualcommTensorTypes(const NodeContext& context) {
  auto refused = FirstRefusedTensor(context, QnnConvertsTensor);
  if (!refused) return {};
  return Reject("tensor has no QNN data type (ConvertTensor fails the Partition call upstream)",
                *refused);
}

// GetNeuronTensorType (neuron_utils.cc), with the flags VerifyCommonOp passes (none).
bool NeuronHasTensorType(const Tensor& t) {
  const Quantization& q = *t.quantization;
  const bool per_tensor = !q.empty() && !q.per_channel() && !q.blockwise;
  const bool per_channel = q.per_channel() && !q.blockwise;
  switch (t.type) {
    case TensorType::kFloat32:
    case TensorType::kFloat16:
    case TensorType::kInt32:
    case TensorType::kUInt8:
    case TensorType::kBool:
      return true;
    case TensorType::kInt16:
    case TensorType::kUInt16:
      return per_tensor;
    case TensorType::kInt8:
    case TensorType::kInt4:
    case TensorType::kInt2:
      return per_tensor || per_channel;
    case TensorType::kInt64:
      return t.is_constant() && !q.blockwise;  // constants only, cast to int32
    default:
      return false;
  }
}

CheckOutcome MediatekTensorTypes(const NodeContext& context) {
  auto refused = FirstRefusedTensor(context, NeuronHasTensorType);
  if (!refused) return {};
  return Reject("tensor type not supported by Neuron (GetNeuronTensorType)", *refused);
}

// VerifyCommonOp also takes "odml.group_norm" when its num_groups attribute is 1; composite
// attributes are not read here, so it stays on the CPU with that said.
CheckOutcome MediatekNormComposite(const NodeContext& context) {
  const std::string& name = context.node.options->composite_name;
  if (name == "odml.rms_norm" || name == "odml.l2_norm") return {};
  if (name == "odml.group_norm") {
    return Reject("composite odml.group_norm: taken only when num_groups == 1, not read here");
  }
  return Reject("composite " + name + " is not one VerifyCommonOp takes");
}

constexpr NamedRuleCheck kNpuChecks[] = {
    {"example_rms_norm_composite", ExampleRmsNormComposite},
    {"qualcomm_tensor_types", QualcommTensorTypes},
    {"mediatek_tensor_types", MediatekTensorTypes},
    {"mediatek_norm_composite", MediatekNormComposite},
};

}  // namespace

std::span<const NamedRuleCheck> NpuRuleChecks() { return kNpuChecks; }

}  // namespace tfa
