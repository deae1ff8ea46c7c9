#include "runtime/delegates/samples/profile_cpu_delegate.h"

namespace tfa::runtime {

Result<std::unique_ptr<DelegateKernel>> ProfileCpuDelegate::CreateKernel(
    const DelegatePartition& partition) {
  auto kernel = CpuPartitionKernel::Create(partition, lookup_);
  if (!kernel.ok()) return kernel.status().WithContext("delegate " + Name());
  return std::unique_ptr<DelegateKernel>(std::move(*kernel));
}

}  // namespace tfa::runtime
