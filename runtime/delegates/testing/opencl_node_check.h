// Runs one node on the OpenCL delegate as its partition kernel would, and on the runtime's CPU
// kernel (or a host reference), and compares the two: the harness of the OpenCL kernels' property
// tests (runtime/delegates/opencl/*_property_test.cc).
#ifndef RUNTIME_DELEGATES_TESTING_OPENCL_NODE_CHECK_H_
#define RUNTIME_DELEGATES_TESTING_OPENCL_NODE_CHECK_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "runtime/delegates/opencl/opencl_device.h"
#include "runtime/delegates/opencl/opencl_program.h"
#include "runtime/model_data.h"

namespace tfa::runtime::opencl_property {

// The device and the op program, shared by every property of the process.
struct ClRunner {
  std::unique_ptr<OpenClDevice> device;
  std::unique_ptr<OpenClProgram> program;
  std::string unavailable;  // why there is no device, when there is none
};

const ClRunner& Runner();

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

// Computes the expected outputs of an op the runtime has no CPU kernel for.
using Reference = std::function<void(const NodeCase&, std::vector<TestTensor>&)>;

// The property every op shares: the device computes what the CPU kernel (or `reference`)
// computes, within `tolerance` relative to max(1, |expected|).
void CheckAgainstCpu(const NodeCase& c, double tolerance = 1e-4,
                     const Reference& reference = nullptr);

}  // namespace tfa::runtime::opencl_property

#endif  // RUNTIME_DELEGATES_TESTING_OPENCL_NODE_CHECK_H_
