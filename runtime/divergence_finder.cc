#include "runtime/divergence_finder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "runtime/input_generator.h"

namespace tfa::runtime {
namespace {

// A delegate kernel whose boundary inputs hold the CPU-only run's values when it runs. Without
// this, a node would read what the CPU kernels computed from a delegated node's output of the
// same batch two steps upstream (through a CPU node between them): a last-bit difference there
// becomes a whole unit after CEIL or ROUND, and the error would be blamed on the wrong node.
class ReferenceInputsKernel : public DelegateKernel {
 public:
  ReferenceInputsKernel(std::unique_ptr<DelegateKernel> inner, std::vector<int32_t> inputs,
                        const Interpreter& reference)
      : inner_(std::move(inner)), inputs_(std::move(inputs)), reference_(reference) {}

  Status Prepare(KernelContext& context) override { return inner_->Prepare(context); }
  Status Eval(KernelContext& context) override {
    for (size_t i = 0; i < inputs_.size() && i < context.inputs.size(); ++i) {
      RuntimeTensor* input = context.inputs[i];
      if (inputs_[i] < 0 || !input || input->is_constant || !input->data) continue;
      const RuntimeTensor& value = reference_.tensors().at(static_cast<size_t>(inputs_[i]));
      if (value.data && value.bytes == input->bytes)
        std::memcpy(input->data, value.data, static_cast<size_t>(input->bytes));
    }
    return inner_->Eval(context);
  }

 private:
  std::unique_ptr<DelegateKernel> inner_;
  std::vector<int32_t> inputs_;
  const Interpreter& reference_;
};

// The wrapped delegate restricted to `nodes`: its profile claims exactly those nodes (all of them
// the wrapped delegate takes on the whole model), keeps every partition they form, and keeps the
// wrapped profile's FP16 helper, so the taken nodes read the fp16 constants as they do there. Its
// kernels read their inputs from `reference`, the CPU-only run.
class BatchDelegate : public Delegate {
 public:
  BatchDelegate(Delegate& inner, const std::set<int32_t>& nodes, const Interpreter& reference)
      : inner_(inner), profile_(inner.Profile()), reference_(reference) {
    profile_.kind = ProfileKind::kNodes;
    profile_.claimed_nodes.assign(nodes.begin(), nodes.end());
    profile_.partition.max_partitions = std::numeric_limits<int32_t>::max();
    profile_.partition.min_nodes_per_partition = 0;
  }

  const DelegateProfile& Profile() const override { return profile_; }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(
      const DelegatePartition& partition) override {
    auto kernel = inner_.CreateKernel(partition);
    if (!kernel.ok()) return kernel.status();
    return std::unique_ptr<DelegateKernel>(
        new ReferenceInputsKernel(std::move(*kernel), partition.inputs, reference_));
  }

 private:
  Delegate& inner_;
  DelegateProfile profile_;
  const Interpreter& reference_;
};

Result<std::unique_ptr<Interpreter>> Run(const std::string& model_path,
                                         const std::vector<Delegate*>& delegates,
                                         const DivergenceOptions& options) {
  InterpreterOptions interpreter_options;
  interpreter_options.delegates = delegates;
  interpreter_options.arena.preserve_all_tensors = true;
  interpreter_options.memory_limit_bytes = options.memory_limit_bytes;
  auto interpreter = Interpreter::Create(model_path, interpreter_options);
  if (!interpreter.ok()) return interpreter.status();
  FillDeterministicInputs(**interpreter, options.input_seed);
  TFA_RETURN_IF_ERROR((*interpreter)->Invoke());
  return interpreter;
}

// The value of element `i` of a tensor of a fixed-size numeric type.
double ElementValue(const RuntimeTensor& t, int64_t i) {
  switch (t.type) {
    case TensorType::kFloat32:
      return t.Data<const float>()[i];
    case TensorType::kInt32:
      return t.Data<const int32_t>()[i];
    case TensorType::kInt64:
      return static_cast<double>(t.Data<const int64_t>()[i]);
    case TensorType::kInt16:
      return t.Data<const int16_t>()[i];
    case TensorType::kInt8:
      return t.Data<const int8_t>()[i];
    default:
      return t.data[i];
  }
}

// max |got - want| / max(1, |want|) and max |got - want| over the elements; NaN against NaN
// counts as equal, NaN against a number as infinitely far.
std::pair<double, double> Errors(const RuntimeTensor& got, const RuntimeTensor& want) {
  const int64_t n = want.NumElements();
  if (got.bytes != want.bytes || !got.data || !want.data) return {INFINITY, INFINITY};
  double max_error = 0, max_abs = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double g = ElementValue(got, i), w = ElementValue(want, i);
    if (std::isnan(g) && std::isnan(w)) continue;
    const double abs_error = std::isnan(g) || std::isnan(w) ? INFINITY : std::fabs(g - w);
    max_abs = std::max(max_abs, abs_error);
    max_error = std::max(max_error, abs_error / std::max(1.0, std::fabs(w)));
  }
  return {max_error, max_abs};
}

// Whether `tensor` holds quantized integers, whose differences count in quantization steps.
bool IsQuantizedInteger(const RuntimeTensor& tensor) {
  return (tensor.type == TensorType::kInt8 || tensor.type == TensorType::kUInt8 ||
          tensor.type == TensorType::kInt16) &&
         tensor.quantization && !tensor.quantization->scale.empty();
}

// Splits `nodes` (in execution order) into batches no two nodes of which are producer and
// consumer of one tensor: greedy, each node into the first batch it does not touch.
std::vector<std::set<int32_t>> IsolatingBatches(const Subgraph& graph,
                                                const std::vector<int32_t>& nodes) {
  std::map<int32_t, int32_t> producer;  // tensor -> delegated node
  for (int32_t n : nodes) {
    for (int32_t t : graph.nodes[static_cast<size_t>(n)].outputs) {
      if (t >= 0) producer[t] = n;
    }
  }
  std::vector<std::set<int32_t>> batches;
  std::vector<int32_t> batch_of(graph.nodes.size(), -1);
  for (int32_t n : nodes) {
    std::set<int32_t> touched;  // batches holding a producer of one of n's inputs
    for (int32_t t : graph.nodes[static_cast<size_t>(n)].inputs) {
      const auto it = producer.find(t);
      if (it != producer.end()) touched.insert(batch_of[static_cast<size_t>(it->second)]);
    }
    // Consumers come later in execution order: they check against n when they are placed.
    int32_t batch = 0;
    while (touched.count(batch)) ++batch;
    if (static_cast<size_t>(batch) == batches.size()) batches.emplace_back();
    batches[static_cast<size_t>(batch)].insert(n);
    batch_of[static_cast<size_t>(n)] = batch;
  }
  return batches;
}

// The bytes an interpreter holds for its tensors: every subgraph's arenas, the dynamic tensors and
// the kernels' scratch.
uint64_t HeldBytes(const RunStats& stats) {
  uint64_t held = stats.dynamic_bytes + stats.scratch_bytes;
  for (const SubgraphRunStats& s : stats.subgraphs)
    held += s.arena_bytes + s.persistent_arena_bytes;
  return held;
}

}  // namespace

Result<DivergenceReport> FindFirstDivergence(const std::string& model_path, Delegate& delegate,
                                             const DivergenceOptions& options) {
  DivergenceReport report;
  report.tolerance = options.tolerance;
  report.tolerance_steps = options.tolerance_steps;
  auto cpu = Run(model_path, {}, options);
  if (!cpu.ok()) return cpu.status().WithContext("the CPU-only run");
  const Subgraph& graph = (*cpu)->execution_graph();
  // The CPU run stays alive as every delegated run's reference: together they keep to the limit.
  const uint64_t held = HeldBytes((*cpu)->stats());
  if (held >= options.memory_limit_bytes) {
    return Status::Error("the CPU-only run with every tensor kept holds " + std::to_string(held) +
                         " bytes, leaving nothing of the memory limit of " +
                         std::to_string(options.memory_limit_bytes) +
                         " bytes for the delegated runs");
  }
  DivergenceOptions delegated_options = options;
  delegated_options.memory_limit_bytes = options.memory_limit_bytes - held;
  // Which nodes the delegate takes when it has the whole model, in execution order.
  std::vector<int32_t> delegated;
  {
    InterpreterOptions probe_options;
    probe_options.delegates = {&delegate};
    probe_options.memory_limit_bytes = delegated_options.memory_limit_bytes;
    auto probe = Interpreter::Create(model_path, probe_options);
    if (!probe.ok()) return probe.status();
    std::set<int32_t> claimed;
    for (const Node& node : (*probe)->execution_graph().nodes) {
      if (node.kind == NodeKind::kDelegateKernel)
        claimed.insert(node.replaces.begin(), node.replaces.end());
    }
    for (int32_t n : graph.execution_plan) {
      if (claimed.count(n)) delegated.push_back(n);
    }
  }
  if (delegated.empty()) return Status::Error("delegate " + delegate.Name() + " takes no node");
  std::map<int32_t, NodeError> errors;
  for (const std::set<int32_t>& batch : IsolatingBatches(graph, delegated)) {
    BatchDelegate restricted(delegate, batch, **cpu);
    auto run = Run(model_path, {&restricted}, delegated_options);
    if (!run.ok()) return run.status().WithContext("the delegated run");
    ++report.runs;
    // Only boundary tensors of the delegate kernels have values on the host.
    std::set<int32_t> on_host;
    for (const Node& node : (*run)->execution_graph().nodes) {
      if (node.kind == NodeKind::kDelegateKernel)
        on_host.insert(node.outputs.begin(), node.outputs.end());
    }
    for (int32_t n : batch) {
      const Node& node = graph.nodes[static_cast<size_t>(n)];
      NodeError error;
      error.node = n;
      error.op = node.op;
      for (int32_t t : node.outputs) {
        if (t < 0 || !on_host.count(t)) continue;
        const RuntimeTensor& want = (*cpu)->tensor(t);
        const bool in_steps = IsQuantizedInteger(want);
        const auto [relative, max_abs] = Errors((*run)->tensor(t), want);
        const double max_error = in_steps ? max_abs : relative;
        const bool beyond =
            !(max_error <= (in_steps ? options.tolerance_steps : options.tolerance));
        // The node's worst output: one beyond its tolerance first, then the largest error.
        if (error.tensor < 0 || (beyond && !error.beyond) ||
            (beyond == error.beyond && max_error > error.max_error)) {
          error.tensor = t;
          error.tensor_name = graph.tensors[static_cast<size_t>(t)].name;
          error.max_error = max_error;
          error.max_abs_error = max_abs;
          error.in_steps = in_steps;
          error.beyond = beyond;
        }
      }
      if (error.tensor >= 0) errors[n] = error;
    }
  }
  for (int32_t n : delegated) {
    const auto it = errors.find(n);
    if (it == errors.end()) continue;
    report.nodes.push_back(it->second);
    if (!report.first && it->second.beyond) report.first = it->second;
  }
  return report;
}

}  // namespace tfa::runtime
