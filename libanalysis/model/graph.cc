#include "libanalysis/model/graph.h"

#include <array>
#include <numeric>
#include <utility>

namespace tfa {
namespace {

constexpr std::array<std::pair<AllocationType, const char*>, 6> kAllocationNames = {{
    {AllocationType::kArenaRw, "arena_rw"},
    {AllocationType::kArenaRwPersistent, "arena_rw_persistent"},
    {AllocationType::kMmapRo, "mmap_ro"},
    {AllocationType::kDynamic, "dynamic"},
    {AllocationType::kCustom, "custom"},
    {AllocationType::kPersistentRo, "persistent_ro"},
}};

}  // namespace

const char* AllocationTypeName(AllocationType type) {
  for (const auto& [t, name] : kAllocationNames) {
    if (t == type) return name;
  }
  return "unknown";
}

std::optional<AllocationType> AllocationTypeFromName(const std::string& name) {
  for (const auto& [t, n] : kAllocationNames) {
    if (name == n) return t;
  }
  return std::nullopt;
}

const char* ActivationName(Activation activation) {
  switch (activation) {
    case Activation::kNone:
      return "NONE";
    case Activation::kRelu:
      return "RELU";
    case Activation::kReluN1To1:
      return "RELU_N1_TO_1";
    case Activation::kRelu6:
      return "RELU6";
    case Activation::kTanh:
      return "TANH";
    case Activation::kSignBit:
      return "SIGN_BIT";
    case Activation::kUnknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

bool IsMadeOnce(const Tensor& tensor) { return tensor.is_constant(); }

std::vector<int32_t> IdentityExecutionPlan(const Subgraph& subgraph) {
  std::vector<int32_t> plan(subgraph.nodes.size());
  std::iota(plan.begin(), plan.end(), 0);
  return plan;
}

}  // namespace tfa
