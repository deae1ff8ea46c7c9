// A one-subgraph model built node by node, the way upstream's delegate testers build theirs, and
// a delegate profile's verdict on each node: the shared fixture of the rule tests
// (libanalysis/profiles/*_rules_test.cc). Header-only, so that test binaries that do not link the
// profiles library never pull it in.
#ifndef TESTS_SUPPORT_RULE_TEST_GRAPH_H_
#define TESTS_SUPPORT_RULE_TEST_GRAPH_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"

namespace tfa::testing {

using RuleOptions = std::vector<std::pair<std::string, std::string>>;

class RuleTestGraph {
 public:
  int32_t Tensor(TensorType type, std::vector<int32_t> shape, Quantization q = {}) {
    tfa::Tensor t;
    t.type = type;
    t.shape = std::move(shape);
    t.quantization = std::move(q);
    subgraph_.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph_.tensors.size() - 1);
  }
  // A read-only constant whose values the rules cannot see (as in Graph JSON).
  int32_t Constant(TensorType type, std::vector<int32_t> shape, Quantization q = {}) {
    const int32_t id = Tensor(type, std::move(shape), std::move(q));
    subgraph_.tensors.back().allocation = AllocationType::kMmapRo;
    subgraph_.tensors.back().constant_bytes = 4;
    return id;
  }
  // A read-only int32 / int64 constant with its values, as a .tflite model carries them.
  int32_t Values(TensorType type, std::vector<int32_t> shape, std::vector<int64_t> values) {
    const int32_t id = Constant(type, std::move(shape));
    tfa::Tensor& t = subgraph_.tensors.back();
    t.constant_bytes = values.size() * (type == TensorType::kInt64 ? 8 : 4);
    t.bytes = t.constant_bytes;
    t.int_values = std::move(values);
    return id;
  }
  int32_t SparseConstant(TensorType type, std::vector<int32_t> shape) {
    const int32_t id = Constant(type, std::move(shape));
    subgraph_.tensors.back().is_sparse = true;
    return id;
  }
  // A node's tensors in one braced list: its elements are evaluated in order, so tensors made
  // inside it are numbered as written (a call's separate arguments are not).
  struct Io {
    std::vector<int32_t> inputs;
    std::vector<int32_t> outputs;
  };
  Node& Op(const std::string& op, Io io) {
    Node node;
    node.op = op;
    node.inputs = std::move(io.inputs);
    node.outputs = std::move(io.outputs);
    subgraph_.nodes.push_back(std::move(node));
    subgraph_.execution_plan.push_back(static_cast<int32_t>(subgraph_.nodes.size() - 1));
    return subgraph_.nodes.back();
  }
  Node& Custom(const std::string& code, Io io) {
    Node& node = Op(code, std::move(io));
    node.kind = NodeKind::kCustom;
    return node;
  }

  const Subgraph& subgraph() const { return subgraph_; }

  // The selection of builtin profile `profile` with `options` set.
  DelegateSelection Select(const std::string& profile_name, const RuleOptions& options) const {
    auto profile = ResolveDelegateProfile(profile_name);
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    if (!profile.ok()) return {};
    for (const auto& [key, value] : options) {
      const Status set = profile->SetOption(key, value);
      EXPECT_TRUE(set.ok()) << set.message();
    }
    auto selection = SelectDelegateNodes(subgraph_, *profile);
    EXPECT_TRUE(selection.ok()) << selection.status().message();
    if (!selection.ok()) return {};
    return *selection;
  }
  // Each node's verdict: "" when the delegate takes it, else the reason.
  std::vector<std::string> Verdicts(const std::string& profile_name,
                                    const RuleOptions& options = {}) const {
    std::vector<std::string> reasons(subgraph_.nodes.size());
    for (const NodeSupport& verdict : Select(profile_name, options).verdicts) {
      reasons[static_cast<size_t>(verdict.node)] = verdict.supported ? "" : verdict.reason;
    }
    return reasons;
  }

 private:
  Subgraph subgraph_;
};

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_RULE_TEST_GRAPH_H_
