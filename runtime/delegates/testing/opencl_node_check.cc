#include "runtime/delegates/testing/opencl_node_check.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime::opencl_property {

namespace {

bool Absent(const TestTensor& t) { return t.shape.empty() && t.bytes.empty(); }

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

}  // namespace

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

// The property every op shares: the device computes what the CPU kernel (or `reference`)
// computes, within `tolerance` relative to max(1, |expected|).
void CheckAgainstCpu(const NodeCase& c, double tolerance, const Reference& reference) {
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

}  // namespace tfa::runtime::opencl_property
