#include "libanalysis/prepare/fake_quant_prepare.h"

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "libanalysis/prepare/added_tensors.h"

namespace tfa {

using prepare_internal::NodeError;

Result<KernelPrepareEffect> PrepareFakeQuant(const Subgraph&, const Node& node) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) {
    return NodeError(node, "expects one input and one output");
  }
  auto parameters = FakeQuantParametersOf(node.options);
  if (!parameters.ok()) return NodeError(node, parameters.status().message());
  if (parameters->narrow_range) {
    return NodeError(node,
                     "narrow_range FakeQuant is not supported at runtime (upstream's Prepare)");
  }
  return KernelPrepareEffect{};
}

}  // namespace tfa
