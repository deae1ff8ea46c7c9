#include "runtime/cpu_subset_delegate.h"

#include <algorithm>
#include <map>

#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

// Runs the subset's nodes in order. Boundary tensors are bound to the interpreter's buffers at
// each call; constants keep pointing into the model; every other tensor the nodes touch lives in
// storage the kernel owns.
class CpuSubsetKernel : public DelegateKernel {
 public:
  explicit CpuSubsetKernel(const DelegatePartition& partition) : partition_(partition) {}

  Status Init() {
    const Subgraph& graph = *partition_.subgraph;
    auto local = [&](int32_t t) -> RuntimeTensor* {
      if (t < 0) return nullptr;
      auto [it, inserted] = tensors_.try_emplace(t);
      if (inserted) it->second = (*partition_.tensors)[static_cast<size_t>(t)];
      return &it->second;
    };
    for (int32_t index : partition_.nodes) {
      const Node& node = graph.nodes[static_cast<size_t>(index)];
      const KernelRegistration* kernel = FindCpuKernel(node.op);
      if (!kernel)
        return Status::Error("node " + std::to_string(index) + " (" + node.op + "): no CPU kernel");
      KernelContext context;
      context.node = &node;
      context.node_data = &partition_.model_data->Node(partition_.subgraph_index, index);
      for (int32_t t : node.inputs) context.inputs.push_back(local(t));
      for (int32_t t : node.outputs) context.outputs.push_back(local(t));
      steps_.push_back({kernel, std::move(context)});
    }
    for (auto& [t, tensor] : tensors_) {
      if (tensor.is_constant || IsBoundary(t)) continue;
      storage_.emplace_back(tensor.bytes / sizeof(float) + 1);
      tensor.data = reinterpret_cast<uint8_t*>(storage_.back().data());
    }
    return Status::Ok();
  }

  Status Prepare(KernelContext& context) override {
    Bind(context);
    uint64_t scratch = 0;
    for (auto& step : steps_) {
      TFA_RETURN_IF_ERROR(step.kernel->prepare(step.context));
      scratch = std::max(scratch, step.context.scratch_bytes);
    }
    scratch_.assign(scratch / sizeof(float) + 16, 0.0f);
    for (auto& step : steps_) step.context.scratch = reinterpret_cast<uint8_t*>(scratch_.data());
    return Status::Ok();
  }

  Status Eval(KernelContext& context) override {
    Bind(context);
    for (auto& step : steps_) TFA_RETURN_IF_ERROR(step.kernel->eval(step.context));
    return Status::Ok();
  }

 private:
  struct Step {
    const KernelRegistration* kernel;
    KernelContext context;
  };

  bool IsBoundary(int32_t t) const {
    return std::binary_search(partition_.inputs.begin(), partition_.inputs.end(), t) ||
           std::binary_search(partition_.outputs.begin(), partition_.outputs.end(), t);
  }

  // The interpreter passes the boundary tensors in the partition's order.
  void Bind(const KernelContext& context) {
    for (size_t i = 0; i < partition_.inputs.size(); ++i) {
      auto it = tensors_.find(partition_.inputs[i]);
      if (it != tensors_.end() && context.inputs[i]) it->second.data = context.inputs[i]->data;
    }
    for (size_t i = 0; i < partition_.outputs.size(); ++i) {
      auto it = tensors_.find(partition_.outputs[i]);
      if (it != tensors_.end() && context.outputs[i]) it->second.data = context.outputs[i]->data;
    }
  }

  DelegatePartition partition_;
  std::map<int32_t, RuntimeTensor> tensors_;  // stable addresses for the contexts
  std::vector<std::vector<float>> storage_;
  std::vector<Step> steps_;
  std::vector<float> scratch_;
};

}  // namespace

CpuSubsetDelegate::CpuSubsetDelegate(std::string name, const std::set<std::string>& ops,
                                     bool greedy) {
  profile_.name = std::move(name);
  profile_.description = "claims every node whose op is listed; runs them on the CPU kernels";
  profile_.kind = ProfileKind::kOps;
  profile_.claimed_ops.assign(ops.begin(), ops.end());
  profile_.partition.greedy = greedy;
}

Result<std::unique_ptr<DelegateKernel>> CpuSubsetDelegate::CreateKernel(
    const DelegatePartition& partition) {
  auto kernel = std::make_unique<CpuSubsetKernel>(partition);
  TFA_RETURN_IF_ERROR(kernel->Init());
  return std::unique_ptr<DelegateKernel>(std::move(kernel));
}

}  // namespace tfa::runtime
