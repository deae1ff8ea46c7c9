#include "libanalysis/profiles/rule_checks.h"

#include "libanalysis/profiles/gpu_rules.h"
#include "libanalysis/profiles/nnapi_rules.h"
#include "libanalysis/profiles/npu_rules.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

const Tensor* TensorAt(const Subgraph& subgraph, std::span<const int32_t> list, size_t position) {
  if (position >= list.size()) return nullptr;
  const int32_t index = list[position];
  if (index < 0 || static_cast<size_t>(index) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[index];
}

}  // namespace

const Tensor* NodeContext::Input(size_t position) const {
  return TensorAt(subgraph, inputs, position);
}

const Tensor* NodeContext::Output(size_t position) const {
  return TensorAt(subgraph, node.outputs, position);
}

const NamedRuleCheck* FindRuleCheck(std::string_view name) {
  for (std::span<const NamedRuleCheck> set :
       {GpuRuleChecks(), XnnpackRuleChecks(), NnapiRuleChecks(), NpuRuleChecks()}) {
    for (const NamedRuleCheck& check : set) {
      if (check.name == name) return &check;
    }
  }
  return nullptr;
}

}  // namespace tfa
