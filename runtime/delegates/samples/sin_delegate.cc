#include "runtime/delegates/samples/sin_delegate.h"

#include <cmath>

#include "libanalysis/plan/delegate_request.h"
#include "runtime/delegates/samples/profile_cpu_delegate.h"

namespace tfa::runtime {
namespace {

Status PrepareSin(KernelContext& context) {
  if (context.inputs.size() != 1 || context.outputs.size() != 1 || !context.inputs[0] ||
      !context.outputs[0]) {
    return Status::Error("SIN takes one input and one output");
  }
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& output = context.output(0);
  if (input.type != TensorType::kFloat32 || output.type != TensorType::kFloat32)
    return Status::Error("SIN: the sin delegate computes float32 only");
  if (input.shape != output.shape) return Status::Error("SIN: output shape differs from input");
  return Status::Ok();
}

Status EvalSin(KernelContext& context) {
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t n = context.input(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = std::sin(in[i]);
  return Status::Ok();
}

const KernelRegistration* SinOnly(const std::string& op) {
  return op == "SIN" ? &SinKernel() : nullptr;
}

}  // namespace

const KernelRegistration& SinKernel() {
  static constexpr KernelRegistration kSin{&PrepareSin, &EvalSin};
  return kSin;
}

Result<std::unique_ptr<Delegate>> CreateSinDelegate(const DelegateOptions& options) {
  auto profile = ResolveDelegateSpec("sin", options);
  if (!profile.ok()) return profile.status();
  return std::unique_ptr<Delegate>(
      std::make_unique<ProfileCpuDelegate>(std::move(profile).value(), &SinOnly));
}

}  // namespace tfa::runtime
