#include "libanalysis/prepare/folded_values.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "libanalysis/prepare/added_tensors.h"

namespace tfa {
namespace {

using prepare_internal::Elements;
using prepare_internal::Operand;
using Values = std::vector<int64_t>;

class Folder {
 public:
  Folder(const Subgraph& subgraph, const Node& node, const IntValuesOf& values)
      : subgraph_(subgraph), node_(node), values_(values) {}

  std::optional<Values> Fold() const {
    const std::string_view op = node_.op;
    const Tensor* input = Operand(subgraph_, node_.inputs, 0);
    if (input == nullptr) return std::nullopt;
    if (op == "SHAPE") return Values(input->shape.begin(), input->shape.end());
    if (op == "RANK") return Values{static_cast<int64_t>(input->shape.size())};
    if (op == "SIZE") {
      const auto elements = Elements(input->shape);
      if (!elements) return std::nullopt;
      return Values{static_cast<int64_t>(*elements)};
    }
    if (op == "RESHAPE") return Known(0);
    if (op == "MUL") return Multiply();
    if (op == "GATHER") return Gather();
    if (op == "BROADCAST_ARGS") return BroadcastArgs();
    if (op == "CONCATENATION") return Concatenate();
    if (op == "RANGE") return Range();
    if (op == "REDUCE_PROD") return ReduceProd();
    if (op == "STRIDED_SLICE") return StridedSlice();
    return std::nullopt;
  }

 private:
  std::optional<Values> Known(size_t position) const {
    const Tensor* tensor = Operand(subgraph_, node_.inputs, position);
    if (tensor == nullptr) return std::nullopt;
    if (tensor->is_constant() && Elements(tensor->shape) == tensor->int_values->size()) {
      return *tensor->int_values;
    }
    if (!values_) return std::nullopt;
    return values_(node_.inputs[position]);
  }

  size_t Rank(size_t position) const {
    return Operand(subgraph_, node_.inputs, position)->shape.size();
  }

  // Upstream computes int32 outputs in int32 (wrapping is undefined there; a shape never wraps).
  std::optional<Values> Output(Values values) const {
    if (values.size() > kMaxConstantIntValues) return std::nullopt;
    const Tensor* output = Operand(subgraph_, node_.outputs, 0);
    if (output == nullptr) return std::nullopt;
    if (output->type == TensorType::kInt32) {
      for (int64_t& v : values) v = static_cast<int32_t>(v);
    } else if (output->type != TensorType::kInt64) {
      return std::nullopt;
    }
    return values;
  }

  // mul.cc on int32 / int64: elementwise, with a scalar (one element) broadcast.
  std::optional<Values> Multiply() const {
    const auto a = Known(0);
    const auto b = Known(1);
    if (!a || !b || a->empty() || b->empty()) return std::nullopt;
    if (a->size() != b->size() && a->size() != 1 && b->size() != 1) return std::nullopt;
    const size_t n = std::max(a->size(), b->size());
    Values out(n);
    for (size_t i = 0; i < n; ++i) {
      // A malformed model's constants may overflow: nothing is known of the product then.
      if (__builtin_mul_overflow((*a)[a->size() == 1 ? 0 : i], (*b)[b->size() == 1 ? 0 : i],
                                 &out[i])) {
        return std::nullopt;
      }
    }
    return Output(std::move(out));
  }

  // broadcast_args.cc: the two shapes aligned to the right, a 1 taking the other's dimension.
  std::optional<Values> BroadcastArgs() const {
    const auto a = Known(0);
    const auto b = Known(1);
    if (!a || !b) return std::nullopt;
    const size_t n = std::max(a->size(), b->size());
    Values out(n);
    for (size_t i = 0; i < n; ++i) {
      const int64_t x = i + a->size() >= n ? (*a)[i + a->size() - n] : 1;
      const int64_t y = i + b->size() >= n ? (*b)[i + b->size() - n] : 1;
      if (x != y && x != 1 && y != 1) return std::nullopt;  // upstream aborts
      out[i] = x == 1 ? y : x;
    }
    return Output(std::move(out));
  }

  // gather.cc along axis 0 of a 1-D tensor.
  std::optional<Values> Gather() const {
    const auto params = Known(0);
    const auto indices = Known(1);
    if (!params || !indices || Rank(0) != 1) return std::nullopt;
    if (node_.options->axis != 0 || node_.options->batch_dims != 0) return std::nullopt;
    Values out;
    for (int64_t index : *indices) {
      if (index < 0 || static_cast<size_t>(index) >= params->size()) return std::nullopt;
      out.push_back((*params)[static_cast<size_t>(index)]);
    }
    return Output(std::move(out));
  }

  // concatenation.cc of 1-D tensors.
  std::optional<Values> Concatenate() const {
    const int32_t axis = node_.options->axis;
    if (axis != 0 && axis != -1) return std::nullopt;
    Values out;
    for (size_t i = 0; i < node_.inputs.size(); ++i) {
      const auto part = Known(i);
      if (!part || Rank(i) != 1) return std::nullopt;
      out.insert(out.end(), part->begin(), part->end());
    }
    return Output(std::move(out));
  }

  // range.cc: start, start + delta, ... while short of limit.
  std::optional<Values> Range() const {
    const auto start = Known(0);
    const auto limit = Known(1);
    const auto delta = Known(2);
    if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 ||
        delta->size() != 1 || (*delta)[0] == 0) {
      return std::nullopt;
    }
    Values out;
    for (int64_t v = (*start)[0]; (*delta)[0] > 0 ? v < (*limit)[0] : v > (*limit)[0];) {
      if (out.size() == kMaxConstantIntValues) return std::nullopt;
      out.push_back(v);
      if (__builtin_add_overflow(v, (*delta)[0], &v)) break;
    }
    return Output(std::move(out));
  }

  // reduce.cc REDUCE_PROD of a 1-D tensor over its one axis.
  std::optional<Values> ReduceProd() const {
    const auto input = Known(0);
    const auto axes = Known(1);
    if (!input || !axes || Rank(0) != 1 || axes->size() != 1) return std::nullopt;
    if ((*axes)[0] != 0 && (*axes)[0] != -1) return std::nullopt;
    int64_t product = 1;
    for (int64_t v : *input) {
      if (__builtin_mul_overflow(product, v, &product)) return std::nullopt;
    }
    return Output({product});
  }

  // strided_slice.cc on a 1-D tensor with one begin / end / stride entry (a slice of a shape).
  std::optional<Values> StridedSlice() const {
    const auto input = Known(0);
    const auto begin = Known(1);
    const auto end = Known(2);
    const auto strides = Known(3);
    const OpOptions& o = node_.options;
    if (!input || !begin || !end || !strides || Rank(0) != 1) return std::nullopt;
    if (begin->size() != 1 || end->size() != 1 || strides->size() != 1 || (*strides)[0] == 0) {
      return std::nullopt;
    }
    if (o.ellipsis_mask != 0 || o.new_axis_mask != 0) return std::nullopt;
    const auto n = static_cast<int64_t>(input->size());
    const int64_t stride = (*strides)[0];
    // Indices of a malformed model may lie anywhere in int64: clamped before any arithmetic.
    if (stride == INT64_MIN) return std::nullopt;
    const auto clamp = [n, stride](int64_t index) {
      index = std::clamp<int64_t>(index, -n - 1, n + 1);
      if (index < 0) index += n;
      return stride > 0 ? std::clamp<int64_t>(index, 0, n) : std::clamp<int64_t>(index, -1, n - 1);
    };
    int64_t start = (o.begin_mask & 1) ? (stride > 0 ? 0 : n - 1) : clamp((*begin)[0]);
    int64_t stop = 0;
    if (o.shrink_axis_mask & 1) {
      if ((*begin)[0] < -n || (*begin)[0] >= n) return std::nullopt;
      start = (*begin)[0] < 0 ? (*begin)[0] + n : (*begin)[0];
      return Output({(*input)[static_cast<size_t>(start)]});
    }
    if (o.offset) {
      stop = start + std::clamp<int64_t>((*end)[0], -n - 1, n + 1);
    } else {
      stop = (o.end_mask & 1) ? (stride > 0 ? n : -1) : clamp((*end)[0]);
    }
    Values out;
    for (int64_t i = start; stride > 0 ? i < stop : i > stop;) {
      if (i < 0 || i >= n) break;
      out.push_back((*input)[static_cast<size_t>(i)]);
      if (__builtin_add_overflow(i, stride, &i)) break;
    }
    return Output(std::move(out));
  }

  const Subgraph& subgraph_;
  const Node& node_;
  const IntValuesOf& values_;
};

}  // namespace

std::optional<std::vector<int64_t>> FoldedOutputValues(const Subgraph& subgraph, const Node& node,
                                                       const IntValuesOf& values) {
  if (node.kind != NodeKind::kBuiltin || node.outputs.empty()) return std::nullopt;
  return Folder(subgraph, node, values).Fold();
}

}  // namespace tfa
