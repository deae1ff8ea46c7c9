#include "runtime/delegates/decomposition_kernel.h"

#include <algorithm>

#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {

namespace {

// The positions of `boundary`'s tensors once sorted, as DelegatePartition lists them; errors when
// a tensor appears twice.
Result<std::vector<size_t>> SortedPositions(const std::vector<int32_t>& boundary,
                                            std::vector<int32_t>& sorted, const char* what) {
  std::vector<size_t> order(boundary.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return boundary[a] < boundary[b]; });
  sorted.clear();
  for (size_t i : order) {
    if (boundary[i] < 0) return Status::Error(std::string("an absent ") + what);
    if (!sorted.empty() && sorted.back() == boundary[i])
      return Status::Error(std::string("tensor ") + std::to_string(boundary[i]) + " is two " +
                           what + "s");
    sorted.push_back(boundary[i]);
  }
  return order;
}

Status CheckSameTensor(const RuntimeTensor& node_tensor, const Tensor& body_tensor,
                       const std::string& what) {
  if (node_tensor.type != body_tensor.type ||
      !std::equal(node_tensor.shape.begin(), node_tensor.shape.end(), body_tensor.shape.begin(),
                  body_tensor.shape.end())) {
    return Status::Error(what + " differs in type or shape from the decomposition's");
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<DecompositionKernel>> DecompositionKernel::Create(
    const Node& composite, const std::vector<const RuntimeTensor*>& inputs,
    const std::vector<const RuntimeTensor*>& outputs, PartitionHost* host,
    const ModelData* model_data) {
  if (!host) return Status::Error("a composite needs the interpreter's subgraphs");
  const int32_t index = composite.options->subgraph;
  std::unique_ptr<DecompositionKernel> kernel(new DecompositionKernel());
  kernel->graph_ = host->Graph(index);
  if (!kernel->graph_.graph)
    return Status::Error("no decomposition subgraph " + std::to_string(index));
  const Subgraph& body = *kernel->graph_.graph;
  if (body.inputs.size() != inputs.size() || body.outputs.size() != outputs.size()) {
    return Status::Error("decomposition subgraph " + std::to_string(index) + " has " +
                         std::to_string(body.inputs.size()) + " inputs and " +
                         std::to_string(body.outputs.size()) + " outputs for the node's " +
                         std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()));
  }
  // Upstream's composite kernel resizes the decomposition's inputs to the node's; this one runs
  // a decomposition of the node's very shapes only.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) return Status::Error("an absent composite input");
    TFA_RETURN_IF_ERROR(CheckSameTensor(*inputs[i],
                                        body.tensors[static_cast<size_t>(body.inputs[i])],
                                        "input " + std::to_string(i)));
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    TFA_RETURN_IF_ERROR(CheckSameTensor(*outputs[i],
                                        body.tensors[static_cast<size_t>(body.outputs[i])],
                                        "output " + std::to_string(i)));
  }
  kernel->tensors_.resize(body.tensors.size());
  for (size_t t = 0; t < body.tensors.size(); ++t) {
    const Tensor& tensor = body.tensors[t];
    RuntimeTensor& r = kernel->tensors_[t];
    r.type = tensor.type;
    r.shape.assign(tensor.shape.begin(), tensor.shape.end());
    r.bytes = tensor.bytes_or_zero();
    r.quantization = &*tensor.quantization;
    r.is_constant = tensor.is_constant();
    if (r.is_constant) {
      const auto bytes = model_data->TensorData(index, static_cast<int32_t>(t));
      r.data = const_cast<uint8_t*>(bytes.data());  // kernels never write their inputs
      r.bytes = bytes.size();
      r.sparsity = model_data->TensorSparsity(index, static_cast<int32_t>(t));
    }
  }
  DelegatePartition partition;
  partition.subgraph = &body;
  for (size_t n = 0; n < kernel->graph_.model_nodes; ++n)
    partition.nodes.push_back(static_cast<int32_t>(n));
  auto in = SortedPositions(body.inputs, partition.inputs, "input");
  if (!in.ok()) return in.status();
  auto out = SortedPositions(body.outputs, partition.outputs, "output");
  if (!out.ok()) return out.status();
  for (int32_t t : partition.inputs) {
    if (std::binary_search(partition.outputs.begin(), partition.outputs.end(), t))
      return Status::Error("tensor " + std::to_string(t) + " is both input and output");
  }
  kernel->input_positions_ = std::move(*in);
  kernel->output_positions_ = std::move(*out);
  partition.tensors = &kernel->tensors_;
  partition.model_data = model_data;
  partition.subgraph_index = index;
  partition.host = host;
  auto inner = CpuPartitionKernel::Create(partition, &FindCpuKernel);
  if (!inner.ok())
    return inner.status().WithContext("decomposition subgraph " + std::to_string(index));
  kernel->kernel_ = std::move(*inner);
  return kernel;
}

KernelContext DecompositionKernel::Inner(const KernelContext& outer) const {
  KernelContext inner;
  inner.node = outer.node;
  inner.thread_pool = outer.thread_pool;
  for (size_t position : input_positions_) inner.inputs.push_back(outer.inputs.at(position));
  for (size_t position : output_positions_) inner.outputs.push_back(outer.outputs.at(position));
  return inner;
}

Status DecompositionKernel::Prepare(KernelContext& context) {
  KernelContext inner = Inner(context);
  return kernel_->Prepare(inner);
}

Status DecompositionKernel::Eval(KernelContext& context) {
  KernelContext inner = Inner(context);
  return kernel_->Eval(inner);
}

uint64_t DecompositionKernel::owned_bytes() const { return kernel_->internal_bytes(); }

}  // namespace tfa::runtime
