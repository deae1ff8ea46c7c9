#include "runtime/delegates/samples/add_sub_delegate.h"

#include "libanalysis/plan/delegate_request.h"
#include "runtime/delegates/samples/profile_cpu_delegate.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

// The profile admits only ADD and SUB, so a partition never holds another op; the CPU kernels
// compute them (with broadcasting and fused activations) exactly as a CPU-only run does.
const KernelRegistration* AddSubKernel(const std::string& op) {
  return op == "ADD" || op == "SUB" ? FindCpuKernel(op) : nullptr;
}

}  // namespace

Result<std::unique_ptr<Delegate>> CreateAddSubDelegate(const DelegateOptions& options) {
  auto profile = ResolveDelegateSpec("add-sub", options);
  if (!profile.ok()) return profile.status();
  return std::unique_ptr<Delegate>(
      std::make_unique<ProfileCpuDelegate>(std::move(profile).value(), &AddSubKernel));
}

}  // namespace tfa::runtime
