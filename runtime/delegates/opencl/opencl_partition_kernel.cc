#include "runtime/delegates/opencl/opencl_partition_kernel.h"

#include <algorithm>
#include <set>

#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

std::string NodeLabel(const Subgraph& graph, int32_t node) {
  return "node " + std::to_string(node) + " (" + graph.nodes[static_cast<size_t>(node)].op + ")";
}

}  // namespace

Status OpenClPartitionKernel::Upload(cl_mem buffer, const void* data, size_t bytes, bool blocking) {
  return CheckCl(clEnqueueWriteBuffer(device_.queue(), buffer, blocking ? CL_TRUE : CL_FALSE, 0,
                                      bytes, data, 0, nullptr, nullptr),
                 "clEnqueueWriteBuffer");
}

Status OpenClPartitionKernel::FoldConstantDequantize(int32_t node) {
  const Node& n = partition_.subgraph->nodes[static_cast<size_t>(node)];
  const KernelRegistration* dequantize = FindCpuKernel("DEQUANTIZE");
  if (!dequantize) return Status::Error("no CPU DEQUANTIZE kernel to fold constants with");
  RuntimeTensor output = tensors_.at(n.outputs[0]);
  std::vector<float> values(static_cast<size_t>(output.NumElements()));
  output.data = reinterpret_cast<uint8_t*>(values.data());
  KernelContext context;
  context.node = &n;
  context.node_data = &partition_.model_data->Node(partition_.subgraph_index, node);
  context.inputs = {&tensors_.at(n.inputs[0])};
  context.outputs = {&output};
  TFA_RETURN_IF_ERROR(dequantize->prepare(context));
  if (context.scratch_bytes > 0) return Status::Error("DEQUANTIZE asked for scratch");
  TFA_RETURN_IF_ERROR(dequantize->eval(context));
  const size_t bytes = values.size() * sizeof(float);
  TFA_RETURN_IF_ERROR(Upload(buffers_.at(n.outputs[0]).get(), values.data(), bytes, true));
  transfers_->init_upload_bytes += bytes;
  return Status::Ok();
}

Status OpenClPartitionKernel::Prepare(KernelContext&) {
  auto program = programs_.Get();
  if (!program.ok()) return program.status();
  const Subgraph& graph = *partition_.subgraph;
  auto local = [&](int32_t t) -> RuntimeTensor* {
    if (t < 0) return nullptr;
    auto [it, inserted] = tensors_.try_emplace(t);
    if (inserted) it->second = (*partition_.tensors)[static_cast<size_t>(t)];
    return &it->second;
  };
  // Constant DEQUANTIZE nodes are folded here; the fp16 constants they read never reach the
  // device.
  std::set<int32_t> folded;
  for (int32_t node : partition_.nodes) {
    const Node& n = graph.nodes[static_cast<size_t>(node)];
    if (n.op == "DEQUANTIZE" && n.inputs.size() == 1 && n.inputs[0] >= 0 &&
        (*partition_.tensors)[static_cast<size_t>(n.inputs[0])].is_constant) {
      folded.insert(node);
    }
  }
  std::vector<KernelContext> contexts;
  for (int32_t node : partition_.nodes) {
    const Node& n = graph.nodes[static_cast<size_t>(node)];
    KernelContext c;
    c.node = &n;
    c.node_data = &partition_.model_data->Node(partition_.subgraph_index, node);
    for (int32_t t : n.inputs) c.inputs.push_back(local(t));
    for (int32_t t : n.outputs) c.outputs.push_back(local(t));
    const bool is_folded = folded.count(node) > 0;
    for (int32_t t : n.outputs) {
      if (t >= 0) buffers_[t];
    }
    for (size_t i = 0; i < n.inputs.size() && !is_folded; ++i) {
      const RuntimeTensor* tensor = c.inputs[i];
      if (tensor && tensor->type == TensorType::kFloat32) buffers_[n.inputs[i]];
    }
    contexts.push_back(std::move(c));
  }
  for (auto& [t, buffer] : buffers_) {
    const RuntimeTensor& tensor = tensors_.at(t);
    auto created = CreateBuffer(device_, static_cast<size_t>(tensor.bytes));
    if (!created.ok()) return created.status().WithContext("tensor " + std::to_string(t));
    buffer = std::move(*created);
    if (!tensor.is_constant) continue;
    TFA_RETURN_IF_ERROR(Upload(buffer.get(), tensor.data, static_cast<size_t>(tensor.bytes), true));
    transfers_->init_upload_bytes += tensor.bytes;
  }
  auto empty = CreateBuffer(device_, 4);
  if (!empty.ok()) return empty.status();
  empty_ = std::move(*empty);
  for (int32_t t : partition_.inputs) {
    if (!tensors_.count(t) || tensors_.at(t).is_constant) continue;
    if (!buffers_.count(t))
      return Status::Error("boundary input tensor " + std::to_string(t) + " is not float32");
  }
  for (size_t i = 0; i < partition_.nodes.size(); ++i) {
    const int32_t node = partition_.nodes[i];
    KernelContext& c = contexts[i];
    const std::string label = NodeLabel(graph, node);
    if (folded.count(node)) {
      TFA_RETURN_IF_ERROR(FoldConstantDequantize(node).WithContext(label));
      continue;
    }
    // The CPU kernel's Prepare checks the node's types and shapes as a CPU run would.
    if (const KernelRegistration* cpu = FindCpuKernel(c.node->op)) {
      TFA_RETURN_IF_ERROR(cpu->prepare(c).WithContext(label));
    }
    ClNodeBuffers node_buffers;
    node_buffers.empty = empty_.get();
    auto buffer_of = [&](const RuntimeTensor* tensor, int32_t t) -> cl_mem {
      if (!tensor || tensor->type != TensorType::kFloat32) return nullptr;
      auto it = buffers_.find(t);
      return it == buffers_.end() ? nullptr : it->second.get();
    };
    for (size_t k = 0; k < c.inputs.size(); ++k)
      node_buffers.inputs.push_back(buffer_of(c.inputs[k], c.node->inputs[k]));
    for (size_t k = 0; k < c.outputs.size(); ++k)
      node_buffers.outputs.push_back(buffer_of(c.outputs[k], c.node->outputs[k]));
    auto steps = EncodeNode(c, node_buffers, **program);
    if (!steps.ok()) return steps.status().WithContext(label);
    for (ClStep& step : *steps) steps_.push_back(std::move(step));
  }
  return CheckCl(clFinish(device_.queue()), "clFinish");
}

Status OpenClPartitionKernel::Eval(KernelContext& context) {
  transfers_->bytes_to_device = 0;
  transfers_->bytes_from_device = 0;
  // The interpreter passes the boundary tensors in the partition's order.
  for (size_t i = 0; i < partition_.inputs.size(); ++i) {
    const int32_t t = partition_.inputs[i];
    auto buffer = buffers_.find(t);
    if (buffer == buffers_.end() || tensors_.at(t).is_constant) continue;
    const RuntimeTensor& host = *context.inputs[i];
    TFA_RETURN_IF_ERROR(
        Upload(buffer->second.get(), host.data, static_cast<size_t>(host.bytes), false));
    transfers_->bytes_to_device += host.bytes;
  }
  const cl_command_queue queue = device_.queue();
  for (const ClStep& step : steps_) {
    if (step.kernel) {
      TFA_RETURN_IF_ERROR(
          CheckCl(clEnqueueNDRangeKernel(queue, step.kernel.get(), 1, nullptr, &step.global_size,
                                         nullptr, 0, nullptr, nullptr),
                  "clEnqueueNDRangeKernel"));
    } else if (step.copy_bytes > 0) {
      TFA_RETURN_IF_ERROR(CheckCl(clEnqueueCopyBuffer(queue, step.copy_from, step.copy_to, 0, 0,
                                                      step.copy_bytes, 0, nullptr, nullptr),
                                  "clEnqueueCopyBuffer"));
    }
  }
  for (size_t i = 0; i < partition_.outputs.size(); ++i) {
    RuntimeTensor& host = *context.outputs[i];
    const cl_mem buffer = buffers_.at(partition_.outputs[i]).get();
    TFA_RETURN_IF_ERROR(
        CheckCl(clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, static_cast<size_t>(host.bytes),
                                    host.data, 0, nullptr, nullptr),
                "clEnqueueReadBuffer"));
    transfers_->bytes_from_device += host.bytes;
  }
  TFA_RETURN_IF_ERROR(CheckCl(clFinish(queue), "clFinish"));
  ++transfers_->evals;
  return Status::Ok();
}

}  // namespace tfa::runtime
