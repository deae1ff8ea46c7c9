#include "delegates_sim/simulated_delegate.h"

#include <chrono>

#include "libanalysis/plan/delegate_request.h"
#include "runtime/delegates/cpu_partition_kernel.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

// Runs the partition on the CPU kernels and books its transfers and time; a delegate that works
// on TFLite's buffers in place (TransferCosts::in_place) books transitions but no bytes.
class SimulatedKernel : public DelegateKernel {
 public:
  SimulatedKernel(std::unique_ptr<CpuPartitionKernel> cpu, const TransferCosts& transfer,
                  std::shared_ptr<SimulatedCosts> costs)
      : cpu_(std::move(cpu)), transfer_(transfer), costs_(std::move(costs)) {}

  Status Prepare(KernelContext& context) override {
    TFA_RETURN_IF_ERROR(cpu_->Prepare(context));
    if (transfer_.in_place) return Status::Ok();
    for (const RuntimeTensor* input : context.inputs) {
      if (input && input->is_constant) costs_->init_upload_bytes += input->bytes;
    }
    return Status::Ok();
  }

  Status Eval(KernelContext& context) override {
    uint64_t bytes = 0;
    for (const RuntimeTensor* input : context.inputs) {
      if (!input || input->is_constant || transfer_.in_place) continue;
      costs_->bytes_to_delegate += input->bytes;
      bytes += input->bytes;
    }
    const auto start = std::chrono::steady_clock::now();
    TFA_RETURN_IF_ERROR(cpu_->Eval(context));
    costs_->compute_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const RuntimeTensor* output : context.outputs) {
      if (!output || transfer_.in_place) continue;
      costs_->bytes_from_delegate += output->bytes;
      bytes += output->bytes;
    }
    constexpr int64_t kTransitionsPerEval = 2;  // into the delegate and back
    costs_->transitions += kTransitionsPerEval;
    costs_->estimated_copy_seconds += transfer_.EstimatedCopySeconds(bytes, kTransitionsPerEval);
    ++costs_->evals;
    return Status::Ok();
  }

 private:
  std::unique_ptr<CpuPartitionKernel> cpu_;
  TransferCosts transfer_;
  std::shared_ptr<SimulatedCosts> costs_;
};

}  // namespace

Result<std::unique_ptr<DelegateKernel>> SimulatedDelegate::CreateKernel(
    const DelegatePartition& partition) {
  auto cpu = CpuPartitionKernel::Create(partition, &FindCpuKernel);
  if (!cpu.ok()) return cpu.status().WithContext("simulated delegate " + Name());
  return std::unique_ptr<DelegateKernel>(
      std::make_unique<SimulatedKernel>(std::move(*cpu), profile_.transfer, costs_));
}

Result<std::unique_ptr<SimulatedDelegate>> CreateSimulatedDelegate(const std::string& spec,
                                                                   const DelegateOptions& options) {
  auto profile = ResolveDelegateSpec(spec, options);
  if (!profile.ok()) return profile.status();
  return std::make_unique<SimulatedDelegate>(std::move(profile).value());
}

}  // namespace tfa::runtime
