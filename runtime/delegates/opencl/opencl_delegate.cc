#include "runtime/delegates/opencl/opencl_delegate.h"

#include <charconv>
#include <limits>
#include <set>

#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/delegates/opencl/opencl_ops.h"

namespace tfa::runtime {
namespace {

Result<int32_t> ParseInt(const std::string& key, const std::string& value, int32_t min) {
  int32_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || number < min) {
    return Status::Error("delegate gpu: option " + key + " must be an integer" +
                         (min == 0 ? " >= 0" : "") + ", got '" + value + "'");
  }
  return number;
}

}  // namespace

Result<std::unique_ptr<DelegateKernel>> OpenClDelegate::CreateKernel(
    const DelegatePartition& partition) {
  // Refused here rather than at Prepare: the message names the op before any device work.
  for (int32_t node : partition.nodes) {
    const Node& n = partition.subgraph->nodes[static_cast<size_t>(node)];
    if (!OpenClHasKernelFor(n.op)) {
      return Status::Error("delegate gpu (OpenCL): node " + std::to_string(node) + " (" + n.op +
                           "): the gpu profile accepts it but the OpenCL delegate has no kernel "
                           "for it yet");
    }
  }
  transfers_.push_back(std::make_shared<DeviceTransfers>());
  return std::unique_ptr<DelegateKernel>(
      std::make_unique<OpenClPartitionKernel>(partition, *device_, programs_, transfers_.back()));
}

bool IsOpenClRuntimeOption(const std::string& key) {
  static const std::set<std::string> kKeys = {"platform",
                                              "device",
                                              "max_delegated_partitions",
                                              "inference_priority1",
                                              "inference_priority2",
                                              "inference_priority3",
                                              "inference_preference",
                                              "is_precision_loss_allowed"};
  return kKeys.count(key) > 0;
}

Result<std::unique_ptr<Delegate>> CreateOpenClDelegate(const DelegateOptions& options) {
  return CreateOpenClDelegateFromSource(options, kOpKernelsSource);
}

Result<std::unique_ptr<Delegate>> CreateOpenClDelegateFromSource(
    const DelegateOptions& options, const std::string& program_source) {
  int32_t platform = 0, device = 0;
  GpuPrecisionOptions precision_options;
  auto profile = ResolveDelegateProfile("gpu");
  if (!profile.ok()) return profile.status();
  for (const auto& [key, value] : options) {
    if (key == "platform" || key == "device") {
      auto index = ParseInt(key, value, 0);
      if (!index.ok()) return index.status();
      (key == "platform" ? platform : device) = *index;
    } else if (key == "max_delegated_partitions") {
      // Upstream's TfLiteGpuDelegateOptionsV2 field; the profile turns 0 or less into 1 as the
      // GPU delegate does.
      auto count = ParseInt(key, value, std::numeric_limits<int32_t>::min());
      if (!count.ok()) return count.status();
      profile->partition.max_partitions = *count;
    } else {
      auto taken = precision_options.Set(key, value);
      if (!taken.ok()) return taken.status();
      if (!*taken) TFA_RETURN_IF_ERROR(profile->SetOption(key, value));
    }
  }
  auto opened = OpenClDevice::Open(platform, device);
  if (!opened.ok()) return opened.status().WithContext("delegate gpu");
  auto precision = ResolvePrecision(precision_options, (*opened)->info().supports_fp16);
  if (!precision.ok()) return precision.status();
  return std::unique_ptr<Delegate>(std::make_unique<OpenClDelegate>(
      std::move(profile).value(), std::move(*opened), *precision, program_source));
}

}  // namespace tfa::runtime
