// Shape rules of the ops that select some of their input's elements, how many known only from the
// values: NON_MAX_SUPPRESSION_V4 / V5 and UNIQUE. Their Prepare sizes the outputs it can and
// makes the others dynamic, output by output.

#include <string>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

// NON_MAX_SUPPRESSION_V4 / V5 (non_max_suppression.cc, one Prepare for both; six inputs make it
// soft NMS, with a sigma input and a selected-scores output): selected indices (and scores) of
// max_output_size entries, and their count, a scalar. A max_output_size unknown at Prepare (not a
// constant) makes the indices and scores dynamic; the count stays sized.
Outcome NonMaxSuppressionRule(const RuleInput& in) {
  const size_t inputs = in.node.inputs.size();
  if (inputs != 5 && inputs != 6) {
    return Fail(in, "has " + std::to_string(inputs) + " inputs, expected 5 or 6 (soft NMS)");
  }
  const bool soft = inputs == 6;
  const size_t outputs = soft ? 3 : 2;
  if (in.node.outputs.size() != outputs) {
    return Fail(in, "has " + std::to_string(in.node.outputs.size()) + " outputs, expected " +
                        std::to_string(outputs));
  }
  auto boxes = InputShape(in, 0);
  if (!boxes.ok()) return boxes.status();
  auto scores = InputShape(in, 1);
  if (!scores.ok()) return scores.status();
  if (boxes->size() != 2 || (*boxes)[1] != 4) {
    return Fail(in, "boxes " + ShapeText(*boxes) + " are not [num_boxes, 4]");
  }
  if (scores->size() != 1 || (*scores)[0] != (*boxes)[0]) {
    return Fail(in, "scores " + ShapeText(*scores) + " are not one per box " + ShapeText(*boxes));
  }
  auto max_output_size = Input(in, 2);
  if (!max_output_size.ok()) return max_output_size.status();
  if ((*max_output_size)->type != TensorType::kInt32 || !(*max_output_size)->shape.empty()) {
    return Fail(in, "max_output_size is not an int32 scalar");
  }
  const Shape count;  // num_selected_indices, a scalar
  const auto value = KnownValues(in, 2);
  if (!value) {
    if (prepare_internal::IsConstantOrPersistent(**max_output_size)) {
      return Fail(in, "the value of a constant max_output_size is not kept");
    }
    if (soft) return PartlyDynamic({std::nullopt, std::nullopt, count});
    return PartlyDynamic({std::nullopt, count});
  }
  if (value->size() != 1) return Fail(in, "max_output_size is not a scalar");
  if (value->front() < 0) {
    return Fail(in, "max_output_size " + std::to_string(value->front()) + " is negative");
  }
  auto selected = ToDimension(in, value->front());
  if (!selected.ok()) return selected.status();
  if (soft) return Shapes({{*selected}, {*selected}, count});
  return Shapes({{*selected}, count});
}

// UNIQUE (unique.cc): a 1-D input; the unique values are always sized at Eval, even for a
// constant input, and the index of each element's value is shaped like the input.
Outcome UniqueRule(const RuleInput& in) {
  if (in.node.inputs.size() != 1 || in.node.outputs.size() != 2) {
    return Fail(in, "expects 1 input and 2 outputs");
  }
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  if (input->size() != 1) return Fail(in, "input " + ShapeText(*input) + " is not 1-D");
  return PartlyDynamic({std::nullopt, *input});
}

}  // namespace tfa::shape_rules
