#include "runtime/delegates/testing/delegate_test_graphs.h"

#include <utility>

namespace tfa::runtime::testing {

std::vector<float> Values(size_t n, uint32_t seed) {
  std::vector<float> values(n);
  uint32_t state = seed * 2654435761u + 1;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state >> 8) / static_cast<float>(1u << 24) - 0.5f;
  }
  return values;
}

size_t Count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

int32_t Constant(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape,
                 uint32_t seed) {
  const size_t n = Count(shape);
  return b.AddConstant(0, name, TensorType::kFloat32, std::move(shape),
                       FloatBytes(Values(n, seed)));
}

int32_t Float(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape) {
  return b.AddTensor(0, name, TensorType::kFloat32, std::move(shape));
}

int32_t Ints(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape,
             std::vector<int32_t> values) {
  return b.AddConstant(0, name, TensorType::kInt32, std::move(shape), Int32Bytes(values));
}

OpOptions Window(Padding padding, int32_t stride, Activation activation) {
  OpOptions o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.fused_activation = activation;
  return o;
}

GraphBuild Unary(const std::string& op) {
  return [op](ModelBuilder& b, int32_t in) {
    const int32_t out = Float(b, "out", {1, 6, 7, 4});
    b.AddNode(0, op, {in}, {out});
    b.SetOutputs(0, {out});
  };
}

GraphBuild Binary(const std::string& op, std::vector<int32_t> other_shape, Activation activation) {
  return [=](ModelBuilder& b, int32_t in) {
    const int32_t other = Constant(b, "other", other_shape, 7);
    const int32_t out = Float(b, "out", {1, 6, 7, 4});
    OpOptions o;
    o.fused_activation = activation;
    b.AddNode(0, op, {in, other}, {out}, o);
    b.SetOutputs(0, {out});
  };
}

}  // namespace tfa::runtime::testing
