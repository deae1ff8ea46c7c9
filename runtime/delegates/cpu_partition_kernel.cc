#include "runtime/delegates/cpu_partition_kernel.h"

#include <algorithm>

#include "libanalysis/arena/gpu_memory_assignment.h"
#include "runtime/kernel_intermediates.h"
#include "runtime/kernels/cpu/dequantize.h"

namespace tfa::runtime {

Result<std::unique_ptr<CpuPartitionKernel>> CpuPartitionKernel::Create(
    const DelegatePartition& partition, KernelLookup lookup) {
  std::unique_ptr<CpuPartitionKernel> kernel(new CpuPartitionKernel(partition));
  const Subgraph& graph = *partition.subgraph;
  for (int32_t index : partition.nodes) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    const KernelRegistration* registration = lookup(node.op);
    if (!registration) {
      return Status::Error("node " + std::to_string(index) + " (" + node.op +
                           "): the delegate has no kernel for this op");
    }
    Step step;
    step.node = index;
    step.kernel = registration;
    step.context.node = &node;
    step.context.node_data = &partition.model_data->Node(partition.subgraph_index, index);
    // DEQUANTIZE reads fp16 by design; DENSIFY keeps its input's type.
    const bool reads_fp16 = node.op == "DEQUANTIZE" || node.op == "DENSIFY";
    for (int32_t t : node.inputs)
      step.context.inputs.push_back(reads_fp16 ? kernel->Local(t) : kernel->FloatView(t));
    for (int32_t t : node.outputs) step.context.outputs.push_back(kernel->Local(t));
    for (int32_t t : KernelIntermediates(graph, node))
      step.context.intermediates.push_back(kernel->Local(t));
    kernel->steps_.push_back(std::move(step));
  }
  kernel->PlaceInternalTensors();
  return kernel;
}

// The partition's internal tensors share one buffer, each placed for the steps from the first to
// the last that touches it, as a delegate plans its own workspace (XNNPACK's memory planner, the
// GPU delegate's GreedyBySize; this is the latter's): a buffer of their own each would hold every
// intermediate of the partition at once. A variable keeps its bytes from one Eval to the next, so
// it spans every step and shares with nothing.
void CpuPartitionKernel::PlaceInternalTensors() {
  const auto last_step = static_cast<uint32_t>(steps_.empty() ? 0 : steps_.size() - 1);
  std::map<int32_t, GpuUsageRecord> usage;
  for (uint32_t step = 0; step < steps_.size(); ++step) {
    const Node& node = *steps_[step].context.node;
    for (const auto* list : {&node.inputs, &node.outputs}) {
      for (int32_t t : *list) {
        const auto it = tensors_.find(t);
        if (it == tensors_.end() || it->second.is_constant || IsBoundary(t)) continue;
        usage.try_emplace(t, GpuUsageRecord{0, step, step}).first->second.last_task = step;
      }
    }
  }
  std::vector<int32_t> internal;
  std::vector<GpuUsageRecord> records;
  for (auto& [t, record] : usage) {
    // At least one float, so that every element type finds its bytes aligned.
    record.bytes = std::max<uint64_t>(tensors_.at(t).bytes, sizeof(float));
    if (partition_.subgraph->tensors[static_cast<size_t>(t)].is_variable)
      record = {record.bytes, 0, last_step};
    internal.push_back(t);
    records.push_back(record);
  }
  constexpr uint64_t kAlignment = 64;  // as the interpreter's arena: kernels may rely on it
  const GpuOffsetsAssignment placed = AssignGreedyBySizeOffsets(records, kAlignment);
  internal_bytes_ = placed.total_bytes;
  // Zeroed, as a variable starts; 64 spare bytes to start on a 64-byte boundary.
  internal_storage_ = std::make_unique<float[]>((placed.total_bytes + kAlignment) / sizeof(float));
  const auto address = reinterpret_cast<uintptr_t>(internal_storage_.get());
  uint8_t* base = reinterpret_cast<uint8_t*>(internal_storage_.get()) +
                  (kAlignment - address % kAlignment) % kAlignment;
  for (size_t i = 0; i < internal.size(); ++i)
    tensors_.at(internal[i]).data = base + placed.offsets[i];
}

RuntimeTensor* CpuPartitionKernel::Local(int32_t tensor) {
  if (tensor < 0) return nullptr;
  auto [it, inserted] = tensors_.try_emplace(tensor);
  if (inserted) it->second = (*partition_.tensors)[static_cast<size_t>(tensor)];
  return &it->second;
}

// Upstream's FP16 partition helper points the nodes a delegate takes at the fp16 weights of the
// DEQUANTIZE nodes it folds (tflite/delegates/utils.cc); the delegate reads them as floats, so the
// CPU kernels get a float32 copy made once.
RuntimeTensor* CpuPartitionKernel::FloatView(int32_t tensor) {
  RuntimeTensor* local = Local(tensor);
  if (!local || !local->is_constant || local->type != TensorType::kFloat16) return local;
  auto [it, inserted] = float_copies_.try_emplace(tensor);
  if (!inserted) return &it->second;
  const int64_t count = static_cast<int64_t>(local->bytes / sizeof(uint16_t));
  storage_.push_back(std::make_unique<float[]>(static_cast<size_t>(count) + 1));
  float* values = storage_.back().get();
  const auto* halves = reinterpret_cast<const uint16_t*>(local->data);
  for (int64_t i = 0; i < count; ++i) values[i] = HalfToFloat(halves[i]);
  it->second = *local;
  it->second.type = TensorType::kFloat32;
  it->second.data = reinterpret_cast<uint8_t*>(values);
  it->second.bytes = static_cast<uint64_t>(count) * sizeof(float);
  return &it->second;
}

bool CpuPartitionKernel::IsBoundary(int32_t tensor) const {
  return std::binary_search(partition_.inputs.begin(), partition_.inputs.end(), tensor) ||
         std::binary_search(partition_.outputs.begin(), partition_.outputs.end(), tensor);
}

// The interpreter passes the boundary tensors in the partition's order.
void CpuPartitionKernel::Bind(const KernelContext& context) {
  auto bind = [&](const std::vector<int32_t>& indices, const std::vector<RuntimeTensor*>& given) {
    for (size_t i = 0; i < indices.size() && i < given.size(); ++i) {
      auto it = tensors_.find(indices[i]);
      if (it != tensors_.end() && given[i]) it->second.data = given[i]->data;
    }
  };
  bind(partition_.inputs, context.inputs);
  bind(partition_.outputs, context.outputs);
}

Status CpuPartitionKernel::Prepare(KernelContext& context) {
  Bind(context);
  uint64_t scratch = 0;
  for (Step& step : steps_) {
    TFA_RETURN_IF_ERROR(
        step.kernel->prepare(step.context).WithContext("node " + std::to_string(step.node)));
    scratch = std::max(scratch, step.context.scratch_bytes);
  }
  // 64 spare bytes so the scratch can start on a 64-byte boundary, as kernels are promised.
  scratch_ = std::make_unique<float[]>(scratch / sizeof(float) + 16);
  auto address = reinterpret_cast<uintptr_t>(scratch_.get());
  uint8_t* aligned = reinterpret_cast<uint8_t*>(scratch_.get()) + ((64 - address % 64) % 64);
  for (Step& step : steps_) step.context.scratch = aligned;
  return Status::Ok();
}

Status CpuPartitionKernel::Eval(KernelContext& context) {
  Bind(context);
  nodes_evaluated_ = 0;
  for (Step& step : steps_) {
    TFA_RETURN_IF_ERROR(
        step.kernel->eval(step.context).WithContext("node " + std::to_string(step.node)));
    ++nodes_evaluated_;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
