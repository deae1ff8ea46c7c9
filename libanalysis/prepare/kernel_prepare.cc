#include "libanalysis/prepare/kernel_prepare.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "libanalysis/prepare/folded_values.h"
#include "libanalysis/prepare/gpu_delegate_kernel.h"
#include "libanalysis/prepare/shape_inference.h"

namespace tfa {
namespace {

// Control flow and resource variables: their outputs are shaped by the whole-model replay
// (control_flow_prepare.h), which knows the child subgraphs and the variables' values.
bool ShapedByTheInterpreterReplay(std::string_view op) {
  return op == "WHILE" || op == "IF" || op == "CALL_ONCE" || op == "CALL" || op == "VAR_HANDLE" ||
         op == "READ_VARIABLE" || op == "ASSIGN_VARIABLE" || op == "STABLEHLO_COMPOSITE";
}

class PrepareReplay {
 public:
  PrepareReplay(const Subgraph& subgraph, const PrepareOptions& options)
      : options_(options), prepared_(subgraph.nodes.size(), false) {
    result_.subgraph = subgraph;
    result_.model_tensor_count = static_cast<int32_t>(subgraph.tensors.size());
  }

  Result<PreparedSubgraph> Run() && {
    const Subgraph& graph = result_.subgraph;
    ReserveInitTensors();
    bool delegated = false;
    for (const Node& node : graph.nodes) delegated |= node.kind == NodeKind::kDelegateKernel;
    if (delegated && options_.prepare_before_delegation) {
      for (size_t i = 0; i < graph.nodes.size(); ++i) {
        if (graph.nodes[i].kind == NodeKind::kDelegateKernel) continue;
        TFA_RETURN_IF_ERROR(PrepareNode(static_cast<int32_t>(i)));
        // ModifyGraphWithDelegate's PrepareOpsAndTensors stops at a dynamic output too.
        if (HasDynamicOutput(graph.nodes[i])) break;
      }
    }
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      if (graph.nodes[i].kind == NodeKind::kDelegateKernel) CreateDelegateKernel(i);
    }
    for (int32_t node_index : graph.execution_plan) {
      if (node_index < 0 || static_cast<size_t>(node_index) >= graph.nodes.size()) {
        return Status::Error("subgraph '" + graph.name + "': execution plan names node " +
                             std::to_string(node_index) + " of " +
                             std::to_string(graph.nodes.size()));
      }
      if (graph.nodes[node_index].kind == NodeKind::kDelegateKernel) continue;
      TFA_RETURN_IF_ERROR(PrepareNode(node_index));
      // PrepareOpsStartingAt stops after the first node with a dynamic output: the nodes after
      // it are prepared at Invoke, once that output has its shape (tflite/core/subgraph.cc).
      if (HasDynamicOutput(graph.nodes[node_index])) break;
    }
    return std::move(result_);
  }

 private:
  // A kernel keeps the tensors of its first Prepare (upstream's OpData holds their ids), and
  // Prepare decides the same way every time, so a node is replayed once.
  Status PrepareNode(int32_t node_index) {
    if (prepared_[node_index]) return Status::Ok();
    prepared_[node_index] = true;
    const Node& node = result_.subgraph.nodes[node_index];
    if (!node.temporaries.empty()) return Status::Ok();
    const std::optional<InferredShapes> resized = ResizeOutputs(node);
    const bool dynamic = resized && resized->dynamic;
    auto effect = PrepareBuiltinKernel(result_.subgraph, node, options_.build);
    if (!effect.ok()) {
      // A kernel that makes its output dynamic returns from Prepare before the checks that
      // need the output's shape.
      if (dynamic) {
        MarkOutputsDynamic(node, *resized);
        return Status::Ok();
      }
      return effect.status().WithContext("node " + std::to_string(node_index));
    }
    if (dynamic) MarkOutputsDynamic(node, *resized);
    if (!effect->modelled) {
      result_.assumptions.push_back(
          node.kind == NodeKind::kCustom
              ? "estimate: custom op " + node.op + " #" + std::to_string(node_index) +
                    " Prepare not modelled (no temporaries, output shapes as in the model)"
              : "estimate: " + node.op + " #" + std::to_string(node_index) +
                    " temporaries not modelled");
    }
    Apply(node_index, *effect);
    RecordFoldedValues(node);
    return Status::Ok();
  }

  // The output shapes the kernel's Prepare computes (ResizeTensor), which replace those the file
  // states: a TF1-converted model may store [] for a tensor whose shape Prepare computes. Returns
  // the rule's outcome, which says the outputs sized at Eval instead (values unknown at Prepare),
  // or nullopt when the shapes cannot be said here (no shape rule, a rule that refuses, or an
  // input upstream folded whose values are not computed here): the file's shapes stand then.
  std::optional<InferredShapes> ResizeOutputs(const Node& node) {
    if (node.kind != NodeKind::kBuiltin || ShapedByTheInterpreterReplay(node.op)) {
      return std::nullopt;
    }
    for (int32_t input : node.inputs) {
      if (input >= 0 && folded_unknown_.count(input)) return std::nullopt;
    }
    Subgraph& graph = result_.subgraph;
    auto inferred = InferOutputShapesOrDynamic(graph, node, FoldedValues());
    if (!inferred.ok()) return std::nullopt;
    if (inferred->dynamic && inferred->sized.empty()) return std::move(inferred).value();
    if (inferred->shapes.size() != node.outputs.size()) return std::nullopt;
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i] < 0 || inferred->IsDynamicOutput(i)) continue;
      Tensor& tensor = graph.tensors[static_cast<size_t>(node.outputs[i])];
      if (tensor.allocation == AllocationType::kDynamic) continue;
      const Dims shape(inferred->shapes[i]);
      if (tensor.shape == shape) continue;
      tensor.shape = shape;
      tensor.bytes = ShapeBytes(tensor.type, tensor.shape);
    }
    return std::move(inferred).value();
  }

  IntValuesOf FoldedValues() const {
    return [this](int32_t tensor) -> std::optional<std::vector<int64_t>> {
      const auto found = folded_values_.find(tensor);
      if (found == folded_values_.end()) return std::nullopt;
      return found->second;
    };
  }

  // The outputs its Prepare leaves to Eval (SetTensorToDynamic); the others stay in the arena.
  void MarkOutputsDynamic(const Node& node, const InferredShapes& inferred) {
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      const int32_t output = node.outputs[i];
      if (output < 0 || !inferred.IsDynamicOutput(i)) continue;
      result_.subgraph.tensors[static_cast<size_t>(output)].allocation = AllocationType::kDynamic;
    }
  }

  bool HasDynamicOutput(const Node& node) const {
    for (int32_t output : node.outputs) {
      if (output >= 0 && result_.subgraph.tensors[static_cast<size_t>(output)].allocation ==
                             AllocationType::kDynamic) {
        return true;
      }
    }
    return false;
  }

  // A kernel that folded its output in Prepare (constant_folding.h) hands its values to the
  // shape rules after it.
  void RecordFoldedValues(const Node& node) {
    if (node.outputs.empty() || node.outputs[0] < 0) return;
    const int32_t output = node.outputs[0];
    if (result_.subgraph.tensors[static_cast<size_t>(output)].allocation !=
        AllocationType::kPersistentRo) {
      return;
    }
    if (auto folded = FoldedOutputValues(result_.subgraph, node, FoldedValues())) {
      folded_values_[output] = std::move(*folded);
    } else {
      folded_unknown_.insert(output);
    }
  }

  // The kernels' Init, node by node when the interpreter is built: their tensors stay spares until
  // Prepare sizes them.
  void ReserveInitTensors() {
    Subgraph& graph = result_.subgraph;
    init_first_.assign(graph.nodes.size(), -1);
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      if (graph.nodes[i].kind == NodeKind::kDelegateKernel) continue;
      const int32_t count = KernelInitTensorCount(graph.nodes[i]);
      if (count == 0) continue;
      init_first_[i] = static_cast<int32_t>(graph.tensors.size());
      graph.tensors.resize(graph.tensors.size() + static_cast<size_t>(count), SpareModelTensor());
    }
  }

  static Tensor SpareModelTensor() {
    Tensor spare;
    spare.bytes = 0;
    return spare;
  }

  void CreateDelegateKernel(size_t node_index) {
    const Node& kernel = result_.subgraph.nodes[node_index];
    const auto kind = options_.delegate_kernels.find(kernel.op);
    if (kind == options_.delegate_kernels.end() || kind->second != DelegateKernelKind::kGpu) {
      return;
    }
    Apply(static_cast<int32_t>(node_index),
          GpuDelegateKernelTensors(result_.subgraph, kernel, options_.gpu_allow_quant_ops));
  }

  void Apply(int32_t node_index, const KernelPrepareEffect& effect) {
    Subgraph& graph = result_.subgraph;
    const bool into_init = effect.fills_init_tensors && init_first_[node_index] >= 0;
    const auto first_added =
        into_init ? init_first_[node_index] : static_cast<int32_t>(graph.tensors.size());
    for (size_t i = 0; i < effect.added.size(); ++i) {
      const AddedTensor& added = effect.added[i];
      Tensor tensor;
      tensor.name = added.name;
      tensor.type = added.type;
      tensor.shape = added.shape;
      tensor.bytes = added.bytes;
      tensor.allocation = added.allocation;
      if (into_init) {
        graph.tensors[static_cast<size_t>(first_added) + i] = std::move(tensor);
      } else {
        graph.tensors.push_back(std::move(tensor));
      }
    }
    IdList& temporaries = graph.nodes[node_index].temporaries;
    for (int32_t position : effect.temporaries) temporaries.push_back(first_added + position);
    for (const auto& [tensor, allocation] : effect.reallocated) {
      graph.tensors[tensor].allocation = allocation;
    }
    for (const KernelPrepareEffect::Resized& resized : effect.resized) {
      Tensor& tensor = graph.tensors[static_cast<size_t>(resized.tensor)];
      tensor.type = resized.type;
      tensor.shape = resized.shape;
      tensor.bytes = ShapeBytes(resized.type, resized.shape);
    }
  }

  const PrepareOptions& options_;
  std::vector<bool> prepared_;
  std::vector<int32_t> init_first_;  // per node: its first Init tensor, -1 when it adds none
  // Outputs kernels folded in Prepare: their values where computed here, else their ids.
  std::unordered_map<int32_t, std::vector<int64_t>> folded_values_;
  std::unordered_set<int32_t> folded_unknown_;
  PreparedSubgraph result_;
};

}  // namespace

Result<PreparedSubgraph> ReplayKernelPrepare(const Subgraph& subgraph,
                                             const PrepareOptions& options) {
  return PrepareReplay(subgraph, options).Run();
}

}  // namespace tfa
