// Shape rules of reductions, segment ops, and the ops whose output size an index or count input
// states (WHERE, SCATTER_ND, ONE_HOT, RANGE, MATRIX_DIAG, MATRIX_SET_DIAG,
// SPARSE_TO_DENSE, RFFT2D).

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

using prepare_internal::Operand;

// MEAN, SUM and the REDUCE_* ops (reduce.cc): the axes input's dimensions become 1 (keep_dims) or
// go; repeated axes count once.
Outcome ReduceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto axes = KnownValues(in, 1);
  if (!axes) return Dynamic();
  if (input->empty()) return OneShape({});
  std::set<int32_t> reduced;
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(in, a, input->size());
    if (!axis.ok()) return axis.status();
    reduced.insert(*axis);
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    if (!reduced.count(static_cast<int32_t>(d))) {
      out.push_back((*input)[d]);
    } else if (in.node.options->keep_dims) {
      out.push_back(1);
    }
  }
  return OneShape(std::move(out));
}

// ARG_MAX / ARG_MIN (arg_min_max.cc): the axis goes.
Outcome ArgMinMaxRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto axis_value = KnownValues(in, 1);
  if (!axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  Shape out = *input;
  out.erase(out.begin() + *axis);
  return OneShape(std::move(out));
}

// SEGMENT_SUM (segment_sum.cc): the data's shape with its first dimension the last segment id + 1,
// known at Prepare only when the ids are (the kernel waits for constant data and ids).
Outcome SegmentSumRule(const RuleInput& in) {
  auto data = InputShape(in, 0);
  if (!data.ok()) return data.status();
  auto data_tensor = Input(in, 0);
  if (!data_tensor.ok()) return data_tensor.status();
  const auto ids = KnownValues(in, 1);
  if (!ids || !prepare_internal::IsConstantOrPersistent(**data_tensor)) return Dynamic();
  if (ids->empty() || data->empty())
    return Fail(in, "needs segment ids and data of rank 1 or more");
  auto rows = ToDimension(in, ids->back() + 1);
  if (!rows.ok()) return rows.status();
  Shape out = *data;
  out[0] = *rows;
  return OneShape(std::move(out));
}

// UNSORTED_SEGMENT_SUM/PROD/MAX/MIN (unsorted_segment.cc): [num_segments] then the data's
// dimensions past the ids' rank, known at Prepare when the ids and num_segments are constant or
// persistent; every id must be below num_segments.
Outcome UnsortedSegmentRule(const RuleInput& in) {
  auto data = InputShape(in, 0);
  if (!data.ok()) return data.status();
  auto ids = Input(in, 1);
  if (!ids.ok()) return ids.status();
  const auto count = KnownValues(in, 2);
  if (!count || !prepare_internal::IsConstantOrPersistent(**ids)) return Dynamic();
  if (count->size() != 1) return Fail(in, "num_segments must hold one value");
  const Shape ids_shape((*ids)->shape.begin(), (*ids)->shape.end());
  if (ids_shape.size() > data->size() ||
      !std::equal(ids_shape.begin(), ids_shape.end(), data->begin())) {
    return Fail(in, "segment_ids " + ShapeText(ids_shape) + " is not a prefix of the data's " +
                        ShapeText(*data));
  }
  auto segments = ToDimension(in, count->front());
  if (!segments.ok()) return segments.status();
  if (const auto id_values = KnownValues(in, 1)) {
    for (int64_t id : *id_values) {
      if (id >= *segments) {
        return Fail(in, "segment id " + std::to_string(id) + " is not below num_segments " +
                            std::to_string(*segments));
      }
    }
  }
  Shape out = {*segments};
  out.insert(out.end(), data->begin() + static_cast<std::ptrdiff_t>(ids_shape.size()), data->end());
  return OneShape(std::move(out));
}

// WHERE (where.cc): [true elements, rank], known at Prepare only for a constant condition, else
// at Eval from the condition's values (the runtime gives them; bool and integer conditions).
Outcome WhereRule(const RuleInput& in) {
  auto condition = Input(in, 0);
  if (!condition.ok()) return condition.status();
  if (const auto values = KnownValues(in, 0)) {
    const auto count = std::count_if(values->begin(), values->end(), [](int64_t v) { return v; });
    auto rows = ToDimension(in, count);
    if (!rows.ok()) return rows.status();
    return OneShape({*rows, static_cast<int32_t>((*condition)->shape.size())});
  }
  if (!prepare_internal::IsConstantOrPersistent(**condition)) return Dynamic();
  return Fail(in, "the count of true elements of a constant condition is not kept");
}

// SCATTER_ND (scatter_nd.cc): the shape input's values.
Outcome ScatterNdRule(const RuleInput& in) { return ShapeFromValuesRule(in, 2); }

// ONE_HOT (one_hot.cc): the indices' shape with the depth inserted at `axis` (-1: last), known
// at Prepare when the depth is.
Outcome OneHotRule(const RuleInput& in) {
  auto indices = InputShape(in, 0);
  if (!indices.ok()) return indices.status();
  const auto depth = KnownValues(in, 1);
  if (!depth) return Dynamic();
  if (depth->size() != 1) return Fail(in, "depth must be a scalar");
  auto size = ToDimension(in, depth->front());
  if (!size.ok()) return size.status();
  const auto rank = static_cast<int32_t>(indices->size());
  const int32_t axis = in.node.options->axis == -1 ? rank : in.node.options->axis;
  if (axis < 0 || axis > rank) {
    return Fail(in, "axis " + std::to_string(in.node.options->axis) + " is outside [-1, " +
                        std::to_string(rank) + "]");
  }
  Shape out = *indices;
  out.insert(out.begin() + axis, *size);
  return OneShape(std::move(out));
}

// RANGE (range.cc): ceil(|limit - start| / |delta|) values, known at Prepare when the three
// scalars are. Integer bounds are read; float ones are not (Tensor keeps integer values only), so a
// float RANGE of constants keeps the model file's static shape and any other is sized at Eval.
Outcome RangeRule(const RuleInput& in) {
  auto start = Input(in, 0);
  if (!start.ok()) return start.status();
  const auto first = KnownValues(in, 0), limit = KnownValues(in, 1), delta = KnownValues(in, 2);
  if ((*start)->type == TensorType::kFloat32) {
    const Tensor* output = Operand(in.subgraph, in.node.outputs, 0);
    bool constant_bounds = in.node.inputs.size() == 3;
    for (size_t i = 0; i < 3 && constant_bounds; ++i) {
      const Tensor* bound = Operand(in.subgraph, in.node.inputs, i);
      constant_bounds = bound && prepare_internal::IsConstantOrPersistent(*bound);
    }
    if (constant_bounds && output && output->shape.size() == 1 && output->shape[0] >= 0 &&
        !output->has_dynamic_shape()) {
      return OneShape(Shape(output->shape.begin(), output->shape.end()));
    }
    return Dynamic();
  }
  if (!first || !limit || !delta) return Dynamic();
  if (first->size() != 1 || limit->size() != 1 || delta->size() != 1) {
    return Fail(in, "start, limit and delta must be scalars");
  }
  const int64_t s = first->front(), l = limit->front(), d = delta->front();
  if (d == 0) return Fail(in, "delta is 0");
  if (!((s >= l && d < 0) || (s <= l && d > 0)))
    return Fail(in, "delta points away from the limit");
  const double count = std::ceil(std::abs(static_cast<double>(l) - static_cast<double>(s)) /
                                 std::abs(static_cast<double>(d)));
  if (!(count <= static_cast<double>(std::numeric_limits<int32_t>::max()))) {
    return Fail(in, "more values than an int32 dimension holds");
  }
  return OneShape({static_cast<int32_t>(count)});
}

// MATRIX_DIAG (matrix_diag.cc): the diagonals [..., n] become matrices [..., n, n].
Outcome MatrixDiagRule(const RuleInput& in) {
  auto diagonal = InputShape(in, 0);
  if (!diagonal.ok()) return diagonal.status();
  if (diagonal->empty()) return Fail(in, "the diagonal is a scalar");
  Shape out = *diagonal;
  out.push_back(diagonal->back());
  return OneShape(std::move(out));
}

// MATRIX_SET_DIAG (matrix_set_diag.cc): the input's shape; the input must be a matrix or a batch
// of them.
Outcome MatrixSetDiagRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  if (input->size() < 2) return Fail(in, "input " + ShapeText(*input) + " has rank below 2");
  return OneShape(std::move(*input));
}

// SPARSE_TO_DENSE (sparse_to_dense.cc): the shape the output_shape input states, known at Prepare
// only when it is a constant.
Outcome SparseToDenseRule(const RuleInput& in) {
  if (in.node.inputs.size() != 4) return Fail(in, "expects 4 inputs");
  auto output_shape = InputShape(in, 1);
  if (!output_shape.ok()) return output_shape.status();
  if (output_shape->size() != 1)
    return Fail(in, "output shape " + ShapeText(*output_shape) + " is not 1-D");
  return ShapeFromValuesRule(in, 1);
}

// RFFT2D (rfft2d.cc): the last two dimensions become fft_length[0] x (fft_length[1] / 2 + 1).
Outcome Rfft2dRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  if (input->size() < 2) return Fail(in, "input " + ShapeText(*input) + " has rank below 2");
  const auto fft_length = KnownValues(in, 1);
  if (!fft_length) return Dynamic();
  if (fft_length->size() != 2) return Fail(in, "fft_length does not have two entries");
  auto rows = ToDimension(in, (*fft_length)[0]);
  if (!rows.ok()) return rows.status();
  auto columns = ToDimension(in, (*fft_length)[1] / 2 + 1);
  if (!columns.ok()) return columns.status();
  Shape out(input->begin(), input->end() - 2);
  out.push_back(*rows);
  out.push_back(*columns);
  return OneShape(std::move(out));
}

// MULTINOMIAL (random_ops.cc PrepareMultinomial): [logits' batch, num_samples].
Outcome MultinomialRule(const RuleInput& in) {
  if (in.node.inputs.size() != 2 || in.node.outputs.size() != 1) {
    return Fail(in, "expects 2 inputs and 1 output");
  }
  auto logits = InputShape(in, 0);
  if (!logits.ok()) return logits.status();
  if (logits->empty()) return Fail(in, "logits are a scalar");
  const auto num_samples = KnownValues(in, 1);
  if (!num_samples) return Dynamic();
  if (num_samples->size() != 1) return Fail(in, "num_samples is not one value");
  auto samples = ToDimension(in, (*num_samples)[0]);
  if (!samples.ok()) return samples.status();
  return OneShape({(*logits)[0], *samples});
}

}  // namespace tfa::shape_rules
