// The OpenCL GPU delegate: runs the partitions the `gpu` profile selects (the analyser's model of
// TFLite's GPU delegate: its op rules, its one largest partition, its FP16 helper) with real
// OpenCL on any OpenCL 1.2 device, so `run --delegate gpu --validate` measures what `report
// --delegate gpu` predicts. The ops it computes are listed by OpenClHasKernelFor (opencl_ops.h);
// a partition holding another op the profile accepts is a CreateKernel error naming the op.
//
// Options (`--delegate-option KEY=VALUE` or plugin options): `platform=N` and `device=N` pick
// the device (ListOpenClDevices' numbering, default 0 and 0); `max_delegated_partitions=N` is
// upstream's option of that name (default 1, 0 or less means 1); `is_precision_loss_allowed`,
// `inference_priority1..3` and `inference_preference` are upstream's precision options
// (opencl_precision.h); every other key is a `gpu` profile option (allow_quant_ops,
// opencl_available, ...).
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_DELEGATE_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_DELEGATE_H_

#include <memory>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"
#include "runtime/delegates/opencl/opencl_device.h"
#include "runtime/delegates/opencl/opencl_partition_kernel.h"
#include "runtime/delegates/opencl/opencl_program.h"

namespace tfa::runtime {

class OpenClDelegate : public Delegate {
 public:
  // `program_source` is the op kernels' OpenCL C (tests plant bugs in a copy).
  OpenClDelegate(DelegateProfile profile, std::unique_ptr<OpenClDevice> device,
                 ClPrecision precision = ClPrecision::kF32,
                 std::string program_source = kOpKernelsSource)
      : profile_(std::move(profile)),
        device_(std::move(device)),
        programs_(*device_, precision, std::move(program_source)) {}

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(const DelegatePartition& partition) override;

  const OpenClDeviceInfo& device_info() const { return device_->info(); }
  // The precision the kernels compute at, resolved from the options as upstream resolves it.
  ClPrecision precision() const { return programs_.precision(); }
  // What each kernel this delegate created moved, in creation order.
  const std::vector<std::shared_ptr<DeviceTransfers>>& transfers() const { return transfers_; }
  // How many times the op program was built (once per delegate at most).
  int program_builds() const { return programs_.builds(); }

 private:
  DelegateProfile profile_;
  std::unique_ptr<OpenClDevice> device_;
  OpenClProgramCache programs_;
  std::vector<std::shared_ptr<DeviceTransfers>> transfers_;
};

// Whether `key` is an option of the OpenCL delegate itself (device choice, partition count,
// precision) rather than of the `gpu` profile the analyser reads.
bool IsOpenClRuntimeOption(const std::string& key);

// Opens the device the options name and resolves the `gpu` profile with the remaining options.
// No OpenCL platform, a platform or device index out of range, or a bad option is an error.
[[nodiscard]] Result<std::unique_ptr<Delegate>> CreateOpenClDelegate(
    const DelegateOptions& options = {});
// The same with op kernels compiled from `program_source` (tests plant bugs in a copy).
[[nodiscard]] Result<std::unique_ptr<Delegate>> CreateOpenClDelegateFromSource(
    const DelegateOptions& options, const std::string& program_source);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_DELEGATE_H_
