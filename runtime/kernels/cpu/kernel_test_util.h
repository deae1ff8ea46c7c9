// Test support: runs one CPU kernel on tensors held in vectors (Prepare, scratch, Eval).
#ifndef RUNTIME_KERNELS_CPU_KERNEL_TEST_UTIL_H_
#define RUNTIME_KERNELS_CPU_KERNEL_TEST_UTIL_H_

#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime::testing {

// A float32 tensor of rank 1 over `values` (not owned), for code that reads tensors.
inline RuntimeTensor FloatView(std::vector<float>& values) {
  RuntimeTensor t;
  t.type = TensorType::kFloat32;
  t.shape = {static_cast<int32_t>(values.size())};
  t.bytes = values.size() * sizeof(float);
  t.data = reinterpret_cast<uint8_t*>(values.data());
  return t;
}

class KernelRunner {
 public:
  explicit KernelRunner(std::string op) { node_.op = std::move(op); }

  OpOptions& options() { return node_.options.Mutable(); }
  void set_version(int32_t version) { node_.version = version; }
  NodeData& node_data() { return node_data_; }
  void set_thread_pool(const KernelThreadPool* pool) { thread_pool_ = pool; }

  template <typename T>
  RuntimeTensor& AddInput(TensorType type, std::vector<int32_t> shape,
                          const std::vector<T>& values) {
    RuntimeTensor& t = Add(type, std::move(shape), values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(t.data, values.data(), values.size() * sizeof(T));
    inputs_.push_back(&t);
    return t;
  }
  RuntimeTensor& AddFloatInput(std::vector<int32_t> shape, const std::vector<float>& values) {
    return AddInput(TensorType::kFloat32, std::move(shape), values);
  }
  RuntimeTensor& AddInt32Input(std::vector<int32_t> shape, const std::vector<int32_t>& values) {
    return AddInput(TensorType::kInt32, std::move(shape), values);
  }
  void AddAbsentInput() { inputs_.push_back(nullptr); }
  // An intermediate tensor of the node (its quantization is what kernels read).
  RuntimeTensor& AddIntermediate(TensorType type, const Quantization* quantization) {
    RuntimeTensor& t = Add(type, {0}, 0);
    t.quantization = quantization;
    intermediates_.push_back(&t);
    return t;
  }
  // A temporary the plan gave the node (upstream's kernel adds it in Prepare).
  RuntimeTensor& AddTemporary(TensorType type, std::vector<int32_t> shape) {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    RuntimeTensor& t =
        Add(type, std::move(shape), static_cast<uint64_t>(n) * ElementSize(type).value_or(1));
    temporaries_.push_back(&t);
    return t;
  }
  RuntimeTensor& AddOutput(TensorType type, std::vector<int32_t> shape) {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    RuntimeTensor& t =
        Add(type, std::move(shape), static_cast<uint64_t>(n) * ElementSize(type).value_or(1));
    outputs_.push_back(&t);
    return t;
  }

  // Prepare then Eval; a stateful kernel keeps its variable inputs from one run to the next.
  Status Run() {
    const KernelRegistration* kernel = FindCpuKernel(node_.op);
    if (!kernel) return Status::Error("no kernel for " + node_.op);
    return RunWith(*kernel);
  }

  // Runs `kernel` instead of the op's registered one (a reference twin, for property tests).
  Status RunWith(const KernelRegistration& kernel_functions) {
    const KernelRegistration* kernel = &kernel_functions;
    KernelContext context;
    context.node = &node_;
    context.node_data = &node_data_;
    context.inputs = inputs_;
    context.outputs = outputs_;
    context.temporaries = temporaries_;
    context.intermediates = intermediates_;
    context.thread_pool = thread_pool_;
    TFA_RETURN_IF_ERROR(kernel->prepare(context));
    scratch_.assign(context.scratch_bytes / sizeof(float) + 16, 0.0f);
    context.scratch = reinterpret_cast<uint8_t*>(scratch_.data());
    return kernel->eval(context);
  }

  template <typename T = float>
  std::vector<T> Output(size_t i = 0) const {
    const RuntimeTensor& t = *outputs_[i];
    std::vector<T> values(t.bytes / sizeof(T));
    if (t.bytes != 0) std::memcpy(values.data(), t.data, t.bytes);
    return values;
  }

 private:
  RuntimeTensor& Add(TensorType type, std::vector<int32_t> shape, uint64_t bytes) {
    storage_.emplace_back(bytes + 64, 0xff);
    RuntimeTensor& t = tensors_.emplace_back();
    t.type = type;
    t.shape = std::move(shape);
    t.bytes = bytes;
    t.data = storage_.back().data();
    return t;
  }

  Node node_;
  NodeData node_data_;
  std::deque<std::vector<uint8_t>> storage_;
  std::deque<RuntimeTensor> tensors_;
  std::vector<RuntimeTensor*> inputs_, outputs_, temporaries_, intermediates_;
  std::vector<float> scratch_;
  const KernelThreadPool* thread_pool_ = nullptr;
};

}  // namespace tfa::runtime::testing

#endif  // RUNTIME_KERNELS_CPU_KERNEL_TEST_UTIL_H_
