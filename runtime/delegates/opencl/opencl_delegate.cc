#include "runtime/delegates/opencl/opencl_delegate.h"

#include <charconv>

#include "runtime/delegates/opencl/opencl_ops.h"

namespace tfa::runtime {
namespace {

Result<int32_t> ParseIndex(const std::string& key, const std::string& value) {
  int32_t index = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), index);
  if (error != std::errc() || end != value.data() + value.size() || index < 0) {
    return Status::Error("delegate gpu: option " + key + " must be a non-negative integer, got '" +
                         value + "'");
  }
  return index;
}

}  // namespace

Result<std::unique_ptr<DelegateKernel>> OpenClDelegate::CreateKernel(
    const DelegatePartition& partition) {
  // Refused here rather than at Prepare: the message names the op before any device work.
  for (int32_t node : partition.nodes) {
    const Node& n = partition.subgraph->nodes[static_cast<size_t>(node)];
    if (n.op != "DEQUANTIZE" && !OpenClHasKernelFor(n.op)) {
      return Status::Error("delegate gpu (OpenCL): node " + std::to_string(node) + " (" + n.op +
                           "): the gpu profile accepts it but the OpenCL delegate has no kernel "
                           "for it yet");
    }
  }
  transfers_.push_back(std::make_shared<DeviceTransfers>());
  return std::unique_ptr<DelegateKernel>(
      std::make_unique<OpenClPartitionKernel>(partition, *device_, programs_, transfers_.back()));
}

Result<std::unique_ptr<Delegate>> CreateOpenClDelegate(const DelegateOptions& options) {
  int32_t platform = 0, device = 0;
  DelegateOptions profile_options;
  for (const auto& [key, value] : options) {
    if (key == "platform" || key == "device") {
      auto index = ParseIndex(key, value);
      if (!index.ok()) return index.status();
      (key == "platform" ? platform : device) = *index;
      continue;
    }
    profile_options.emplace_back(key, value);
  }
  auto support = ProfileSupport::Resolve("gpu", profile_options);
  if (!support.ok()) return support.status();
  auto opened = OpenClDevice::Open(platform, device);
  if (!opened.ok()) return opened.status().WithContext("delegate gpu");
  return std::unique_ptr<Delegate>(
      std::make_unique<OpenClDelegate>(std::move(*support), std::move(*opened)));
}

}  // namespace tfa::runtime
