#include "libanalysis/prepare/shape_inference.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {
namespace {

using prepare_internal::NodeError;
using prepare_internal::Operand;

using ShapeRule = Result<std::vector<Shape>> (*)(const Subgraph&, const Node&, const IntValuesOf&);

std::string ShapeText(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Result<const Tensor*> RequiredInput(const Subgraph& subgraph, const Node& node, size_t position) {
  const Tensor* tensor = Operand(subgraph, node.inputs, position);
  if (tensor == nullptr) {
    return NodeError(node, "input " + std::to_string(position) + " is missing");
  }
  return tensor;
}

// Element-wise ops with broadcasting (tflite/kernels/kernel_util.cc CalculateShapeForBroadcast):
// shapes align at their last dimension; each pair is equal or one of them is 1.
Result<std::vector<Shape>> BroadcastRule(const Subgraph& subgraph, const Node& node,
                                         const IntValuesOf& /*values*/) {
  auto a = RequiredInput(subgraph, node, 0);
  if (!a.ok()) return a.status();
  auto b = RequiredInput(subgraph, node, 1);
  if (!b.ok()) return b.status();
  const Shape& x = (*a)->shape;
  const Shape& y = (*b)->shape;
  Shape out(std::max(x.size(), y.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t dx = i < x.size() ? x[x.size() - 1 - i] : 1;
    const int32_t dy = i < y.size() ? y[y.size() - 1 - i] : 1;
    if (dx != dy && dx != 1 && dy != 1) {
      return NodeError(node,
                       "shapes " + ShapeText(x) + " and " + ShapeText(y) + " do not broadcast");
    }
    out[out.size() - 1 - i] = dx == 1 ? dy : dx;
  }
  return std::vector<Shape>{out};
}

// Ops whose output has their first input's shape (activations, casts, unary math).
Result<std::vector<Shape>> SameAsInputRule(const Subgraph& subgraph, const Node& node,
                                           const IntValuesOf& /*values*/) {
  auto a = RequiredInput(subgraph, node, 0);
  if (!a.ok()) return a.status();
  return std::vector<Shape>{(*a)->shape};
}

// CONCATENATION (tflite/kernels/concatenation.cc): same rank, equal dimensions except on the
// axis, whose sizes add up. A negative axis counts from the end.
Result<std::vector<Shape>> ConcatenationRule(const Subgraph& subgraph, const Node& node,
                                             const IntValuesOf& /*values*/) {
  auto first = RequiredInput(subgraph, node, 0);
  if (!first.ok()) return first.status();
  Shape out = (*first)->shape;
  const auto rank = static_cast<int32_t>(out.size());
  const int32_t axis = node.options.axis < 0 ? node.options.axis + rank : node.options.axis;
  if (axis < 0 || axis >= rank) {
    return NodeError(node, "axis " + std::to_string(node.options.axis) + " is outside rank " +
                               std::to_string(rank));
  }
  for (size_t i = 1; i < node.inputs.size(); ++i) {
    auto input = RequiredInput(subgraph, node, i);
    if (!input.ok()) return input.status();
    const Shape& shape = (*input)->shape;
    bool compatible = shape.size() == out.size();
    for (int32_t d = 0; compatible && d < rank; ++d) {
      compatible = d == axis || shape[d] == out[d];
    }
    if (!compatible) {
      return NodeError(node, "input " + std::to_string(i) + " " + ShapeText(shape) +
                                 " does not concatenate with " + ShapeText((*first)->shape) +
                                 " on axis " + std::to_string(axis));
    }
    out[axis] += shape[axis];
  }
  return std::vector<Shape>{out};
}

struct NamedShapeRule {
  std::string_view op;
  ShapeRule rule;
};

constexpr std::array<NamedShapeRule, 35> kShapeRules = {{
    {"ADD", BroadcastRule},
    {"SUB", BroadcastRule},
    {"MUL", BroadcastRule},
    {"DIV", BroadcastRule},
    {"POW", BroadcastRule},
    {"MAXIMUM", BroadcastRule},
    {"MINIMUM", BroadcastRule},
    {"SQUARED_DIFFERENCE", BroadcastRule},
    {"FLOOR_DIV", BroadcastRule},
    {"FLOOR_MOD", BroadcastRule},
    {"LESS", BroadcastRule},
    {"LESS_EQUAL", BroadcastRule},
    {"GREATER", BroadcastRule},
    {"GREATER_EQUAL", BroadcastRule},
    {"EQUAL", BroadcastRule},
    {"NOT_EQUAL", BroadcastRule},
    {"LOGICAL_AND", BroadcastRule},
    {"LOGICAL_OR", BroadcastRule},
    {"CONCATENATION", ConcatenationRule},
    {"RELU", SameAsInputRule},
    {"RELU6", SameAsInputRule},
    {"RELU_N1_TO_1", SameAsInputRule},
    {"LOGISTIC", SameAsInputRule},
    {"TANH", SameAsInputRule},
    {"ABS", SameAsInputRule},
    {"NEG", SameAsInputRule},
    {"EXP", SameAsInputRule},
    {"LOG", SameAsInputRule},
    {"SQRT", SameAsInputRule},
    {"RSQRT", SameAsInputRule},
    {"SQUARE", SameAsInputRule},
    {"CAST", SameAsInputRule},
    {"QUANTIZE", SameAsInputRule},
    {"DEQUANTIZE", SameAsInputRule},
    {"LOGICAL_NOT", SameAsInputRule},
}};

}  // namespace

Result<std::vector<Shape>> InferOutputShapes(const Subgraph& subgraph, const Node& node,
                                             const IntValuesOf& values) {
  if (node.kind == NodeKind::kBuiltin) {
    for (const NamedShapeRule& rule : kShapeRules) {
      if (rule.op == node.op) return rule.rule(subgraph, node, values);
    }
  }
  return NodeError(node, "no shape rule");
}

Status PropagateShapes(Subgraph& subgraph, const IntValuesOf& values) {
  for (int32_t n : subgraph.execution_plan.empty() ? IdentityExecutionPlan(subgraph)
                                                   : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[static_cast<size_t>(n)];
    auto shapes = InferOutputShapes(subgraph, node, values);
    if (!shapes.ok()) return shapes.status().WithContext("node " + std::to_string(n));
    if (shapes->size() != node.outputs.size()) {
      return Status::Error("node " + std::to_string(n) + ": " + node.op +
                           ": its shape rule gives " + std::to_string(shapes->size()) +
                           " outputs where the node has " + std::to_string(node.outputs.size()));
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      Tensor& tensor = subgraph.tensors[static_cast<size_t>(node.outputs[i])];
      tensor.bytes = ShapeBytes(tensor.type, (*shapes)[i]);
      tensor.shape = std::move((*shapes)[i]);
    }
  }
  return Status::Ok();
}

}  // namespace tfa
