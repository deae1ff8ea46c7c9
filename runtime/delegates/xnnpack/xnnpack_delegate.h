// The XNNPACK delegate on Debian 12's libXNNPACK (0.0~git20220216.ae108ef): takes exactly the
// nodes the analyser's `xnnpack` profile takes (upstream's Visit*Node rules, with the options
// `--delegate-option` gives), so its partitions equal the prediction, and runs each partition
// with XnnpackPartitionKernel: the nodes that library can express on XNNPACK, the others (ops
// upstream's newer pin has and 2022's lacks) on this runtime's CPU kernels inside the partition.
//
// Single-threaded (no pthreadpool), as `run` runs the CPU kernels by default.
#ifndef RUNTIME_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
#define RUNTIME_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_

#include <memory>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"
#include "runtime/delegates/xnnpack/xnnpack_partition_kernel.h"

namespace tfa::runtime {

class XnnpackDelegate : public Delegate {
 public:
  explicit XnnpackDelegate(DelegateProfile profile) : profile_(std::move(profile)) {}

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(const DelegatePartition& partition) override;

  // One entry per kernel this delegate created, in creation order, filled as they run.
  const std::vector<std::shared_ptr<XnnpackPartitionStats>>& partitions() const {
    return partitions_;
  }

 private:
  DelegateProfile profile_;
  std::vector<std::shared_ptr<XnnpackPartitionStats>> partitions_;
};

// The delegate with the `xnnpack` profile resolved with `options` (qs8, qu8, ...); an unknown
// option, or a CPU libXNNPACK cannot run on, is an error.
[[nodiscard]] Result<std::unique_ptr<Delegate>> CreateXnnpackDelegate(
    const DelegateOptions& options = {});

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
