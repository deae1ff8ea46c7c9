// Shape rules of the elementwise ops: those whose inputs broadcast, and the StableHLO ones, whose
// inputs share one shape.

#include <cstdint>
#include <string>
#include <utility>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

Outcome BroadcastRule(const RuleInput& in) {
  std::vector<Shape> shapes;
  for (size_t i = 0; i < in.node.inputs.size(); ++i) {
    auto shape = InputShape(in, i);
    if (!shape.ok()) return shape.status();
    shapes.push_back(std::move(*shape));
  }
  auto out = BroadcastShapes(in, shapes);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// SELECT (select.cc, version one): the condition's shape when all three agree; otherwise a
// scalar or per-row condition picks whole rows of the branches.
Outcome SelectRule(const RuleInput& in) {
  auto condition = InputShape(in, 0);
  if (!condition.ok()) return condition.status();
  auto x = InputShape(in, 1);
  if (!x.ok()) return x.status();
  auto y = InputShape(in, 2);
  if (!y.ok()) return y.status();
  if (*condition == *x && *x == *y) return OneShape(*condition);
  const bool scalar = condition->empty();
  const bool per_row = condition->size() == 1 && !x->empty() && (*condition)[0] == (*x)[0];
  if (*x != *y || !(scalar || per_row)) {
    return Fail(in, "condition " + ShapeText(*condition) + " does not select between " +
                        ShapeText(*x) + " and " + ShapeText(*y));
  }
  return OneShape(*y);
}

// ATAN2 (atan2.cc): y's shape, no broadcasting; upstream's Prepare compares only the ranks.
Outcome Atan2Rule(const RuleInput& in) {
  auto y = InputShape(in, 0);
  if (!y.ok()) return y.status();
  auto x = InputShape(in, 1);
  if (!x.ok()) return x.status();
  if (y->size() != x->size()) {
    return Fail(in, "inputs " + ShapeText(*y) + " and " + ShapeText(*x) + " differ in rank");
  }
  return OneShape(std::move(*y));
}

namespace {

// The two inputs of a StableHLO element-wise op, which upstream's Prepare requires of one type.
struct TwoInputs {
  Shape a;
  Shape b;
};
Result<TwoInputs> SameTypeInputs(const RuleInput& in) {
  auto a = Input(in, 0);
  if (!a.ok()) return a.status();
  auto b = Input(in, 1);
  if (!b.ok()) return b.status();
  if ((*a)->type != (*b)->type) {
    return Fail(in, std::string("inputs of types ") + TensorTypeName((*a)->type) + " and " +
                        TensorTypeName((*b)->type));
  }
  auto a_shape = InputShape(in, 0);
  if (!a_shape.ok()) return a_shape.status();
  auto b_shape = InputShape(in, 1);
  if (!b_shape.ok()) return b_shape.status();
  return TwoInputs{std::move(*a_shape), std::move(*b_shape)};
}

}  // namespace

// STABLEHLO_ADD, MULTIPLY, MAXIMUM, MINIMUM, AND (stablehlo_elementwise.cc ElementwisePrepare):
// no broadcasting, two inputs of one type and one shape, which the output takes.
Outcome StablehloElementwiseRule(const RuleInput& in) {
  auto inputs = SameTypeInputs(in);
  if (!inputs.ok()) return inputs.status();
  if (inputs->a != inputs->b) {
    return Fail(
        in, "inputs " + ShapeText(inputs->a) + " and " + ShapeText(inputs->b) + " differ in shape");
  }
  return OneShape(std::move(inputs->a));
}

// STABLEHLO_SHIFT_LEFT (stablehlo_shift_left.cc): the output is shaped like the first input; the
// second is read element by element without a check of its shape, so a shorter one reads past it.
Outcome StablehloShiftLeftRule(const RuleInput& in) {
  auto inputs = SameTypeInputs(in);
  if (!inputs.ok()) return inputs.status();
  const auto count = [](const Shape& shape) {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    return n;
  };
  if (count(inputs->b) < count(inputs->a)) {
    return Fail(in, "the shifts " + ShapeText(inputs->b) + " are fewer than the values " +
                        ShapeText(inputs->a) + " (upstream reads past them)");
  }
  return OneShape(std::move(inputs->a));
}

}  // namespace tfa::shape_rules
