// OpenCL kernels against the CPU: elementwise ops (binary with broadcasts, unary, comparisons,
// selects, casts, QUANTIZE / DEQUANTIZE).

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/delegates/testing/opencl_case_generators.h"
#include "runtime/delegates/testing/opencl_node_check.h"
#include "runtime/delegates/testing/opencl_op_properties.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime::opencl_property {

namespace {

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

// A host reference for unary ops without a CPU kernel.
Reference UnaryReference(float (*f)(float)) {
  return [f](const NodeCase& c, std::vector<TestTensor>& outputs) {
    std::vector<float> values = c.inputs[0].Floats();
    for (float& v : values) v = f(v);
    std::memcpy(outputs[0].bytes.data(), values.data(), values.size() * sizeof(float));
  };
}

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

}  // namespace

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

void AddNMatchesReference() {
  const std::vector<int32_t> shape = SmallShape(1);
  NodeCase c = Op("ADD_N");
  c.inputs = {FloatTensor(shape), FloatTensor(shape, *rc::gen::arbitrary<bool>())};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c, 1e-6, BinaryReference([](float x, float y) { return x + y; }));
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

}  // namespace tfa::runtime::opencl_property
