#include "libanalysis/plan/accelerator_request.h"

#include <algorithm>
#include <array>

#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {
namespace {

constexpr std::string_view kNpuPrefix = "npu:";
constexpr std::string_view kNpuProfilePrefix = "npu-";

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

Status AcceleratorError(std::string_view item, const std::string& why) {
  std::string message = "--accelerator ";
  message += item;
  message += ": ";
  message += why;
  return Status::Error(message);
}

}  // namespace

std::vector<std::string> NpuVendors() {
  std::vector<std::string> vendors;
  for (const std::string& name : BuiltinProfileNames()) {
    if (name.starts_with(kNpuProfilePrefix))
      vendors.push_back(name.substr(kNpuProfilePrefix.size()));
  }
  std::sort(vendors.begin(), vendors.end());
  return vendors;
}

Result<std::vector<DelegateRequest>> AcceleratorRequests(std::string_view list) {
  // CompiledModel's order: NPU, GPU, CPU.
  std::array<std::string, 3> specs;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view item = list.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) return AcceleratorError(list, "empty item in the list");
    size_t slot = 0;
    std::string spec;
    if (item.starts_with(kNpuPrefix)) {
      const std::string vendor(item.substr(kNpuPrefix.size()));
      const std::vector<std::string> vendors = NpuVendors();
      if (std::find(vendors.begin(), vendors.end(), vendor) == vendors.end()) {
        std::string why = "unknown NPU vendor '";
        why += vendor;
        why += "' (known: ";
        why += Joined(vendors);
        why += ')';
        return AcceleratorError(item, why);
      }
      spec = kNpuProfilePrefix;
      spec += vendor;
    } else if (item == "gpu") {
      slot = 1;
      spec = "gpu";
    } else if (item == "cpu") {
      slot = 2;
      spec = "xnnpack";
    } else {
      return AcceleratorError(item, "expected npu:VENDOR, gpu or cpu");
    }
    if (!specs[slot].empty()) {
      return AcceleratorError(list, slot == 0 ? "more than one NPU" : "named twice");
    }
    specs[slot] = std::move(spec);
  }
  std::vector<DelegateRequest> requests;
  for (std::string& spec : specs) {
    if (spec.empty()) continue;
    DelegateRequest request;
    request.spec = std::move(spec);
    requests.push_back(std::move(request));
  }
  return requests;
}

}  // namespace tfa
