// A delegate whose support predicate is a delegate profile and whose kernels run their partition
// node by node on CPU kernels (CpuPartitionKernel). The sample delegates are such delegates: they
// show the delegate path end to end (partitioning identical to the analyser's prediction, boundary
// copies, subset-internal tensors outside the arena) with outputs a CPU-only run must reproduce.
#ifndef RUNTIME_DELEGATES_SAMPLES_PROFILE_CPU_DELEGATE_H_
#define RUNTIME_DELEGATES_SAMPLES_PROFILE_CPU_DELEGATE_H_

#include <memory>
#include <string>

#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/delegate.h"
#include "runtime/delegates/cpu_partition_kernel.h"

namespace tfa::runtime {

class ProfileCpuDelegate : public Delegate {
 public:
  ProfileCpuDelegate(DelegateProfile profile, KernelLookup lookup)
      : profile_(std::move(profile)), lookup_(lookup) {}

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(const DelegatePartition& partition) override;

 private:
  DelegateProfile profile_;
  KernelLookup lookup_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_SAMPLES_PROFILE_CPU_DELEGATE_H_
