#include "tests/support/custom_op_graph.h"

#include <utility>

#include "tests/support/small_graphs.h"

namespace tfa::testing {

// BuiltinOperator_CUSTOM in the schema.
constexpr int32_t kCustomBuiltinCode = 32;

Subgraph CustomOpGraph(const std::string& op, std::vector<Tensor> tensors,
                       std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                       std::vector<uint8_t> options) {
  Node node = Op(op, inputs, outputs);
  node.builtin_code = kCustomBuiltinCode;
  node.options.Mutable().custom_options_size = options.size();
  node.options.Mutable().custom_options = std::move(options);
  return Graph(std::move(tensors), {std::move(node)}, std::move(inputs), std::move(outputs));
}

}  // namespace tfa::testing
