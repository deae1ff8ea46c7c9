// OpenCL kernels against the CPU: the ops that move elements (concatenation, reshapes, slices,
// transposes, gathers, splits, packing, tiling).

#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/delegates/testing/opencl_case_generators.h"
#include "runtime/delegates/testing/opencl_node_check.h"
#include "runtime/delegates/testing/opencl_op_properties.h"

namespace tfa::runtime::opencl_property {

void ConcatenationMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(1);
  const int rank = static_cast<int>(shape.size());
  const int axis = *rc::gen::inRange(0, rank);
  const int count = *rc::gen::inRange(1, 5);
  NodeCase c = Op("CONCATENATION", *rc::gen::inRange(1, 3));
  c.node.options.Mutable().axis = *rc::gen::arbitrary<bool>() ? axis : axis - rank;
  std::vector<int32_t> out = shape;
  out[static_cast<size_t>(axis)] = 0;
  for (int i = 0; i < count; ++i) {
    std::vector<int32_t> part = shape;
    part[static_cast<size_t>(axis)] = *rc::gen::inRange(1, 6);
    out[static_cast<size_t>(axis)] += part[static_cast<size_t>(axis)];
    c.inputs.push_back(FloatTensor(part, *rc::gen::weightedElement<bool>({{1, true}, {3, false}})));
  }
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void ReshapeMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1, op == "EXPAND_DIMS" ? 3 : 4);
  std::vector<int32_t> out = shape;
  NodeCase c = Op(op.c_str());
  if (op == "RESHAPE") {
    std::reverse(out.begin(), out.end());
    std::vector<int32_t> new_shape = out;
    c.node.options.Mutable().new_shape = new_shape;
    c.inputs = {FloatTensor(shape), IntConstant(new_shape)};
  } else if (op == "SQUEEZE") {
    out.clear();
    for (int32_t d : shape) {
      if (d != 1) out.push_back(d);
    }
    c.inputs = {FloatTensor(shape)};
  } else {
    const int32_t axis = *rc::gen::inRange(0, static_cast<int32_t>(shape.size()) + 1);
    out.insert(out.begin() + axis, 1);
    c.inputs = {FloatTensor(shape), IntConstant({axis})};
    c.inputs[1].shape = {};
  }
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void SliceMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(3);
  std::vector<int32_t> begin, size, out;
  for (int32_t d : shape) {
    const int32_t b = *rc::gen::inRange(0, d);
    const int32_t s = *rc::gen::arbitrary<bool>() ? -1 : *rc::gen::inRange(1, d - b + 1);
    begin.push_back(b);
    size.push_back(s);
    out.push_back(s == -1 ? d - b : s);
  }
  NodeCase c = Op("SLICE", *rc::gen::inRange(1, 4));
  c.inputs = {FloatTensor(shape), IntConstant(begin), IntConstant(size)};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void StridedSliceMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(3);
  const int rank = static_cast<int>(shape.size());
  std::vector<int32_t> begin, end, strides, out;
  NodeCase c = Op("STRIDED_SLICE", *rc::gen::inRange(1, 5));
  OpOptions& o = c.node.options.Mutable();
  o.begin_mask = *rc::gen::inRange(0, 1 << rank);
  o.end_mask = *rc::gen::inRange(0, 1 << rank);
  for (int d = 0; d < rank; ++d) {
    const int32_t dim = shape[static_cast<size_t>(d)];
    // A non-empty range [lo, hi) walked either way, its ends sometimes written as negative
    // indices; the masks may override them (and empty outputs are cases too).
    const int32_t s = *rc::gen::element(1, 2, 3, -1, -2);
    const int32_t lo = *rc::gen::inRange(0, dim), hi = *rc::gen::inRange(lo + 1, dim + 1);
    int32_t b = s > 0 ? lo : hi - 1, e = s > 0 ? hi : lo - 1;
    if (b > 0 && *rc::gen::arbitrary<bool>()) b -= dim;
    if (e > 0 && *rc::gen::arbitrary<bool>()) e -= dim;
    begin.push_back(b);
    end.push_back(e);
    strides.push_back(s);
    auto clamp = [&](int64_t v) {
      if (v < 0) v += dim;
      return s > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    const int64_t start =
        clamp(((o.begin_mask >> d) & 1) ? (s > 0 ? -2147483648LL : 2147483647LL) : b);
    const int64_t stop =
        clamp(((o.end_mask >> d) & 1) ? (s > 0 ? 2147483647LL : -2147483648LL) : e);
    const int64_t count = s > 0 ? (stop - start + s - 1) / s : (start - stop - s - 1) / -s;
    out.push_back(static_cast<int32_t>(std::max<int64_t>(count, 0)));
  }
  c.inputs = {FloatTensor(shape), IntConstant(begin), IntConstant(end), IntConstant(strides)};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void TransposeMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(2);
  std::vector<int32_t> perm(shape.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int32_t>(i);
  for (size_t i = perm.size(); i > 1; --i)
    std::swap(perm[i - 1], perm[*rc::gen::inRange<size_t>(0, i)]);
  std::vector<int32_t> out;
  for (int32_t p : perm) out.push_back(shape[static_cast<size_t>(p)]);
  NodeCase c = Op("TRANSPOSE", *rc::gen::inRange(1, 5));
  c.inputs = {FloatTensor(shape), IntConstant(perm)};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void DepthSpaceShuffleMatchesCpu(const std::string& op) {
  const int32_t block = *rc::gen::inRange(1, 4);
  const int32_t batch = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 6) * block,
                w = *rc::gen::inRange(1, 6) * block, depth = *rc::gen::inRange(1, 5);
  const bool to_space = op == "DEPTH_TO_SPACE";
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node_data.block_size = block;
  if (to_space) {
    c.inputs = {FloatTensor({batch, h / block, w / block, depth * block * block})};
    c.outputs = {Output({batch, h, w, depth})};
  } else {
    c.inputs = {FloatTensor({batch, h, w, depth})};
    c.outputs = {Output({batch, h / block, w / block, depth * block * block})};
  }
  CheckAgainstCpu(c);
}

void GatherMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(1);
  const int rank = static_cast<int>(shape.size());
  const int axis = *rc::gen::inRange(0, rank);
  const int32_t count = *rc::gen::inRange(1, 8);
  std::vector<int32_t> indices;
  for (int32_t i = 0; i < count; ++i)
    indices.push_back(*rc::gen::inRange(0, shape[static_cast<size_t>(axis)]));
  NodeCase c = Op("GATHER", *rc::gen::inRange(1, 4));
  c.node.options.Mutable().axis = *rc::gen::arbitrary<bool>() ? axis : axis - rank;
  c.inputs = {FloatTensor(shape), IntConstant(indices)};
  std::vector<int32_t> out = shape;
  out[static_cast<size_t>(axis)] = count;
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void SplitMatchesCpu(const std::string& op) {
  std::vector<int32_t> shape = SmallShape(1);
  const int rank = static_cast<int>(shape.size());
  const int axis = *rc::gen::inRange(0, rank);
  const int32_t parts = *rc::gen::inRange(1, 5);
  const bool variable = op == "SPLIT_V";
  std::vector<int32_t> sizes;
  if (variable) {
    shape[static_cast<size_t>(axis)] = 0;
    for (int32_t i = 0; i < parts; ++i) {
      sizes.push_back(*rc::gen::inRange(1, 5));
      shape[static_cast<size_t>(axis)] += sizes.back();
    }
  } else {
    shape[static_cast<size_t>(axis)] = parts * *rc::gen::inRange(1, 4);
    sizes.assign(static_cast<size_t>(parts), shape[static_cast<size_t>(axis)] / parts);
  }
  const int32_t axis_value = *rc::gen::arbitrary<bool>() ? axis : axis - rank;
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node.options.Mutable().num_splits = parts;
  TestTensor axis_tensor = IntConstant({axis_value});
  axis_tensor.shape = {};
  if (variable) {
    c.inputs = {FloatTensor(shape), IntConstant(sizes), axis_tensor};
  } else {
    c.inputs = {axis_tensor, FloatTensor(shape)};
  }
  for (int32_t size : sizes) {
    std::vector<int32_t> out = shape;
    out[static_cast<size_t>(axis)] = size;
    c.outputs.push_back(Output(out));
  }
  CheckAgainstCpu(c);
}

// PACK, UNPACK and TILE have no CPU kernel: the reference moves the elements on the host.
void PackOrUnpackMatchesReference(const std::string& op) {
  const std::vector<int32_t> part = SmallShape(1, 3);
  const int rank = static_cast<int>(part.size()) + 1;
  const int axis = *rc::gen::inRange(0, rank);
  const int32_t count = *rc::gen::inRange(1, 5);
  std::vector<int32_t> packed = part;
  packed.insert(packed.begin() + axis, count);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= packed[static_cast<size_t>(d)];
  for (int d = axis + 1; d < rank; ++d) inner *= packed[static_cast<size_t>(d)];
  // Element (o, k, i) of the packed tensor is element (o, i) of part k.
  auto packed_index = [=](int64_t o, int64_t k, int64_t i) { return (o * count + k) * inner + i; };
  if (op == "PACK") {
    NodeCase c = Op("PACK");
    c.node.options.Mutable().axis = *rc::gen::arbitrary<bool>() ? axis : axis - rank;
    for (int32_t k = 0; k < count; ++k) c.inputs.push_back(FloatTensor(part));
    c.outputs = {Output(packed)};
    CheckAgainstCpu(c, 0, [=](const NodeCase& node, std::vector<TestTensor>& outputs) {
      std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
      for (int32_t k = 0; k < count; ++k) {
        const std::vector<float> in = node.inputs[static_cast<size_t>(k)].Floats();
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i)
            out[static_cast<size_t>(packed_index(o, k, i))] =
                in[static_cast<size_t>(o * inner + i)];
      }
      std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
    });
    return;
  }
  NodeCase c = Op("UNPACK");
  c.node.options.Mutable().axis = *rc::gen::arbitrary<bool>() ? axis : axis - rank;
  c.inputs = {FloatTensor(packed)};
  for (int32_t k = 0; k < count; ++k) c.outputs.push_back(Output(part));
  CheckAgainstCpu(c, 0, [=](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> in = node.inputs[0].Floats();
    for (int32_t k = 0; k < count; ++k) {
      std::vector<float> out(static_cast<size_t>(outer * inner));
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          out[static_cast<size_t>(o * inner + i)] = in[static_cast<size_t>(packed_index(o, k, i))];
      std::memcpy(outputs[static_cast<size_t>(k)].bytes.data(), out.data(),
                  out.size() * sizeof(float));
    }
  });
}

void TileMatchesReference() {
  const std::vector<int32_t> shape = SmallShape(1);
  std::vector<int32_t> multiples, out;
  for (int32_t d : shape) {
    multiples.push_back(*rc::gen::inRange(1, 4));
    out.push_back(d * multiples.back());
  }
  NodeCase c = Op("TILE");
  c.inputs = {FloatTensor(shape), IntConstant(multiples)};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c, 0, [](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> in = node.inputs[0].Floats();
    const std::vector<int32_t>& shape = node.inputs[0].shape;
    const std::vector<int32_t>& out_shape = outputs[0].shape;
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
    for (size_t i = 0; i < out.size(); ++i) {
      size_t rest = i, source = 0, stride = 1;
      for (size_t k = 0; k < shape.size(); ++k) {
        const size_t d = shape.size() - 1 - k;
        const size_t coordinate = rest % static_cast<size_t>(out_shape[d]);
        rest /= static_cast<size_t>(out_shape[d]);
        source += coordinate % static_cast<size_t>(shape[d]) * stride;
        stride *= static_cast<size_t>(shape[d]);
      }
      out[i] = in[source];
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

}  // namespace tfa::runtime::opencl_property
