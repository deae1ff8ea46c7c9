#include "runtime/delegates/testing/opencl_case_generators.h"

#include <rapidcheck.h>

#include <cstring>

namespace tfa::runtime::opencl_property {

namespace {

uint32_t NextRandom(uint64_t& state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

std::vector<uint8_t> FloatData(int64_t n, float lo, float hi) {
  uint64_t state = *rc::gen::arbitrary<uint64_t>();
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values)
    v = lo + (hi - lo) * static_cast<float>(NextRandom(state) >> 8) / static_cast<float>(1 << 23);
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace

std::vector<uint8_t> IntBytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TestTensor FloatTensor(std::vector<int32_t> shape, bool constant, float lo, float hi) {
  TestTensor t;
  t.shape = std::move(shape);
  t.bytes = FloatData(t.NumElements(), lo, hi);
  t.is_constant = constant;
  return t;
}

TestTensor IntConstant(std::vector<int32_t> values) {
  TestTensor t;
  t.type = TensorType::kInt32;
  t.shape = {static_cast<int32_t>(values.size())};
  t.bytes = IntBytes(values);
  t.is_constant = true;
  return t;
}

TestTensor Output(std::vector<int32_t> shape, TensorType type) {
  TestTensor t;
  t.type = type;
  t.shape = std::move(shape);
  return t;
}

// Spatial extents: mostly small, sometimes odd and large.
int32_t SpatialSize() {
  return *rc::gen::weightedOneOf<int32_t>(
      {{8, rc::gen::inRange(1, 10)}, {2, rc::gen::inRange(10, 40)}, {1, rc::gen::inRange(40, 97)}});
}

// Channel counts: most not a multiple of 4; some wide enough for the CPU GEMM's full 16-column
// blocks and, with a window, its 256-deep K blocks.
int32_t Channels() {
  return *rc::gen::weightedOneOf<int32_t>(
      {{6, rc::gen::inRange(1, 14)}, {1, rc::gen::inRange(14, 48)}});
}

// A shape of small dims, of rank min_rank..max_rank.
std::vector<int32_t> SmallShape(int min_rank, int max_rank) {
  const int rank = *rc::gen::inRange(min_rank, max_rank + 1);
  std::vector<int32_t> shape;
  for (int d = 0; d < rank; ++d) shape.push_back(*rc::gen::inRange(1, 7));
  return shape;
}

Activation FusedActivation() {
  return *rc::gen::element(Activation::kNone, Activation::kRelu, Activation::kReluN1To1,
                           Activation::kRelu6);
}

Padding AnyPadding() { return *rc::gen::element(Padding::kSame, Padding::kValid); }

int32_t WindowOut(Padding padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation) {
  const int32_t effective = (filter - 1) * dilation + 1;
  if (padding == Padding::kSame) return (in + stride - 1) / stride;
  return (in - effective + stride) / stride;
}

NodeCase Op(const char* op, int32_t version) {
  NodeCase c;
  c.node.op = op;
  c.node.version = version;
  return c;
}

Window AnyWindow(bool dilated) {
  Window g;
  g.batch = *rc::gen::weightedElement<int32_t>({{4, 1}, {1, 2}});
  g.h = SpatialSize();
  g.w = SpatialSize();
  g.kh = *rc::gen::inRange(1, 6);
  g.kw = *rc::gen::inRange(1, 6);
  g.sh = *rc::gen::inRange(1, 4);
  g.sw = *rc::gen::inRange(1, 4);
  if (dilated) {
    g.dh = *rc::gen::inRange(1, 4);
    g.dw = *rc::gen::inRange(1, 4);
  }
  g.padding = AnyPadding();
  RC_PRE(g.oh() >= 1 && g.ow() >= 1);
  return g;
}

// The maps of segmentation heads: 128..256 wide, a 1x1 or 3x3 window, stride 1 or 2.
Window HeadWindow() {
  Window g;
  g.batch = 1;
  g.h = *rc::gen::inRange(128, 257);
  g.w = *rc::gen::inRange(128, 257);
  g.kh = g.kw = *rc::gen::element(1, 3);
  g.sh = g.sw = *rc::gen::inRange(1, 3);
  g.padding = AnyPadding();
  return g;
}

ConvCase AnyConvCase(bool dilated) {
  if (*rc::gen::weightedElement<bool>({{1, true}, {9, false}})) {
    return {HeadWindow(), *rc::gen::inRange(1, 9), *rc::gen::inRange(1, 9)};
  }
  return {AnyWindow(dilated), Channels(), Channels()};
}

OpOptions WindowOptions(const Window& g) {
  OpOptions o;
  o.padding = g.padding;
  o.stride_h = g.sh;
  o.stride_w = g.sw;
  o.dilation_h = g.dh;
  o.dilation_w = g.dw;
  o.fused_activation = FusedActivation();
  return o;
}

}  // namespace tfa::runtime::opencl_property
