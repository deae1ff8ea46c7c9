// A sample delegate that claims nodes by op name and runs each claimed subset with the runtime's
// own CPU kernels, like TFLite's custom-delegate guide sample. It is what `--delegate ops=...`
// and the sample `add-sub` delegate run as, and it proves the delegation path end to end: the
// partitioning, the delegated arena (subset-internal tensors live in the kernel's own storage,
// not the arena) and the boundary copy counts, with outputs that must equal a CPU-only run.
#ifndef RUNTIME_CPU_SUBSET_DELEGATE_H_
#define RUNTIME_CPU_SUBSET_DELEGATE_H_

#include <memory>
#include <set>
#include <string>

#include "runtime/delegate.h"

namespace tfa::runtime {

class CpuSubsetDelegate : public Delegate {
 public:
  // Claims every node whose op is in `ops` (a ProfileKind::kOps profile named `name`).
  CpuSubsetDelegate(std::string name, const std::set<std::string>& ops, bool greedy = true);

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(const DelegatePartition& partition) override;

 private:
  DelegateProfile profile_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_CPU_SUBSET_DELEGATE_H_
