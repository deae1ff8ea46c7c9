// Differential property tests: every kernel of the OpenCL delegate against the runtime's CPU
// kernel for the same op, node by node, on random shapes (channel counts that are not a multiple
// of 4, odd and large spatial sizes, broadcasts) and every option combination the gpu profile
// accepts. Ops the runtime has no CPU kernel for are held to a host reference written here from
// upstream's definition of the op.
//
// The OpenCL side runs the node as the partition kernel does (EncodeNode, buffers for the tensors
// the partition kernel puts on the device, the steps enqueued in order), so what passes here is
// what a partition computes. The op program is built once per test process.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/delegates/opencl/opencl_program.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

// The device and the op program, shared by every property of the process.
struct ClRunner {
  std::unique_ptr<OpenClDevice> device;
  std::unique_ptr<OpenClProgram> program;
  std::string unavailable;  // why there is no device, when there is none
};

const ClRunner& Runner() {
  static const ClRunner runner = [] {
    ClRunner r;
    auto device = OpenClDevice::Open(0, 0);
    if (!device.ok()) {
      r.unavailable = device.status().message();
      return r;
    }
    r.device = std::move(*device);
    auto program = OpenClProgram::Build(*r.device);
    if (!program.ok()) {
      r.unavailable = program.status().message();
      return r;
    }
    r.program = std::move(*program);
    return r;
  }();
  return runner;
}

struct TestTensor {
  TensorType type = TensorType::kFloat32;
  std::vector<int32_t> shape;
  std::vector<uint8_t> bytes;
  bool is_constant = false;

  int64_t NumElements() const {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    return n;
  }
  std::vector<float> Floats() const {
    std::vector<float> values(bytes.size() / sizeof(float));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
  }
};

// One node and its tensors; an input with no shape and no bytes is absent (-1).
struct NodeCase {
  Node node;
  NodeData node_data;
  std::vector<uint8_t> custom_options;
  std::vector<TestTensor> inputs;
  std::vector<TestTensor> outputs;  // type and shape; the runs fill the bytes
};

bool Absent(const TestTensor& t) { return t.shape.empty() && t.bytes.empty(); }

// Computes the expected outputs of an op the runtime has no CPU kernel for.
using Reference = std::function<void(const NodeCase&, std::vector<TestTensor>&)>;

// Tensors as kernels see them, pointing into `c`; outputs get zeroed bytes.
struct BoundTensors {
  std::vector<RuntimeTensor> inputs, outputs;
  KernelContext context;
};

void Bind(NodeCase& c, BoundTensors& bound) {
  bound.inputs.clear();
  bound.outputs.clear();
  for (TestTensor& t : c.inputs) {
    RuntimeTensor r;
    r.type = t.type;
    r.shape = t.shape;
    r.data = t.bytes.data();
    r.bytes = t.bytes.size();
    r.is_constant = t.is_constant;
    bound.inputs.push_back(r);
  }
  for (TestTensor& t : c.outputs) {
    t.bytes.assign(static_cast<size_t>(t.NumElements()) * ElementSize(t.type).value_or(4), 0);
    RuntimeTensor r;
    r.type = t.type;
    r.shape = t.shape;
    r.data = t.bytes.data();
    r.bytes = t.bytes.size();
    bound.outputs.push_back(r);
  }
  c.node_data.custom_options = c.custom_options;
  bound.context = KernelContext();
  bound.context.node = &c.node;
  bound.context.node_data = &c.node_data;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    bound.context.inputs.push_back(Absent(c.inputs[i]) ? nullptr : &bound.inputs[i]);
  for (RuntimeTensor& r : bound.outputs) bound.context.outputs.push_back(&r);
}

Result<std::vector<TestTensor>> RunCpu(NodeCase c) {
  const KernelRegistration* cpu = FindCpuKernel(c.node.op);
  if (!cpu) return Status::Error("no CPU kernel for " + c.node.op);
  BoundTensors bound;
  Bind(c, bound);
  TFA_RETURN_IF_ERROR(cpu->prepare(bound.context).WithContext("CPU prepare"));
  std::vector<uint8_t> scratch(static_cast<size_t>(bound.context.scratch_bytes));
  bound.context.scratch = scratch.data();
  TFA_RETURN_IF_ERROR(cpu->eval(bound.context).WithContext("CPU eval"));
  return c.outputs;
}

// The node on the OpenCL device, with the buffers the partition kernel would give it: float32
// tensors (any 4-byte type for the ops that move elements), constants other than float32 read on
// the host only.
Result<std::vector<TestTensor>> RunOpenCl(NodeCase c) {
  const ClRunner& runner = Runner();
  const OpenClDevice& device = *runner.device;
  BoundTensors bound;
  Bind(c, bound);
  if (const KernelRegistration* cpu = FindCpuKernel(c.node.op))
    TFA_RETURN_IF_ERROR(cpu->prepare(bound.context).WithContext("CPU prepare"));
  const bool any_type = OpenClMovesAnyElementType(c.node.op);
  std::vector<ClMem> owned;
  auto buffer_for = [&](const RuntimeTensor& t, bool upload) -> Result<cl_mem> {
    if (!any_type && t.type != TensorType::kFloat32) return nullptr;
    if (upload && t.is_constant && t.type != TensorType::kFloat32) return nullptr;
    auto buffer = CreateBuffer(device, static_cast<size_t>(t.bytes));
    if (!buffer.ok()) return buffer.status();
    if (upload && t.bytes > 0) {
      TFA_RETURN_IF_ERROR(
          CheckCl(clEnqueueWriteBuffer(device.queue(), buffer->get(), CL_TRUE, 0,
                                       static_cast<size_t>(t.bytes), t.data, 0, nullptr, nullptr),
                  "clEnqueueWriteBuffer"));
    }
    owned.push_back(std::move(*buffer));
    return owned.back().get();
  };
  ClNodeBuffers buffers;
  for (const RuntimeTensor* t : bound.context.inputs) {
    if (!t) {
      buffers.inputs.push_back(nullptr);
      continue;
    }
    auto buffer = buffer_for(*t, true);
    if (!buffer.ok()) return buffer.status();
    buffers.inputs.push_back(*buffer);
  }
  for (const RuntimeTensor* t : bound.context.outputs) {
    auto buffer = buffer_for(*t, false);
    if (!buffer.ok()) return buffer.status();
    buffers.outputs.push_back(*buffer);
  }
  auto empty = CreateBuffer(device, 4);
  if (!empty.ok()) return empty.status();
  buffers.empty = empty->get();
  auto steps = EncodeNode(bound.context, buffers, *runner.program, device);
  if (!steps.ok()) return steps.status().WithContext("EncodeNode");
  for (const ClStep& step : *steps) TFA_RETURN_IF_ERROR(EnqueueStep(device.queue(), step));
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    if (!buffers.outputs[i] || c.outputs[i].bytes.empty()) continue;
    TFA_RETURN_IF_ERROR(CheckCl(clEnqueueReadBuffer(device.queue(), buffers.outputs[i], CL_TRUE, 0,
                                                    c.outputs[i].bytes.size(),
                                                    c.outputs[i].bytes.data(), 0, nullptr, nullptr),
                                "clEnqueueReadBuffer"));
  }
  TFA_RETURN_IF_ERROR(CheckCl(clFinish(device.queue()), "clFinish"));
  return c.outputs;
}

std::string ShapeText(const std::vector<int32_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

// Empty when `got` matches `want`: float32 elements within `tolerance` of max(1, |want|) (NaN
// matches NaN), other types byte for byte.
std::string Difference(const std::vector<TestTensor>& got, const std::vector<TestTensor>& want,
                       double tolerance) {
  for (size_t o = 0; o < want.size(); ++o) {
    const TestTensor& g = got[o];
    const TestTensor& w = want[o];
    const std::string where = "output " + std::to_string(o) + " " + ShapeText(w.shape);
    if (g.bytes.size() != w.bytes.size()) return where + ": sizes differ";
    if (w.type != TensorType::kFloat32) {
      for (size_t i = 0; i < w.bytes.size(); ++i) {
        if (g.bytes[i] != w.bytes[i])
          return where + ": byte " + std::to_string(i) + " is " + std::to_string(g.bytes[i]) +
                 ", want " + std::to_string(w.bytes[i]);
      }
      continue;
    }
    const std::vector<float> gv = g.Floats(), wv = w.Floats();
    for (size_t i = 0; i < wv.size(); ++i) {
      if (std::isnan(wv[i]) && std::isnan(gv[i])) continue;
      const double error = std::fabs(static_cast<double>(gv[i]) - wv[i]);
      if (!(error <= tolerance * std::max(1.0, std::fabs(static_cast<double>(wv[i]))))) {
        return where + ": element " + std::to_string(i) + " is " + std::to_string(gv[i]) +
               ", want " + std::to_string(wv[i]);
      }
    }
  }
  return {};
}

std::string Describe(const NodeCase& c) {
  std::string s = c.node.op + " v" + std::to_string(c.node.version) + " inputs";
  for (const TestTensor& t : c.inputs) {
    s += ' ';
    s += Absent(t) ? "-" : ShapeText(t.shape);
  }
  s += " outputs";
  for (const TestTensor& t : c.outputs) {
    s += ' ';
    s += ShapeText(t.shape);
  }
  return s;
}

// The property every op shares: the device computes what the CPU kernel (or `reference`)
// computes, within `tolerance` relative to max(1, |expected|).
void CheckAgainstCpu(const NodeCase& c, double tolerance = 1e-4,
                     const Reference& reference = nullptr) {
  RC_LOG() << Describe(c) << "\n";
  std::vector<TestTensor> want;
  if (reference) {
    want = c.outputs;
    for (TestTensor& t : want)
      t.bytes.assign(static_cast<size_t>(t.NumElements()) * ElementSize(t.type).value_or(4), 0);
    reference(c, want);
  } else {
    auto cpu = RunCpu(c);
    if (!cpu.ok()) RC_FAIL("the CPU kernel refused the case: " + cpu.status().message());
    want = std::move(*cpu);
  }
  auto gpu = RunOpenCl(c);
  if (!gpu.ok()) RC_FAIL("the OpenCL delegate refused the case: " + gpu.status().message());
  const std::string difference = Difference(*gpu, want, tolerance);
  if (!difference.empty()) RC_FAIL(Describe(c) + ": " + difference);
}

// ---- Generators ------------------------------------------------------------------------------

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

std::vector<uint8_t> IntBytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TestTensor FloatTensor(std::vector<int32_t> shape, bool constant = false, float lo = -2.0f,
                       float hi = 2.0f) {
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

TestTensor Output(std::vector<int32_t> shape, TensorType type = TensorType::kFloat32) {
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
std::vector<int32_t> SmallShape(int min_rank = 1, int max_rank = 4) {
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

NodeCase Op(const char* op, int32_t version = 1) {
  NodeCase c;
  c.node.op = op;
  c.node.version = version;
  return c;
}

// ---- Convolutions ----------------------------------------------------------------------------

// Batch, spatial extents and window options of a conv or pool, with an output of at least 1x1.
struct Window {
  int32_t batch, h, w, kh, kw, sh, sw, dh = 1, dw = 1;
  Padding padding;
  int32_t oh() const { return WindowOut(padding, h, kh, sh, dh); }
  int32_t ow() const { return WindowOut(padding, w, kw, sw, dw); }
};

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

// A window and channel counts: mostly AnyWindow's, sometimes a segmentation head's (few
// channels, so that the CPU reference stays quick).
struct ConvCase {
  Window g;
  int32_t in_c, out_c;
};

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

void Conv2DMatchesCpu() {
  const auto [g, in_c, out_c] = AnyConvCase(true);
  NodeCase c = Op("CONV_2D", *rc::gen::inRange(1, 4));
  c.node.options = WindowOptions(g);
  c.inputs = {FloatTensor({g.batch, g.h, g.w, in_c}), FloatTensor({out_c, g.kh, g.kw, in_c}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.outputs = {Output({g.batch, g.oh(), g.ow(), out_c})};
  CheckAgainstCpu(c);
}

void DepthwiseConv2DMatchesCpu() {
  const Window g = AnyConvCase(true).g;
  const int32_t in_c = Channels(), multiplier = *rc::gen::inRange(1, 4);
  NodeCase c = Op("DEPTHWISE_CONV_2D", *rc::gen::inRange(1, 3));
  c.node.options = WindowOptions(g);
  c.node.options.Mutable().depth_multiplier = multiplier;
  const int32_t out_c = in_c * multiplier;
  c.inputs = {FloatTensor({g.batch, g.h, g.w, in_c}), FloatTensor({1, g.kh, g.kw, out_c}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.outputs = {Output({g.batch, g.oh(), g.ow(), out_c})};
  CheckAgainstCpu(c);
}

void TransposeConvMatchesCpu() {
  const int32_t batch = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 12),
                w = *rc::gen::inRange(1, 12), in_c = Channels(), out_c = Channels();
  const int32_t kh = *rc::gen::inRange(1, 6), kw = *rc::gen::inRange(1, 6);
  const int32_t sh = *rc::gen::inRange(1, 4), sw = *rc::gen::inRange(1, 4);
  const Padding padding = AnyPadding();
  // The output extents the converter writes: SAME in * stride, VALID (in - 1) * stride + k.
  const int32_t oh = padding == Padding::kSame ? h * sh : (h - 1) * sh + kh;
  const int32_t ow = padding == Padding::kSame ? w * sw : (w - 1) * sw + kw;
  NodeCase c = Op("TRANSPOSE_CONV", *rc::gen::inRange(1, 4));
  c.node.options.Mutable().padding = padding;
  c.node.options.Mutable().stride_h = sh;
  c.node.options.Mutable().stride_w = sw;
  c.inputs = {IntConstant({batch, oh, ow, out_c}), FloatTensor({out_c, kh, kw, in_c}, true),
              FloatTensor({batch, h, w, in_c})};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.node.options.Mutable().fused_activation = FusedActivation();
  c.outputs = {Output({batch, oh, ow, out_c})};
  CheckAgainstCpu(c);
}

void Convolution2DTransposeBiasMatchesCpu() {
  const int32_t batch = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 12),
                w = *rc::gen::inRange(1, 12), in_c = Channels(), out_c = Channels();
  const int32_t kh = *rc::gen::inRange(1, 6), kw = *rc::gen::inRange(1, 6);
  const int32_t sh = *rc::gen::inRange(1, 4), sw = *rc::gen::inRange(1, 4);
  const bool same = *rc::gen::arbitrary<bool>();
  const int32_t pad_h = same ? std::max(0, kh - (h - 1) % sh - 1) : 0;
  const int32_t pad_w = same ? std::max(0, kw - (w - 1) % sw - 1) : 0;
  NodeCase c = Op("Convolution2DTransposeBias");
  c.node.kind = NodeKind::kCustom;
  // TfLiteTransposeConvParams: padding (1 SAME, 2 VALID), stride_width, stride_height.
  const int32_t params[3] = {same ? 1 : 2, sw, sh};
  c.custom_options.resize(sizeof(params));
  std::memcpy(c.custom_options.data(), params, sizeof(params));
  c.inputs = {FloatTensor({batch, h, w, in_c}), FloatTensor({out_c, kh, kw, in_c}, true),
              FloatTensor({out_c}, true)};
  c.outputs = {Output({batch, sh * (h - 1) + kh - pad_h, sw * (w - 1) + kw - pad_w, out_c})};
  CheckAgainstCpu(c);
}

void FullyConnectedMatchesCpu() {
  const int32_t units = *rc::gen::inRange(1, 40);
  std::vector<int32_t> in_shape = SmallShape(1);
  in_shape.back() = *rc::gen::weightedOneOf<int32_t>(
      {{3, rc::gen::inRange(1, 70)}, {1, rc::gen::inRange(250, 600)}});
  const int32_t in_dim = in_shape.back();
  int32_t batch = 1;
  for (size_t d = 0; d + 1 < in_shape.size(); ++d) batch *= in_shape[d];
  NodeCase c = Op("FULLY_CONNECTED", *rc::gen::inRange(1, 10));
  c.node.options.Mutable().fused_activation = FusedActivation();
  c.node.options.Mutable().keep_num_dims = *rc::gen::arbitrary<bool>();
  c.inputs = {FloatTensor(in_shape), FloatTensor({units, in_dim}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({units}, true));
  std::vector<int32_t> out_shape = {batch, units};
  if (c.node.options->keep_num_dims) {
    out_shape = in_shape;
    out_shape.back() = units;
  }
  c.outputs = {Output(out_shape)};
  CheckAgainstCpu(c);
}

// ---- Element-wise ----------------------------------------------------------------------------

// Two shapes that broadcast as the gpu profile takes them: equal, one side 1 on some dims, or a
// lower-rank operand right-aligned.
// Sometimes a segmentation head's map ([1, H, W, C] up to 256 wide) with an operand broadcast
// over pixels ([1, 1, 1, C], [C]) or channels ([1, H, W, 1]).
std::pair<std::vector<int32_t>, std::vector<int32_t>> BroadcastShapes() {
  std::vector<int32_t> out = SmallShape(1);
  const int kind = *rc::gen::weightedElement<int>({{7, 0}, {2, 1}, {1, 2}});
  if (kind == 1) out[out.size() - 1] = *rc::gen::inRange(1, 80);  // a long row
  if (kind == 2) {
    out = {1, *rc::gen::inRange(64, 257), *rc::gen::inRange(64, 257), *rc::gen::inRange(1, 9)};
  }
  std::vector<int32_t> a = out, b = out;
  for (size_t d = 0; d < out.size(); ++d) {
    const int pick = *rc::gen::inRange(0, 4);
    if (pick == 1) a[d] = 1;
    if (pick == 2) b[d] = 1;
  }
  const size_t drop = *rc::gen::inRange<size_t>(0, b.size());
  b.erase(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(drop));
  if (*rc::gen::arbitrary<bool>()) std::swap(a, b);
  return {a, b};
}

std::vector<int32_t> BroadcastOut(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int32_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    out[i] = std::max(da, db);
  }
  return out;
}

// Element `index` of the output, read from an operand of `shape` with broadcasting.
size_t BroadcastIndex(const std::vector<int32_t>& shape, const std::vector<int32_t>& out,
                      int64_t index) {
  size_t offset = 0, stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t o = out.size() - 1 - k;
    const int64_t coordinate = index % out[o];
    index /= out[o];
    if (k < shape.size()) {
      const int32_t dim = shape[shape.size() - 1 - k];
      if (dim != 1) offset += static_cast<size_t>(coordinate) * stride;
      stride *= static_cast<size_t>(dim);
    }
  }
  return offset;
}

// A host reference for binary ops without a CPU kernel.
Reference BinaryReference(float (*f)(float, float)) {
  return [f](const NodeCase& c, std::vector<TestTensor>& outputs) {
    const std::vector<float> a = c.inputs[0].Floats(), b = c.inputs[1].Floats();
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = f(a[BroadcastIndex(c.inputs[0].shape, outputs[0].shape, static_cast<int64_t>(i))],
                 b[BroadcastIndex(c.inputs[1].shape, outputs[0].shape, static_cast<int64_t>(i))]);
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  };
}

void BinaryOpMatchesCpu(const std::string& op) {
  auto [a, b] = BroadcastShapes();
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  const bool positive_base = op == "POW";
  const bool divides = op == "DIV" || op == "FLOOR_DIV" || op == "FLOOR_MOD";
  c.inputs = {FloatTensor(a, false, positive_base ? 0.1f : -4.0f, 4.0f),
              FloatTensor(b, *rc::gen::arbitrary<bool>(), divides ? 0.25f : -2.0f, 2.0f)};
  if (divides && *rc::gen::arbitrary<bool>()) {
    // Negative divisors too: FLOOR_MOD takes the divisor's sign.
    std::vector<float> values = c.inputs[1].Floats();
    for (float& v : values) v = -v;
    std::memcpy(c.inputs[1].bytes.data(), values.data(), values.size() * sizeof(float));
  }
  if (op == "ADD" || op == "SUB" || op == "MUL" || op == "DIV")
    c.node.options.Mutable().fused_activation = FusedActivation();
  c.outputs = {Output(BroadcastOut(a, b))};
  if (op == "POW") {
    CheckAgainstCpu(c, 1e-4, BinaryReference([](float x, float y) { return std::pow(x, y); }));
  } else if (op == "FLOOR_DIV") {
    CheckAgainstCpu(c, 1e-4, BinaryReference([](float x, float y) { return std::floor(x / y); }));
  } else if (op == "FLOOR_MOD") {
    // std::fmod with the sign of the divisor, as upstream's FloorMod.
    CheckAgainstCpu(c, 1e-4, BinaryReference([](float x, float y) {
                      const float r = std::fmod(x, y);
                      return r != 0.0f && ((r < 0.0f) != (y < 0.0f)) ? r + y : r;
                    }));
  } else {
    CheckAgainstCpu(c);
  }
}

void PreluMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(2);
  std::vector<int32_t> alpha(shape.begin() + 1, shape.end());
  for (int32_t& d : alpha) d = *rc::gen::arbitrary<bool>() ? 1 : d;
  NodeCase c = Op("PRELU");
  c.inputs = {FloatTensor(shape), FloatTensor(alpha, true)};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c);
}

// A host reference for unary ops without a CPU kernel.
Reference UnaryReference(float (*f)(float)) {
  return [f](const NodeCase& c, std::vector<TestTensor>& outputs) {
    std::vector<float> values = c.inputs[0].Floats();
    for (float& v : values) v = f(v);
    std::memcpy(outputs[0].bytes.data(), values.data(), values.size() * sizeof(float));
  };
}

void UnaryOpMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1);
  const bool positive = op == "LOG" || op == "SQRT" || op == "RSQRT";
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.inputs = {FloatTensor(shape, false, positive ? 0.05f : -8.0f, 8.0f)};
  c.node.options.Mutable().alpha = *rc::gen::element(0.0f, 0.2f, 1.5f);
  c.outputs = {Output(shape)};
  using F = float (*)(float);
  static const std::map<std::string, F> kReferences = {
      {"ABS", [](float x) { return std::fabs(x); }},
      {"EXP", [](float x) { return std::exp(x); }},
      {"LOG", [](float x) { return std::log(x); }},
      {"SQRT", [](float x) { return std::sqrt(x); }},
      {"RSQRT", [](float x) { return 1.0f / std::sqrt(x); }},
      {"SQUARE", [](float x) { return x * x; }},
      {"NEG", [](float x) { return -x; }},
      {"SIN", [](float x) { return std::sin(x); }},
      {"COS", [](float x) { return std::cos(x); }},
      {"FLOOR", [](float x) { return std::floor(x); }},
      {"SIGN", [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); }},
      // Upstream's GELU without approximation: 0.5 x (1 + erf(x / sqrt(2))).
      {"GELU", [](float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678f)); }},
  };
  const auto reference = kReferences.find(op);
  if (reference == kReferences.end()) {
    CheckAgainstCpu(c);
  } else {
    CheckAgainstCpu(c, 1e-4, UnaryReference(reference->second));
  }
}

// ---- Pooling, resizing, padding ----------------------------------------------------------------

void Pool2DMatchesCpu(const std::string& op) {
  const auto [g, channels, unused_out_channels] = AnyConvCase(false);
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node.options = WindowOptions(g);
  c.node.options.Mutable().filter_h = g.kh;
  c.node.options.Mutable().filter_w = g.kw;
  c.inputs = {FloatTensor({g.batch, g.h, g.w, channels})};
  c.outputs = {Output({g.batch, g.oh(), g.ow(), channels})};
  CheckAgainstCpu(c);
}

// MediaPipe's argmax pooling pair: the TfLitePoolParams their custom options hold.
struct ArgmaxPoolCase {
  int32_t fh, fw, sh, sw;
  bool same;
  NodeCase node;
};

ArgmaxPoolCase AnyArgmaxPoolCase(const char* op) {
  ArgmaxPoolCase c{*rc::gen::inRange(1, 4), *rc::gen::inRange(1, 4),     *rc::gen::inRange(1, 4),
                   *rc::gen::inRange(1, 4), *rc::gen::arbitrary<bool>(), Op(op)};
  c.node.node.kind = NodeKind::kCustom;
  const int32_t activation = *rc::gen::element(0, 1, 3);  // NONE, RELU, RELU6
  const int32_t params[8] = {c.same ? 1 : 2, c.sw, c.sh, c.fw, c.fh, activation, -1, -1};
  c.node.custom_options.resize(sizeof(params));
  std::memcpy(c.node.custom_options.data(), params, sizeof(params));
  return c;
}

void MaxPoolingWithArgmaxMatchesCpu(const std::string& op) {
  ArgmaxPoolCase c = AnyArgmaxPoolCase(op.c_str());
  const int32_t batch = *rc::gen::inRange(1, 3), channels = Channels();
  const int32_t h = *rc::gen::inRange(c.fh, 20), w = *rc::gen::inRange(c.fw, 20);
  const auto out_size = [&](int32_t in, int32_t f, int32_t stride) {
    return c.same ? (in + stride - 1) / stride : (in - f + stride) / stride;
  };
  const std::vector<int32_t> out = {batch, out_size(h, c.fh, c.sh), out_size(w, c.fw, c.sw),
                                    channels};
  c.node.inputs = {FloatTensor({batch, h, w, channels})};
  c.node.outputs = {Output(out), Output(out)};
  CheckAgainstCpu(c.node);
}

void MaxUnpoolingMatchesCpu(const std::string& op) {
  ArgmaxPoolCase c = AnyArgmaxPoolCase(op.c_str());
  const int32_t batch = *rc::gen::inRange(1, 3), channels = Channels();
  const int32_t h = *rc::gen::inRange(1, 10), w = *rc::gen::inRange(1, 10);
  const std::vector<int32_t> shape = {batch, h, w, channels};
  // Positions in the window as the pooling writes them (k + 0.1), and now and then one outside.
  TestTensor indices = FloatTensor(shape);
  std::vector<float> values(static_cast<size_t>(indices.NumElements()));
  for (float& v : values) {
    const bool outside = *rc::gen::weightedElement<bool>({{1, true}, {9, false}});
    v = outside ? 1e6f : static_cast<float>(*rc::gen::inRange(0, c.fh * c.fw)) + 0.1f;
  }
  std::memcpy(indices.bytes.data(), values.data(), indices.bytes.size());
  c.node.inputs = {FloatTensor(shape), std::move(indices)};
  c.node.outputs = {Output({batch, h * c.fh, w * c.fw, channels})};
  CheckAgainstCpu(c.node);
}

void ResizeMatchesCpu(const std::string& op) {
  // Sometimes the decoders of segmentation heads: 16..128 upscaled by 2 or 4 (up to 512), or
  // to a size that is no whole multiple (100 -> 256), with few channels.
  const bool decoder = *rc::gen::weightedElement<bool>({{1, true}, {5, false}});
  const int32_t batch = decoder ? 1 : *rc::gen::inRange(1, 3);
  const int32_t h = decoder ? *rc::gen::inRange(16, 129) : SpatialSize();
  const int32_t w = decoder ? *rc::gen::inRange(16, 129) : SpatialSize();
  const int32_t channels = decoder ? *rc::gen::inRange(1, 9) : Channels();
  // Upscaling by whole factors, or any size.
  const bool whole = *rc::gen::arbitrary<bool>();
  const int32_t factor = decoder ? *rc::gen::element(2, 4) : *rc::gen::inRange(1, 5);
  const int32_t limit = decoder ? 257 : 70;
  const int32_t oh = whole ? h * factor : *rc::gen::inRange(1, limit);
  const int32_t ow = whole ? w * factor : *rc::gen::inRange(1, limit);
  // Versions as the converter writes them (half_pixel_centers comes with version 3);
  // align_corners and half_pixel_centers exclude each other.
  const int mode = *rc::gen::inRange(0, 3);  // 0 neither, 1 align_corners, 2 half_pixel_centers
  NodeCase c = Op(op.c_str(), mode == 2 ? 3 : *rc::gen::inRange(1, 3));
  c.node.options.Mutable().align_corners = mode == 1;
  c.node.options.Mutable().half_pixel_centers = mode == 2;
  c.inputs = {FloatTensor({batch, h, w, channels}), IntConstant({oh, ow})};
  c.outputs = {Output({batch, oh, ow, channels})};
  CheckAgainstCpu(c);
}

void PadMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(3);
  std::vector<int32_t> paddings, out = shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int32_t before = *rc::gen::inRange(0, 4), after = *rc::gen::inRange(0, 4);
    paddings.push_back(before);
    paddings.push_back(after);
    out[d] += before + after;
  }
  const bool v2 = op == "PADV2";
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  TestTensor padding_tensor = IntConstant(paddings);
  padding_tensor.shape = {static_cast<int32_t>(shape.size()), 2};
  c.inputs = {FloatTensor(shape), padding_tensor};
  if (v2) c.inputs.push_back(FloatTensor({1}, true));
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void MirrorPadMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(3);
  std::vector<int32_t> paddings, out = shape;
  // REFLECT (the one mode the gpu profile takes): at most dim - 1 on each side.
  for (size_t d = 0; d < shape.size(); ++d) {
    const int32_t before = *rc::gen::inRange(0, shape[d]), after = *rc::gen::inRange(0, shape[d]);
    paddings.push_back(before);
    paddings.push_back(after);
    out[d] += before + after;
  }
  NodeCase c = Op("MIRROR_PAD", *rc::gen::inRange(1, 3));
  TestTensor padding_tensor = IntConstant(paddings);
  padding_tensor.shape = {static_cast<int32_t>(shape.size()), 2};
  c.inputs = {FloatTensor(shape), padding_tensor};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

// ---- Reductions, softmax ----------------------------------------------------------------------

void ReductionMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1);
  const int rank = static_cast<int>(shape.size());
  std::vector<int32_t> axes;
  std::vector<bool> reduced(shape.size(), false);
  for (int d = 0; d < rank; ++d) {
    if (*rc::gen::arbitrary<bool>()) {
      axes.push_back(*rc::gen::arbitrary<bool>() ? d : d - rank);  // negative axes too
      reduced[static_cast<size_t>(d)] = true;
    }
  }
  if (axes.empty()) {
    axes.push_back(rank - 1);
    reduced.back() = true;
  }
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node.options.Mutable().keep_dims = *rc::gen::arbitrary<bool>();
  c.inputs = {FloatTensor(shape, false, op == "REDUCE_PROD" ? 0.5f : -2.0f, 1.5f),
              IntConstant(axes)};
  std::vector<int32_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out.push_back(shape[d]);
    if (reduced[d] && c.node.options->keep_dims) out.push_back(1);
  }
  c.outputs = {Output(out)};
  if (op == "MEAN" || op == "SUM") {
    CheckAgainstCpu(c);
    return;
  }
  CheckAgainstCpu(c, 1e-4, [op, reduced](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> in = node.inputs[0].Floats();
    const std::vector<int32_t>& shape = node.inputs[0].shape;
    std::vector<int32_t> kept = shape;  // the output shape with reduced dims as 1
    for (size_t d = 0; d < shape.size(); ++d) kept[d] = reduced[d] ? 1 : shape[d];
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()),
                           op == "REDUCE_MAX"   ? -INFINITY
                           : op == "REDUCE_MIN" ? INFINITY
                                                : 1.0f);
    for (size_t i = 0; i < in.size(); ++i) {
      // The output element of input element i: its coordinates with reduced dims at 0.
      size_t rest = i, o = 0, stride = 1;
      for (size_t k = 0; k < shape.size(); ++k) {
        const size_t d = shape.size() - 1 - k;
        const size_t coordinate = rest % static_cast<size_t>(shape[d]);
        rest /= static_cast<size_t>(shape[d]);
        if (!reduced[d]) o += coordinate * stride;
        stride *= static_cast<size_t>(kept[d]);
      }
      if (op == "REDUCE_MAX") out[o] = std::max(out[o], in[i]);
      if (op == "REDUCE_MIN") out[o] = std::min(out[o], in[i]);
      if (op == "REDUCE_PROD") out[o] *= in[i];
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

void SoftmaxMatchesCpu() {
  std::vector<int32_t> shape = SmallShape(1);
  shape.back() = *rc::gen::inRange(1, 100);
  NodeCase c = Op("SOFTMAX", *rc::gen::inRange(1, 3));
  c.node.options.Mutable().beta = 1.0f;  // the only beta the gpu profile takes
  c.inputs = {FloatTensor(shape, false, -10.0f, 10.0f)};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c);
}

// ---- Ops that move elements --------------------------------------------------------------------

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

// ---- Arithmetic without CPU kernels -----------------------------------------------------------

void AddNMatchesReference() {
  const std::vector<int32_t> shape = SmallShape(1);
  NodeCase c = Op("ADD_N");
  c.inputs = {FloatTensor(shape), FloatTensor(shape, *rc::gen::arbitrary<bool>())};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c, 1e-6, BinaryReference([](float x, float y) { return x + y; }));
}

void BatchMatmulMatchesReference() {
  const int32_t batch = *rc::gen::inRange(1, 4), m = *rc::gen::inRange(1, 9),
                n = *rc::gen::inRange(1, 9), k = *rc::gen::inRange(1, 20);
  const bool adj_x = *rc::gen::arbitrary<bool>(), adj_y = *rc::gen::arbitrary<bool>();
  const bool broadcast_b = *rc::gen::arbitrary<bool>();
  NodeCase c = Op("BATCH_MATMUL", *rc::gen::inRange(1, 4));
  c.node.options.Mutable().adj_x = adj_x;
  c.node.options.Mutable().adj_y = adj_y;
  std::vector<int32_t> a_shape = {batch, adj_x ? k : m, adj_x ? m : k};
  std::vector<int32_t> b_shape = {adj_y ? n : k, adj_y ? k : n};
  if (!broadcast_b) b_shape.insert(b_shape.begin(), batch);
  c.inputs = {FloatTensor(a_shape), FloatTensor(b_shape, *rc::gen::arbitrary<bool>())};
  c.outputs = {Output({batch, m, n})};
  CheckAgainstCpu(c, 1e-4, [=](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> a = node.inputs[0].Floats(), b = node.inputs[1].Floats();
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
    for (int32_t p = 0; p < batch; ++p) {
      const size_t a0 = static_cast<size_t>(p) * m * k;
      const size_t b0 = broadcast_b ? 0 : static_cast<size_t>(p) * k * n;
      for (int32_t i = 0; i < m; ++i)
        for (int32_t j = 0; j < n; ++j) {
          float sum = 0;
          for (int32_t q = 0; q < k; ++q) {
            const float x = a[a0 + static_cast<size_t>(adj_x ? q * m + i : i * k + q)];
            const float y = b[b0 + static_cast<size_t>(adj_y ? j * k + q : q * n + j)];
            sum += x * y;
          }
          out[(static_cast<size_t>(p) * m + i) * n + j] = sum;
        }
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

// ---- Comparisons, selects, casts ---------------------------------------------------------------

// Float values on a coarse grid, so that comparisons meet equal operands.
TestTensor GridTensor(std::vector<int32_t> shape, bool constant) {
  TestTensor t = FloatTensor(std::move(shape), constant);
  std::vector<float> values = t.Floats();
  for (float& v : values) v = std::round(v * 2.0f) / 2.0f;
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

TestTensor BoolTensor(std::vector<int32_t> shape) {
  TestTensor t;
  t.type = TensorType::kBool;
  t.shape = std::move(shape);
  t.bytes.resize(static_cast<size_t>(t.NumElements()));
  for (uint8_t& b : t.bytes) b = *rc::gen::arbitrary<bool>() ? 1 : 0;
  return t;
}

void ComparisonMatchesReference(const std::string& name) {
  static const char* const kOps[] = {"EQUAL",         "NOT_EQUAL", "GREATER",
                                     "GREATER_EQUAL", "LESS",      "LESS_EQUAL"};
  const int op = static_cast<int>(std::find(std::begin(kOps), std::end(kOps), name) - kOps);
  auto [a, b] = BroadcastShapes();
  NodeCase c = Op(kOps[op], *rc::gen::inRange(1, 3));
  c.inputs = {GridTensor(a, false), GridTensor(b, *rc::gen::arbitrary<bool>())};
  c.outputs = {Output(BroadcastOut(a, b), TensorType::kBool)};
  CheckAgainstCpu(c, 0, [op](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> x = node.inputs[0].Floats(), y = node.inputs[1].Floats();
    for (size_t i = 0; i < outputs[0].bytes.size(); ++i) {
      const float p = x[BroadcastIndex(node.inputs[0].shape, outputs[0].shape, int64_t(i))];
      const float q = y[BroadcastIndex(node.inputs[1].shape, outputs[0].shape, int64_t(i))];
      const bool r[] = {p == q, p != q, p > q, p >= q, p < q, p <= q};
      outputs[0].bytes[i] = r[op] ? 1 : 0;
    }
  });
}

void LogicalAndMatchesReference() {
  auto [a, b] = BroadcastShapes();
  NodeCase c = Op("LOGICAL_AND");
  c.inputs = {BoolTensor(a), BoolTensor(b)};
  c.outputs = {Output(BroadcastOut(a, b), TensorType::kBool)};
  CheckAgainstCpu(c, 0, [](const NodeCase& node, std::vector<TestTensor>& outputs) {
    for (size_t i = 0; i < outputs[0].bytes.size(); ++i) {
      const uint8_t p =
          node.inputs[0].bytes[BroadcastIndex(node.inputs[0].shape, outputs[0].shape, int64_t(i))];
      const uint8_t q =
          node.inputs[1].bytes[BroadcastIndex(node.inputs[1].shape, outputs[0].shape, int64_t(i))];
      outputs[0].bytes[i] = p != 0 && q != 0 ? 1 : 0;
    }
  });
}

void SelectMatchesReference(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1);
  // SELECT_V2 broadcasts each operand (the gpu profile: the output's shape or a scalar); the
  // output is their broadcast (select.cc), so one of them at least has the output's shape.
  const bool v2 = op == "SELECT_V2";
  std::array<bool, 3> full = {true, true, true};
  if (v2) {
    for (bool& f : full) f = *rc::gen::arbitrary<bool>();
    if (!full[0] && !full[1] && !full[2]) full[*rc::gen::inRange(0, 3)] = true;
  }
  const auto operand = [&](size_t i) { return full[i] ? shape : std::vector<int32_t>{1}; };
  NodeCase c = Op(op.c_str());
  c.inputs = {BoolTensor(operand(0)), FloatTensor(operand(1)),
              FloatTensor(operand(2), *rc::gen::arbitrary<bool>())};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c, 0, [](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> x = node.inputs[1].Floats(), y = node.inputs[2].Floats();
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
    for (size_t i = 0; i < out.size(); ++i) {
      const auto at = [&](size_t input) {
        return BroadcastIndex(node.inputs[input].shape, outputs[0].shape, int64_t(i));
      };
      out[i] = node.inputs[0].bytes[at(0)] != 0 ? x[at(1)] : y[at(2)];
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

void CastMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(1);
  const int kind = *rc::gen::inRange(0, 4);  // float->int, int->float, bool->float, float->float
  NodeCase c = Op("CAST", *rc::gen::inRange(1, 3));
  if (kind == 1) {
    TestTensor ints;
    ints.type = TensorType::kInt32;
    ints.shape = shape;
    std::vector<int32_t> values(static_cast<size_t>(ints.NumElements()));
    for (int32_t& v : values) v = *rc::gen::inRange(-100000, 100000);
    ints.bytes = IntBytes(values);
    c.inputs = {ints};
  } else if (kind == 2) {
    c.inputs = {BoolTensor(shape)};
  } else {
    c.inputs = {FloatTensor(shape, false, -1000.0f, 1000.0f)};
  }
  c.outputs = {Output(shape, kind == 0 ? TensorType::kInt32 : TensorType::kFloat32)};
  CheckAgainstCpu(c, 0);
}

// QUANTIZE and DEQUANTIZE inside a partition compute on float values: the quantized side is a
// float twin (its buffer float, its parameters the interpreter's tensor's). The round trip must
// be the CPU's QUANTIZE of the same values followed by its DEQUANTIZE, up to float rounding, or
// one step apart where a value sits on a rounding tie (the device counts steps from the range's
// low end, the CPU from the zero point).
void FakeQuantMatchesCpuRoundTrip(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1);
  const bool int8 = *rc::gen::arbitrary<bool>();
  Quantization q;
  q.scale = {*rc::gen::element(0.001f, 0.0078125f, 0.02f, 0.1f, 0.5f)};
  q.zero_point = {int8 ? *rc::gen::inRange(-128, 128) : *rc::gen::inRange(0, 256)};
  const float reach = 300.0f * q.scale[0];  // beyond the range on both sides
  TestTensor values = FloatTensor(shape, false, -reach, reach);
  const int64_t n = values.NumElements();
  RuntimeTensor x;
  x.shape = shape;
  x.data = values.bytes.data();
  x.bytes = values.bytes.size();
  RuntimeTensor quantized;
  quantized.type = int8 ? TensorType::kInt8 : TensorType::kUInt8;
  quantized.shape = shape;
  quantized.quantization = &q;
  std::vector<uint8_t> q_bytes(static_cast<size_t>(n));
  quantized.data = q_bytes.data();
  quantized.bytes = q_bytes.size();
  std::vector<float> want(static_cast<size_t>(n));
  RuntimeTensor y = x;
  y.data = reinterpret_cast<uint8_t*>(want.data());
  Node quantize_node, dequantize_node;
  quantize_node.op = "QUANTIZE";
  dequantize_node.op = "DEQUANTIZE";
  for (auto [node, in, out] :
       {std::tuple{&quantize_node, &x, &quantized}, std::tuple{&dequantize_node, &quantized, &y}}) {
    KernelContext cpu;
    cpu.node = node;
    cpu.inputs = {in};
    cpu.outputs = {out};
    const KernelRegistration* kernel = FindCpuKernel(node->op);
    RC_ASSERT(kernel != nullptr);
    RC_ASSERT(kernel->prepare(cpu).ok());
    RC_ASSERT(kernel->eval(cpu).ok());
  }

  const ClRunner& runner = Runner();
  auto in_buffer = CreateBuffer(*runner.device, static_cast<size_t>(x.bytes));
  auto out_buffer = CreateBuffer(*runner.device, static_cast<size_t>(x.bytes));
  auto empty = CreateBuffer(*runner.device, 4);
  RC_ASSERT(in_buffer.ok() && out_buffer.ok() && empty.ok());
  RC_ASSERT(clEnqueueWriteBuffer(runner.device->queue(), in_buffer->get(), CL_TRUE, 0,
                                 static_cast<size_t>(x.bytes), x.data, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  // The node as the partition kernel encodes it: the quantized side is the interpreter's tensor.
  const bool quantize = op == "QUANTIZE";
  Node node;
  node.op = op;
  RuntimeTensor device_out = x;
  KernelContext context;
  context.node = &node;
  context.inputs = {quantize ? &x : &quantized};
  context.outputs = {quantize ? &quantized : &device_out};
  ClNodeBuffers buffers{{in_buffer->get()}, {out_buffer->get()}, empty->get()};
  auto steps = EncodeNode(context, buffers, *runner.program, *runner.device);
  RC_ASSERT(steps.ok());
  for (const ClStep& step : *steps) RC_ASSERT(EnqueueStep(runner.device->queue(), step).ok());
  std::vector<float> got(static_cast<size_t>(n));
  RC_ASSERT(clEnqueueReadBuffer(runner.device->queue(), out_buffer->get(), CL_TRUE, 0,
                                static_cast<size_t>(x.bytes), got.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
  const std::vector<float> in_values = values.Floats();
  for (size_t i = 0; i < got.size(); ++i) {
    const double difference = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (difference <= 1e-5 * std::max(1.0, std::fabs(static_cast<double>(want[i])))) continue;
    const double position = std::fabs(static_cast<double>(in_values[i]) / q.scale[0]);
    const bool at_tie = std::fabs(position - std::floor(position) - 0.5) < 1e-3;
    if (at_tie && difference <= q.scale[0] * 1.001) continue;
    RC_FAIL(op + " of " + std::to_string(in_values[i]) + " (scale " + std::to_string(q.scale[0]) +
            ", zero point " + std::to_string(q.zero_point[0]) + "): device " +
            std::to_string(got[i]) + ", CPU round trip " + std::to_string(want[i]));
  }
}

// ---- Registration ----------------------------------------------------------------------------

// One test per op, each checking RC_PARAMS' max_success random cases (CMake sets 200).
struct OpProperty {
  std::string op;
  std::function<void()> property;
};

std::vector<OpProperty> OpProperties() {
  std::vector<OpProperty> properties = {
      {"CONV_2D", Conv2DMatchesCpu},
      {"DEPTHWISE_CONV_2D", DepthwiseConv2DMatchesCpu},
      {"TRANSPOSE_CONV", TransposeConvMatchesCpu},
      {"Convolution2DTransposeBias", Convolution2DTransposeBiasMatchesCpu},
      {"FULLY_CONNECTED", FullyConnectedMatchesCpu},
      {"PRELU", PreluMatchesCpu},
      {"SOFTMAX", SoftmaxMatchesCpu},
      {"MIRROR_PAD", MirrorPadMatchesCpu},
      {"CONCATENATION", ConcatenationMatchesCpu},
      {"SLICE", SliceMatchesCpu},
      {"STRIDED_SLICE", StridedSliceMatchesCpu},
      {"TRANSPOSE", TransposeMatchesCpu},
      {"GATHER", GatherMatchesCpu},
      {"TILE", TileMatchesReference},
      {"ADD_N", AddNMatchesReference},
      {"BATCH_MATMUL", BatchMatmulMatchesReference},
      {"LOGICAL_AND", LogicalAndMatchesReference},
      {"CAST", CastMatchesCpu},
  };
  const auto add = [&](std::initializer_list<const char*> ops,
                       void (*property)(const std::string&)) {
    for (const char* op : ops) properties.push_back({op, [op, property] { property(op); }});
  };
  add({"QUANTIZE", "DEQUANTIZE"}, FakeQuantMatchesCpuRoundTrip);
  add({"ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "POW", "FLOOR_DIV",
       "FLOOR_MOD"},
      BinaryOpMatchesCpu);
  add({"RELU",   "RELU6",      "RELU_N1_TO_1", "RELU_0_TO_1", "LOGISTIC", "TANH", "HARD_SWISH",
       "ELU",    "LEAKY_RELU", "ABS",          "EXP",         "LOG",      "SQRT", "RSQRT",
       "SQUARE", "NEG",        "SIN",          "COS",         "FLOOR",    "SIGN", "GELU"},
      UnaryOpMatchesCpu);
  add({"AVERAGE_POOL_2D", "MAX_POOL_2D"}, Pool2DMatchesCpu);
  add({"MaxPoolingWithArgmax2D"}, MaxPoolingWithArgmaxMatchesCpu);
  add({"MaxUnpooling2D"}, MaxUnpoolingMatchesCpu);
  add({"RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"}, ResizeMatchesCpu);
  add({"PAD", "PADV2"}, PadMatchesCpu);
  add({"MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"}, ReductionMatchesCpu);
  add({"RESHAPE", "SQUEEZE", "EXPAND_DIMS"}, ReshapeMatchesCpu);
  add({"DEPTH_TO_SPACE", "SPACE_TO_DEPTH"}, DepthSpaceShuffleMatchesCpu);
  add({"SPLIT", "SPLIT_V"}, SplitMatchesCpu);
  add({"PACK", "UNPACK"}, PackOrUnpackMatchesReference);
  add({"EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL"},
      ComparisonMatchesReference);
  add({"SELECT", "SELECT_V2"}, SelectMatchesReference);
  return properties;
}

// Test names and messages show the op, not the bytes of the struct.
void PrintTo(const OpProperty& property, std::ostream* os) { *os << property.op; }

class OpenClKernelProperty : public ::testing::TestWithParam<OpProperty> {};

TEST_P(OpenClKernelProperty, MatchesCpu) {
  if (!Runner().program) GTEST_SKIP() << Runner().unavailable;
  ::rc::detail::checkGTest(GetParam().property);
}

INSTANTIATE_TEST_SUITE_P(Ops, OpenClKernelProperty, ::testing::ValuesIn(OpProperties()),
                         [](const auto& info) { return info.param.op; });

// Every op the delegate has a kernel for is covered (DENSIFY only runs folded, at Prepare, on the
// host).
TEST(OpenClKernelPropertyTest, CoversEveryOpOfTheDelegate) {
  std::set<std::string> covered;
  for (const OpProperty& p : OpProperties()) covered.insert(p.op);
  for (const std::string& op : covered) EXPECT_TRUE(OpenClHasKernelFor(op)) << op;
  EXPECT_EQ(covered.size() + 1, OpenClOpNames().size());
}

}  // namespace
}  // namespace tfa::runtime
