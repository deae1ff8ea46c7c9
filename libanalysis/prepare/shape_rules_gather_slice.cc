// Shape rules of the ops that take part of a tensor: gathers, slices, splits, top-k.

#include <algorithm>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

// GATHER (gather.cc): params[:axis] + positions[batch_dims:] + params[axis + 1:]. A negative
// batch_dims counts from the end of positions; the batch dimensions of both must agree and lie
// before the axis.
Outcome GatherRule(const RuleInput& in) {
  auto params = InputShape(in, 0);
  if (!params.ok()) return params.status();
  auto positions = InputShape(in, 1);
  if (!positions.ok()) return positions.status();
  auto axis = ResolveAxis(in, in.node.options->axis, params->size());
  if (!axis.ok()) return axis.status();
  int64_t batch_dims = in.node.options->batch_dims;
  if (batch_dims < 0) batch_dims += static_cast<int64_t>(positions->size());
  if (batch_dims < 0 || batch_dims > *axis || static_cast<size_t>(batch_dims) > positions->size()) {
    return Fail(in, "batch_dims " + std::to_string(in.node.options->batch_dims) +
                        " does not fit axis " + std::to_string(*axis) + " and positions " +
                        ShapeText(*positions));
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if ((*params)[static_cast<size_t>(d)] != (*positions)[static_cast<size_t>(d)]) {
      return Fail(in, "batch dimensions of params " + ShapeText(*params) + " and positions " +
                          ShapeText(*positions) + " differ");
    }
  }
  Shape out(params->begin(), params->begin() + *axis);
  out.insert(out.end(), positions->begin() + batch_dims, positions->end());
  out.insert(out.end(), params->begin() + *axis + 1, params->end());
  return OneShape(std::move(out));
}

// GATHER_ND (gather_nd.cc): indices[:-1] + params[indices[-1]:].
Outcome GatherNdRule(const RuleInput& in) {
  auto params = InputShape(in, 0);
  if (!params.ok()) return params.status();
  auto indices = InputShape(in, 1);
  if (!indices.ok()) return indices.status();
  if (indices->empty() || indices->back() < 0 ||
      static_cast<size_t>(indices->back()) > params->size()) {
    return Fail(in,
                "indices " + ShapeText(*indices) + " do not index params " + ShapeText(*params));
  }
  Shape out(indices->begin(), indices->end() - 1);
  out.insert(out.end(), params->begin() + indices->back(), params->end());
  return OneShape(std::move(out));
}

// EMBEDDING_LOOKUP (embedding_lookup.cc): one row of the table per id.
Outcome EmbeddingLookupRule(const RuleInput& in) {
  auto ids = InputShape(in, 0);
  if (!ids.ok()) return ids.status();
  auto table = InputShape(in, 1);
  if (!table.ok()) return table.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *ids, 1, "ids"));
  if (table->empty()) return Fail(in, "the table is a scalar");
  Shape out = *table;
  out[0] = (*ids)[0];
  return OneShape(std::move(out));
}

// EMBEDDING_LOOKUP_SPARSE (embedding_lookup_sparse.cc): inputs (ids [n], indices [n, k],
// dense_shape [k], weights [n], params [rows, e1, ...]); the output is dense_shape[:k-1] + params'
// dimensions after the first. Eval reads dense_shape's values, and Prepare makes the output
// dynamic even when they are constant.
Outcome EmbeddingLookupSparseRule(const RuleInput& in) {
  if (in.node.inputs.size() != 5 || in.node.outputs.size() != 1) {
    return Fail(in, "expects 5 inputs and 1 output");
  }
  std::vector<Shape> shapes;
  for (size_t i = 0; i < 5; ++i) {
    auto shape = InputShape(in, i);
    if (!shape.ok()) return shape.status();
    shapes.push_back(std::move(shape).value());
  }
  const Shape& ids = shapes[0];
  const Shape& indices = shapes[1];
  const Shape& params = shapes[4];
  TFA_RETURN_IF_ERROR(RequireRank(in, ids, 1, "ids"));
  TFA_RETURN_IF_ERROR(RequireRank(in, indices, 2, "indices"));
  TFA_RETURN_IF_ERROR(RequireRank(in, shapes[2], 1, "dense_shape"));
  TFA_RETURN_IF_ERROR(RequireRank(in, shapes[3], 1, "weights"));
  if (indices[0] != ids[0] || indices[0] != shapes[3][0]) {
    return Fail(in, "ids, indices and weights do not have the same number of rows");
  }
  if (params.size() < 2) return Fail(in, "params " + ShapeText(params) + " has rank below 2");
  const auto dense_shape = KnownValues(in, 2);
  if (!dense_shape) return Dynamic();
  if (dense_shape->size() != static_cast<size_t>(indices[1])) {
    return Fail(in, "dense_shape has " + std::to_string(dense_shape->size()) +
                        " entries where indices has " + std::to_string(indices[1]) + " columns");
  }
  if (dense_shape->empty()) return Fail(in, "dense_shape is empty");
  Shape out;
  for (size_t i = 0; i + 1 < dense_shape->size(); ++i) {
    auto dim = ToDimension(in, (*dense_shape)[i]);
    if (!dim.ok()) return dim.status();
    out.push_back(*dim);
  }
  out.insert(out.end(), params.begin() + 1, params.end());
  return OneShape(std::move(out));
}

// HASHTABLE_LOOKUP (hashtable_lookup.cc): inputs (lookup [n], keys [k], values [k, ...]); the
// values' rows found, [n] + values[1:], and the hits [n]. A string output is not resized in
// Prepare: it is sized when Eval writes it.
Outcome HashtableLookupRule(const RuleInput& in) {
  if (in.node.inputs.size() != 3 || in.node.outputs.size() != 2) {
    return Fail(in, "expects 3 inputs and 2 outputs");
  }
  auto lookup = InputShape(in, 0);
  if (!lookup.ok()) return lookup.status();
  auto keys = InputShape(in, 1);
  if (!keys.ok()) return keys.status();
  auto values = Input(in, 2);
  if (!values.ok()) return values.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *lookup, 1, "lookup"));
  TFA_RETURN_IF_ERROR(RequireRank(in, *keys, 1, "keys"));
  const Shape value_shape((*values)->shape.begin(), (*values)->shape.end());
  if (value_shape.empty() || value_shape[0] != (*keys)[0]) {
    return Fail(in, "values " + ShapeText(value_shape) + " do not have one row per key");
  }
  const Shape hits = {(*lookup)[0]};
  if ((*values)->type == TensorType::kString) {
    TFA_RETURN_IF_ERROR(RequireRank(in, value_shape, 1, "string values"));
    return PartlyDynamic({std::nullopt, hits});
  }
  Shape out = value_shape;
  out[0] = (*lookup)[0];
  return Shapes({std::move(out), hits});
}

// STRIDED_SLICE (strided_slice.cc BuildStridedSliceParams + ResizeOutputTensor and
// strided_slice_logic.h): the ellipsis expands to the dimensions begin does not name, a new axis
// is an input dimension of 1, shrunk axes go; with `offset`, end holds sizes.
Outcome StridedSliceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto strides = KnownValues(in, 3);
  const auto begin = KnownValues(in, 1);
  const auto end = KnownValues(in, 2);
  const OpOptions& o = in.node.options;
  if (!strides || !end || (!o.offset && !begin)) return Dynamic();
  const int count = static_cast<int>(end->size());
  if (strides->size() != end->size() || (begin && begin->size() != end->size()) || count > 31) {
    return Fail(in, "begin, end and strides differ in length or exceed 31 entries");
  }
  const auto bit = [](uint32_t mask, int i) { return ((mask >> i) & 1u) != 0; };
  const auto ellipsis = static_cast<uint32_t>(o.ellipsis_mask);
  const auto new_axis = static_cast<uint32_t>(o.new_axis_mask);
  const int input_rank = static_cast<int>(input->size());
  int added = 0;
  for (int i = 0; i < count; ++i) {
    if (!bit(ellipsis, i) && bit(new_axis, i)) ++added;
  }
  const int dims = input_rank + added;
  uint32_t effective_ellipsis = 0, effective_new_axis = 0;
  int ellipsis_start = dims, expanded = 0;
  for (int i = 0; i < dims;) {
    if (bit(ellipsis, i)) {
      ellipsis_start = i;
      const int ellipsis_end = std::max(i + 1, std::min(i + 1 + added + input_rank - count, dims));
      expanded = ellipsis_end - ellipsis_start - 1;
      for (; i < ellipsis_end; ++i) effective_ellipsis |= 1u << i;
      continue;
    }
    if (bit(new_axis, i - expanded)) effective_new_axis |= 1u << i;
    ++i;
  }
  Shape out;
  int added_ellipsis = 0, added_axes = 0;
  for (int i = 0; i < dims; ++i) {
    int64_t size = 0;
    int64_t start = 0, stop = 0, stride = 1;
    bool begin_masked = false, end_masked = false, shrink = false;
    // Masks that do not fit the input (a malformed model) would index past it.
    const int source = i - added_axes;
    if (!bit(effective_new_axis, i) && (source < 0 || source >= input_rank)) {
      return Fail(in, "the masks do not fit input " + ShapeText(*input));
    }
    if (bit(effective_ellipsis, i)) {
      added_ellipsis = std::max(0, i - ellipsis_start);
      begin_masked = end_masked = true;
      size = (*input)[static_cast<size_t>(source)];
    } else if (bit(effective_new_axis, i)) {
      stop = 1;
      size = 1;
      ++added_axes;
    } else if (i >= count + expanded) {
      begin_masked = end_masked = true;
      size = (*input)[static_cast<size_t>(source)];
    } else {
      const int k = i - added_ellipsis;
      if (k < 0 || k >= count) return Fail(in, "the masks do not fit begin, end and strides");
      if (!o.offset) start = (*begin)[static_cast<size_t>(k)];
      stop = (*end)[static_cast<size_t>(k)];
      stride = (*strides)[static_cast<size_t>(k)];
      begin_masked = bit(static_cast<uint32_t>(o.begin_mask), k);
      end_masked = bit(static_cast<uint32_t>(o.end_mask), k);
      shrink = bit(static_cast<uint32_t>(o.shrink_axis_mask), k);
      size = (*input)[static_cast<size_t>(source)];
    }
    if (stride == 0) return Fail(in, "stride value has to be non-zero");
    if (shrink) continue;
    int64_t extent = 0;
    if (o.offset) {
      extent = stop;
    } else {
      int64_t first = 0;
      if (size != 0) {
        first = begin_masked ? (stride > 0 ? 0 : size - 1) : start;
        if (!begin_masked && first < 0) first += size;
        first = stride > 0 ? std::clamp<int64_t>(first, 0, size)
                           : std::clamp<int64_t>(first, -1, size - 1);
      }
      int64_t last = stop;
      if (last < 0) last += size;
      last =
          stride > 0 ? std::clamp<int64_t>(last, 0, size) : std::clamp<int64_t>(last, -1, size - 1);
      if (end_masked) last = stride > 0 ? size : -1;
      extent = last - first;
    }
    int64_t dim = 0;
    if ((extent < 0) == (stride < 0)) {
      dim = stride < 0 ? (extent + 1) / stride + 1 : (extent == 0 ? 0 : (extent - 1) / stride + 1);
    }
    auto d = ToDimension(in, dim);
    if (!d.ok()) return d.status();
    out.push_back(*d);
  }
  return OneShape(std::move(out));
}

// SLICE (slice.cc): size -1 takes the rest of the dimension.
Outcome SliceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto begin = KnownValues(in, 1);
  const auto size = KnownValues(in, 2);
  if (!begin || !size) return Dynamic();
  if (begin->size() != input->size() || size->size() != input->size()) {
    return Fail(in, "begin and size do not match input " + ShapeText(*input));
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    const int64_t extent = (*size)[d] == -1 ? (*input)[d] - (*begin)[d] : (*size)[d];
    if ((*begin)[d] < 0 || extent < 0 || (*begin)[d] + extent > (*input)[d]) {
      return Fail(in, "slice [" + std::to_string((*begin)[d]) + ", +" + std::to_string(extent) +
                          ") is outside dimension " + std::to_string(d) + " of " +
                          ShapeText(*input));
    }
    out.push_back(static_cast<int32_t>(extent));
  }
  return OneShape(std::move(out));
}

// SPLIT (split.cc): inputs (axis, value); the axis divides evenly among the outputs.
Outcome SplitRule(const RuleInput& in) {
  auto input = InputShape(in, 1);
  if (!input.ok()) return input.status();
  const auto axis_value = KnownValues(in, 0);
  if (!axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  const auto parts = static_cast<int32_t>(in.node.outputs.size());
  const int32_t extent = (*input)[static_cast<size_t>(*axis)];
  if (parts == 0 || extent % parts != 0) {
    return Fail(in, "dimension " + std::to_string(extent) + " does not split into " +
                        std::to_string(parts));
  }
  Shape out = *input;
  out[static_cast<size_t>(*axis)] = extent / parts;
  return Shapes(std::vector<Shape>(static_cast<size_t>(parts), out));
}

// SPLIT_V (split_v.cc): inputs (value, size_splits, axis); one size -1 takes the rest.
Outcome SplitVRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto sizes = KnownValues(in, 1);
  const auto axis_value = KnownValues(in, 2);
  if (!sizes || !axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  if (sizes->size() != in.node.outputs.size()) {
    return Fail(in, "size_splits has " + std::to_string(sizes->size()) + " entries for " +
                        std::to_string(in.node.outputs.size()) + " outputs");
  }
  const int32_t extent = (*input)[static_cast<size_t>(*axis)];
  int64_t known = 0;
  int unknown = -1;
  for (size_t i = 0; i < sizes->size(); ++i) {
    if ((*sizes)[i] == -1) {
      if (unknown != -1) return Fail(in, "size_splits has more than one -1");
      unknown = static_cast<int>(i);
    } else {
      known += (*sizes)[i];
    }
  }
  std::vector<Shape> shapes;
  for (size_t i = 0; i < sizes->size(); ++i) {
    const int64_t part = static_cast<int>(i) == unknown ? extent - known : (*sizes)[i];
    if (part < 0) return Fail(in, "size_splits exceed dimension " + std::to_string(extent));
    Shape out = *input;
    out[static_cast<size_t>(*axis)] = static_cast<int32_t>(part);
    shapes.push_back(std::move(out));
  }
  if (unknown == -1 && known != extent) {
    return Fail(in,
                "size_splits sum to " + std::to_string(known) + ", not " + std::to_string(extent));
  }
  return Shapes(std::move(shapes));
}

// TOPK_V2 (topk_v2.cc): values and indices keep all but the last dimension, which becomes k.
Outcome TopKRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto k = KnownValues(in, 1);
  if (!k) return Dynamic();
  if (k->size() != 1) return Fail(in, "k has " + std::to_string(k->size()) + " values, not 1");
  if (input->empty() || k->front() > input->back() || k->front() < 0) {
    return Fail(in, "k = " + std::to_string(k->front()) + " does not fit input " +
                        ShapeText(*input) + " (0 <= k <= its last dimension)");
  }
  Shape out = *input;
  out.back() = static_cast<int32_t>(k->front());
  return Shapes({out, out});
}

}  // namespace tfa::shape_rules
