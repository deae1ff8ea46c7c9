// The shape rules' building blocks, and the rules many ops share.

#include "libanalysis/prepare/shape_rules.h"

#include <algorithm>
#include <limits>
#include <string>

#include "libanalysis/prepare/added_tensors.h"

namespace tfa::shape_rules {

using prepare_internal::Elements;
using prepare_internal::NodeError;
using prepare_internal::Operand;

std::string ShapeText(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Outcome Shapes(std::vector<Shape> shapes) { return InferredShapes{std::move(shapes), false, {}}; }
Outcome OneShape(Shape shape) { return Shapes({std::move(shape)}); }
Outcome Dynamic() { return InferredShapes{{}, true, {}}; }
Outcome PartlyDynamic(std::vector<std::optional<Shape>> outputs) {
  InferredShapes inferred{{}, true, {}};
  for (std::optional<Shape>& shape : outputs) {
    inferred.sized.push_back(shape.has_value());
    inferred.shapes.push_back(shape ? std::move(*shape) : Shape());
  }
  return inferred;
}
Status Fail(const RuleInput& in, const std::string& reason) { return NodeError(in.node, reason); }

Result<const Tensor*> Input(const RuleInput& in, size_t position) {
  const Tensor* tensor = Operand(in.subgraph, in.node.inputs, position);
  if (tensor == nullptr) return Fail(in, "input " + std::to_string(position) + " is missing");
  return tensor;
}

Result<Shape> InputShape(const RuleInput& in, size_t position) {
  auto tensor = Input(in, position);
  if (!tensor.ok()) return tensor.status();
  return Shape((*tensor)->shape);
}

// The values of input `position` when Prepare knows them: a model constant (upstream's
// IsConstantOrPersistentTensor), or what the caller knows. nullopt: the kernel sizes its output
// at Eval.
std::optional<Values> KnownValues(const RuleInput& in, size_t position) {
  if (position >= in.node.inputs.size() || in.node.inputs[position] < 0) return std::nullopt;
  const int32_t index = in.node.inputs[position];
  const Tensor* tensor = Operand(in.subgraph, in.node.inputs, position);
  if (tensor == nullptr) return std::nullopt;
  if (tensor->is_constant() && Elements(tensor->shape) == tensor->int_values->size()) {
    return tensor->int_values;
  }
  if (in.values) return in.values(index);
  return std::nullopt;
}

// `axis` in [-rank, rank) as a dimension index.
Result<int32_t> ResolveAxis(const RuleInput& in, int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return Fail(in, "axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
  }
  return static_cast<int32_t>(axis < 0 ? axis + r : axis);
}

Result<int32_t> ToDimension(const RuleInput& in, int64_t value) {
  if (value < 0 || value > std::numeric_limits<int32_t>::max()) {
    return Fail(in, "output dimension " + std::to_string(value) + " is out of range");
  }
  return static_cast<int32_t>(value);
}

Status RequireRank(const RuleInput& in, const Shape& shape, size_t rank, const char* what) {
  if (shape.size() != rank) {
    return Fail(
        in, std::string(what) + " " + ShapeText(shape) + " is not of rank " + std::to_string(rank));
  }
  return Status::Ok();
}

// kernel_util.cc CalculateShapeForBroadcast over any number of inputs: shapes align at their last
// dimension; each column is equal or 1.
Result<Shape> BroadcastShapes(const RuleInput& in, const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int32_t dim = 1;
    for (const Shape& s : shapes) {
      const int32_t d = i < s.size() ? s[s.size() - 1 - i] : 1;
      if (d == 1 || d == dim) continue;
      if (dim != 1) {
        std::string text;
        for (size_t k = 0; k < shapes.size(); ++k) {
          text += (k == 0 ? "" : k + 1 == shapes.size() ? " and " : ", ") + ShapeText(shapes[k]);
        }
        return Fail(in, "shapes " + text + " do not broadcast");
      }
      dim = d;
    }
    out[rank - 1 - i] = dim;
  }
  return out;
}

// Ops whose output has their first input's shape (activations, casts, unary math, softmax).
Outcome SameAsInputRule(const RuleInput& in) {
  auto shape = InputShape(in, 0);
  if (!shape.ok()) return shape.status();
  return OneShape(std::move(*shape));
}

// Ops without outputs (ASSIGN_VARIABLE).
Outcome NoOutputsRule(const RuleInput& /*in*/) { return Shapes({}); }

// Outputs sized from runtime state (READ_VARIABLE: the variable's current value).
Outcome AlwaysDynamicRule(const RuleInput& /*in*/) { return Dynamic(); }

// VAR_HANDLE: a resource scalar.
Outcome ScalarRule(const RuleInput& /*in*/) { return OneShape({}); }

// The output shape an int vector input states (TRANSPOSE_CONV, CONV_3D_TRANSPOSE, FILL): known at
// Prepare only when constant, else sized at Eval.
Outcome ShapeFromValuesRule(const RuleInput& in, size_t position) {
  const auto values = KnownValues(in, position);
  if (!values) return Dynamic();
  Shape out;
  for (int64_t v : *values) {
    auto d = ToDimension(in, v);
    if (!d.ok()) return d.status();
    out.push_back(*d);
  }
  return OneShape(std::move(out));
}

Outcome ShapeFromInput0Rule(const RuleInput& in) { return ShapeFromValuesRule(in, 0); }

}  // namespace tfa::shape_rules
