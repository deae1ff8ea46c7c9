// A simulated delegate: for hardware we do not have (NNAPI, Hexagon, an Edge TPU), a delegate
// that takes exactly the nodes its profile takes (the plan applies its profile: the runtime
// partitions as the analyser predicts), executes each partition on the CPU kernels (outputs equal a
// CPU-only run's) and accounts what the real hardware would cost: the bytes crossing the boundary
// per direction, the transitions, the copy time the profile's TransferCosts estimate, and the
// measured compute time of the partition's nodes. `run --validate` reports these next to the
// prediction.
//
// Not simulated: the hardware's own compute speed (the CPU time is what is measured) and
// numerical differences of its kernels (the CPU's are used).
#ifndef DELEGATES_SIM_SIMULATED_DELEGATE_H_
#define DELEGATES_SIM_SIMULATED_DELEGATE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"

namespace tfa::runtime {

// Accumulated over every Eval of every kernel of one delegate.
struct SimulatedCosts {
  uint64_t bytes_to_delegate = 0;    // non-constant boundary inputs, per Eval, summed
  uint64_t bytes_from_delegate = 0;  // boundary outputs
  uint64_t init_upload_bytes = 0;    // constant boundary inputs, once per kernel at Prepare
  int64_t transitions = 0;           // CPU -> delegate and back: two per Eval
  int64_t evals = 0;
  double estimated_copy_seconds = 0;  // TransferCosts::EstimatedCopySeconds of the above
  double compute_seconds = 0;         // measured CPU time of the partitions' nodes
};

class SimulatedDelegate : public Delegate {
 public:
  explicit SimulatedDelegate(DelegateProfile profile)
      : profile_(std::move(profile)), costs_(std::make_shared<SimulatedCosts>()) {}

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(const DelegatePartition& partition) override;

  const SimulatedCosts& costs() const { return *costs_; }
  const DelegateProfile& profile() const { return profile_; }

 private:
  DelegateProfile profile_;
  std::shared_ptr<SimulatedCosts> costs_;  // shared with the kernels it creates
};

// A simulated delegate for `spec` (a built-in profile name such as "nnapi", `ops=...`,
// `nodes=...` or a profile file) with the profile options `options`.
[[nodiscard]] Result<std::unique_ptr<SimulatedDelegate>> CreateSimulatedDelegate(
    const std::string& spec, const DelegateOptions& options = {});

}  // namespace tfa::runtime

#endif  // DELEGATES_SIM_SIMULATED_DELEGATE_H_
