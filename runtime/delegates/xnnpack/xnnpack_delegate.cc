#include "runtime/delegates/xnnpack/xnnpack_delegate.h"

#include "libanalysis/plan/delegate_request.h"
#include "runtime/delegates/xnnpack/xnnpack_library.h"

namespace tfa::runtime {

Result<std::unique_ptr<DelegateKernel>> XnnpackDelegate::CreateKernel(
    const DelegatePartition& partition) {
  auto stats = std::make_shared<XnnpackPartitionStats>();
  auto kernel = XnnpackPartitionKernel::Create(partition, stats);
  if (!kernel.ok()) return kernel.status().WithContext("delegate " + Name());
  partitions_.push_back(std::move(stats));
  return std::unique_ptr<DelegateKernel>(std::move(*kernel));
}

Result<std::unique_ptr<Delegate>> CreateXnnpackDelegate(const DelegateOptions& options) {
  auto library = XnnpackLibrary::Get();
  if (!library.ok()) return library.status();
  auto profile = ResolveDelegateSpec("xnnpack", options);
  if (!profile.ok()) return profile.status();
  return std::unique_ptr<Delegate>(std::make_unique<XnnpackDelegate>(std::move(profile).value()));
}

}  // namespace tfa::runtime
