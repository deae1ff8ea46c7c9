// Shape rules of the elementwise ops whose inputs broadcast.

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

}  // namespace tfa::shape_rules
