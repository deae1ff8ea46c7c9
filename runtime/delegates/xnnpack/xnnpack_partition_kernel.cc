#include "runtime/delegates/xnnpack/xnnpack_partition_kernel.h"

#include <algorithm>
#include <set>
#include <utility>

#include "runtime/delegates/decomposition_kernel.h"
#include "runtime/delegates/resource_variable_kernel.h"
#include "runtime/delegates/xnnpack/qd8_qb4w_fully_connected.h"
#include "runtime/delegates/xnnpack/xnnpack_node_mapping.h"
#include "runtime/delegates/xnnpack/xnnpack_sin_cos.h"
#include "runtime/kernels/cpu/cpu_kernels.h"
#include "runtime/kernels/cpu/dequantize.h"

namespace tfa::runtime {

struct XnnpackPartitionKernel::XnnpackRun {
  std::vector<int32_t> nodes;
  xnn_runtime_t runtime = nullptr;
  std::vector<std::pair<uint32_t, int32_t>> externals;  // value id, tensor
  std::vector<xnn_external_value> bound;                // as last set up; empty before
};

struct XnnpackPartitionKernel::CpuStep {
  int32_t node = -1;
  std::unique_ptr<DelegateKernel> kernel;
  KernelContext context;  // the node's tensors the kernel binds, pointing into tensors_
  std::vector<int32_t> reads, writes;  // non-constant tensors it reads and writes
};

namespace {

std::string NodeName(const Node& node, int32_t index) {
  return "node " + std::to_string(index) + " (" + node.op + ")";
}

}  // namespace

// The kernel's tensors as the node mapping reads them.
class XnnpackPartitionKernel::KernelView : public XnnpackTensorView {
 public:
  explicit KernelView(XnnpackPartitionKernel& kernel) : kernel_(kernel) {}
  const RuntimeTensor& Tensor(int32_t tensor) const override { return *kernel_.Local(tensor); }
  bool IsStatic(int32_t tensor) const override { return kernel_.IsStatic(tensor); }

 private:
  XnnpackPartitionKernel& kernel_;
};

// Defines the values of one run's XNNPACK subgraph as its nodes ask for them: static tensors
// with their data, tensors from or for outside the run as external values, the rest internal.
class XnnpackPartitionKernel::RunBuilder : public XnnpackTensors {
 public:
  RunBuilder(XnnpackPartitionKernel& kernel, xnn_subgraph_t subgraph,
             const std::set<int32_t>& produced, const std::set<int32_t>& needed_outside)
      : kernel_(kernel),
        subgraph_(subgraph),
        produced_(produced),
        needed_outside_(needed_outside) {}

  const RuntimeTensor& Tensor(int32_t tensor) const override { return *kernel_.Local(tensor); }
  bool IsStatic(int32_t tensor) const override { return kernel_.IsStatic(tensor); }
  Result<uint32_t> Value(int32_t tensor) override {
    const RuntimeTensor& t = Tensor(tensor);
    return ValueWithDims(tensor, std::vector<size_t>(t.shape.begin(), t.shape.end()));
  }
  Result<uint32_t> ValueWithDims(int32_t tensor, const std::vector<size_t>& dims) override {
    if (auto it = ids_.find(tensor); it != ids_.end()) return it->second;
    const void* data = nullptr;
    uint32_t external_id = XNN_INVALID_VALUE_ID;
    uint32_t flags = 0;
    if (IsStatic(tensor)) {
      data = Tensor(tensor).data;
    } else if (!produced_.count(tensor)) {
      flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
    } else if (needed_outside_.count(tensor)) {
      flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
    }
    if (flags != 0) external_id = next_external_++;
    uint32_t id = XNN_INVALID_VALUE_ID;
    const xnn_status status =
        DefineXnnpackValue(subgraph_, Tensor(tensor), dims, data, external_id, flags, &id);
    if (status != xnn_status_success) {
      return Status::Error("libXNNPACK refused tensor " + std::to_string(tensor) + ": " +
                           XnnpackStatusName(status));
    }
    ids_[tensor] = id;
    if (flags != 0) externals_.emplace_back(id, tensor);
    return id;
  }
  const std::vector<std::pair<uint32_t, int32_t>>& externals() const { return externals_; }

 private:
  XnnpackPartitionKernel& kernel_;
  xnn_subgraph_t subgraph_;
  const std::set<int32_t>& produced_;
  const std::set<int32_t>& needed_outside_;
  std::map<int32_t, uint32_t> ids_;
  std::vector<std::pair<uint32_t, int32_t>> externals_;
  uint32_t next_external_ = 0;
};

XnnpackPartitionKernel::XnnpackPartitionKernel(const DelegatePartition& partition,
                                               std::shared_ptr<XnnpackPartitionStats> stats)
    : partition_(partition), stats_(std::move(stats)) {}

XnnpackPartitionKernel::~XnnpackPartitionKernel() {
  for (auto& run : runs_) {
    if (run->runtime) xnn_delete_runtime(run->runtime);
  }
}

// The kernel's view of a tensor; an fp16 constant is seen as a float32 copy made once.
RuntimeTensor* XnnpackPartitionKernel::Local(int32_t tensor) {
  auto [it, inserted] = tensors_.try_emplace(tensor);
  if (!inserted) return &it->second;
  RuntimeTensor& local = it->second;
  local = (*partition_.tensors)[static_cast<size_t>(tensor)];
  static_[tensor] = local.is_constant;
  if (local.is_constant && local.type == TensorType::kFloat16) {
    const auto count = static_cast<size_t>(local.bytes / sizeof(uint16_t));
    auto* values = reinterpret_cast<float*>(OwnedStorage(count * sizeof(float)));
    weight_storage_[tensor] = storage_.size() - 1;
    const auto* halves = reinterpret_cast<const uint16_t*>(local.data);
    for (size_t i = 0; i < count; ++i) values[i] = HalfToFloat(halves[i]);
    local.type = TensorType::kFloat32;
    local.data = reinterpret_cast<uint8_t*>(values);
    local.bytes = count * sizeof(float);
  }
  return &local;
}

bool XnnpackPartitionKernel::IsStatic(int32_t tensor) const {
  auto it = static_.find(tensor);
  return it != static_.end() && it->second;
}

// Zeroed, 8-byte aligned, with XNN_EXTRA_BYTES to spare: XNNPACK's kernels may read that far
// past the end of an input.
uint8_t* XnnpackPartitionKernel::OwnedStorage(uint64_t bytes) {
  const uint64_t words = (bytes + XNN_EXTRA_BYTES) / sizeof(uint64_t) + 1;
  storage_.push_back(std::make_unique<uint64_t[]>(words));
  stats_->kernel_owned_bytes += bytes;
  return reinterpret_cast<uint8_t*>(storage_.back().get());
}

// A DEQUANTIZE or DENSIFY of constant data (or of another such node's output), in this
// partition or another: its CPU kernel runs once, here, into storage that the runs read as static
// weights. Upstream's delegate likewise keeps one unpacked copy per such tensor for all its
// partitions (static_unpacked_data_map_).
Status XnnpackPartitionKernel::UnpackStatic(int32_t index) {
  const Node& node = partition_.subgraph->nodes[static_cast<size_t>(index)];
  const KernelRegistration* unpack = FindCpuKernel(node.op);
  if (!unpack) return Status::Error("no CPU kernel for " + node.op);
  const int32_t source = node.inputs[0];
  RuntimeTensor input = (*partition_.tensors)[static_cast<size_t>(source)];
  if (auto producer = unpackable_.find(source); producer != unpackable_.end()) {
    if (!IsStatic(source)) TFA_RETURN_IF_ERROR(UnpackStatic(producer->second));
    input = tensors_.at(source);
  }
  RuntimeTensor* output = Local(node.outputs[0]);
  output->data = OwnedStorage(output->bytes);
  weight_storage_[node.outputs[0]] = storage_.size() - 1;
  KernelContext context;
  context.node = &node;
  context.node_data = &partition_.model_data->Node(partition_.subgraph_index, index);
  context.inputs = {&input};
  context.outputs = {output};
  TFA_RETURN_IF_ERROR(unpack->prepare(context).WithContext(NodeName(node, index)));
  std::vector<uint64_t> scratch(context.scratch_bytes / sizeof(uint64_t) + 8);
  context.scratch = reinterpret_cast<uint8_t*>(scratch.data());
  TFA_RETURN_IF_ERROR(unpack->eval(context).WithContext(NodeName(node, index)));
  static_[node.outputs[0]] = true;
  return Status::Ok();
}

// Defines the node alone in a subgraph of its own: what the rules accept, the 2022 library may
// still refuse (a quantized form it lacks); that node then runs on the CPU kernels.
std::optional<std::string> XnnpackPartitionKernel::RefusedByLibrary(int32_t index) {
  const Node& node = partition_.subgraph->nodes[static_cast<size_t>(index)];
  xnn_subgraph_t subgraph = nullptr;
  if (xnn_create_subgraph(static_cast<uint32_t>(node.inputs.size() + node.outputs.size()), 0,
                          &subgraph) != xnn_status_success) {
    return "xnn_create_subgraph failed";
  }
  std::unique_ptr<xnn_subgraph, xnn_status (*)(xnn_subgraph_t)> owned(subgraph,
                                                                      &xnn_delete_subgraph);
  const std::set<int32_t> outputs(node.outputs.begin(), node.outputs.end());
  RunBuilder builder(*this, subgraph, outputs, outputs);
  const Status defined = DefineXnnpackNode(subgraph, node, builder);
  if (defined.ok()) return std::nullopt;
  return defined.message();
}

Status XnnpackPartitionKernel::AddXnnpackRun(const std::vector<int32_t>& nodes) {
  const Subgraph& graph = *partition_.subgraph;
  const std::set<int32_t> in_run(nodes.begin(), nodes.end());
  std::set<int32_t> produced, needed_outside;
  for (int32_t index : nodes) {
    for (int32_t t : graph.nodes[static_cast<size_t>(index)].outputs) produced.insert(t);
  }
  // Produced here and read after the run: by a node outside it, or outside the partition.
  for (int32_t t : produced) {
    if (std::binary_search(partition_.outputs.begin(), partition_.outputs.end(), t))
      needed_outside.insert(t);
  }
  for (int32_t index : partition_.nodes) {
    if (in_run.count(index)) continue;
    for (int32_t t : graph.nodes[static_cast<size_t>(index)].inputs) {
      if (produced.count(t)) needed_outside.insert(t);
    }
  }
  xnn_subgraph_t subgraph = nullptr;
  const auto reserved = static_cast<uint32_t>(tensors_.size() + 2 * nodes.size());
  if (xnn_create_subgraph(reserved, 0, &subgraph) != xnn_status_success)
    return Status::Error("xnn_create_subgraph failed");
  std::unique_ptr<xnn_subgraph, xnn_status (*)(xnn_subgraph_t)> owned(subgraph,
                                                                      &xnn_delete_subgraph);
  RunBuilder builder(*this, subgraph, produced, needed_outside);
  for (int32_t index : nodes) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    TFA_RETURN_IF_ERROR(
        DefineXnnpackNode(subgraph, node, builder).WithContext(NodeName(node, index)));
  }
  auto run = std::make_unique<XnnpackRun>();
  run->nodes = nodes;
  run->externals = builder.externals();
  const XnnpackAllocationCounts before = library_->counts();
  const xnn_status status = xnn_create_runtime_v2(subgraph, nullptr, 0, &run->runtime);
  if (status != xnn_status_success) {
    return Status::Error("xnn_create_runtime_v2 failed for nodes " + std::to_string(nodes.front()) +
                         ".." + std::to_string(nodes.back()) + ": " + XnnpackStatusName(status));
  }
  const XnnpackAllocationCounts after = library_->counts();
  const uint64_t kept = after.live_bytes - before.live_bytes;
  stats_->workspace_bytes += after.aligned_since_plain;
  stats_->packed_weights_and_operators_bytes += kept - std::min(kept, after.aligned_since_plain);
  stats_->xnnpack_nodes += static_cast<int32_t>(nodes.size());
  ++stats_->xnnpack_runtimes;
  steps_.push_back({run.get(), nullptr});
  runs_.push_back(std::move(run));
  return Status::Ok();
}

Status XnnpackPartitionKernel::AddCpuStep(int32_t index) {
  const Node& node = partition_.subgraph->nodes[static_cast<size_t>(index)];
  DelegatePartition single = partition_;
  single.nodes = {index};
  single.inputs.clear();
  single.outputs.clear();
  for (int32_t t : node.inputs) {
    if (t >= 0 && !(*partition_.tensors)[static_cast<size_t>(t)].is_constant)
      single.inputs.push_back(t);
  }
  for (int32_t t : node.outputs) single.outputs.push_back(t);
  for (auto* list : {&single.inputs, &single.outputs}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  auto kernel = CpuPartitionKernel::Create(single, &FindXnnpackCpuStepKernel);
  if (!kernel.ok()) return kernel.status();
  auto step = std::make_unique<CpuStep>();
  step->node = index;
  step->kernel = std::move(*kernel);
  step->context.node = &node;
  for (int32_t t : single.inputs) step->context.inputs.push_back(Local(t));
  for (int32_t t : single.outputs) step->context.outputs.push_back(Local(t));
  step->reads = single.inputs;
  step->writes = single.outputs;
  steps_.push_back({nullptr, step.get()});
  cpu_steps_.push_back(std::move(step));
  return Status::Ok();
}

bool XnnpackPartitionKernel::ComputedByKernel(int32_t index) const {
  const Node& node = partition_.subgraph->nodes[static_cast<size_t>(index)];
  return node.op == "STABLEHLO_COMPOSITE" || ResourceVariableKernel::Handles(node.op) ||
         IsBlockwiseInt4FullyConnected(node, *partition_.tensors);
}

// Nodes upstream's delegate computes that neither libXNNPACK 2022 nor one CPU kernel can: a
// composite (its decomposition subgraph, upstream's XNNPACK builds an SDPA node from
// odml.scaled_dot_product_attention), the resource-variable ops (on the interpreter's
// variables), the blockwise INT4 FULLY_CONNECTED (XNNPACK's qd8-f32-qb4w arithmetic). The kernel
// sees the node's tensors in the node's order.
Status XnnpackPartitionKernel::AddKernelStep(int32_t index) {
  const Node& node = partition_.subgraph->nodes[static_cast<size_t>(index)];
  auto step = std::make_unique<CpuStep>();
  step->node = index;
  step->context.node = &node;
  step->context.node_data = &partition_.model_data->Node(partition_.subgraph_index, index);
  for (int32_t t : node.inputs) {
    step->context.inputs.push_back(t < 0 ? nullptr : Local(t));
    if (t >= 0 && !IsStatic(t)) step->reads.push_back(t);
  }
  for (int32_t t : node.outputs) {
    step->context.outputs.push_back(t < 0 ? nullptr : Local(t));
    if (t >= 0) step->writes.push_back(t);
  }
  std::string reason;
  if (node.op == "STABLEHLO_COMPOSITE") {
    const std::vector<const RuntimeTensor*> inputs(step->context.inputs.begin(),
                                                   step->context.inputs.end());
    const std::vector<const RuntimeTensor*> outputs(step->context.outputs.begin(),
                                                    step->context.outputs.end());
    auto kernel =
        DecompositionKernel::Create(node, inputs, outputs, partition_.host, partition_.model_data);
    if (!kernel.ok()) return kernel.status().WithContext(NodeName(node, index));
    stats_->kernel_owned_bytes += (*kernel)->owned_bytes();
    step->kernel = std::move(*kernel);
    reason = "a composite: its decomposition subgraph " + std::to_string(node.options->subgraph) +
             " on the CPU kernels (libXNNPACK 2022-02-16 has no such node)";
  } else if (ResourceVariableKernel::Handles(node.op)) {
    auto kernel =
        ResourceVariableKernel::Create(node, partition_.subgraph_index, index, partition_.host);
    if (!kernel.ok()) return kernel.status().WithContext(NodeName(node, index));
    step->kernel = std::move(*kernel);
    reason = "reads or writes the interpreter's resource variable, as upstream's delegate does";
  } else {
    auto kernel = Qd8Qb4wFullyConnected::Create(node, *partition_.tensors);
    if (!kernel.ok()) return kernel.status().WithContext(NodeName(node, index));
    step->kernel = std::move(*kernel);
    reason = "qd8-f32-qb4w is not in libXNNPACK 2022-02-16: XNNPACK's arithmetic, computed here";
  }
  stats_->cpu_nodes.push_back({index, node.op, reason});
  steps_.push_back({nullptr, step.get()});
  cpu_steps_.push_back(std::move(step));
  return Status::Ok();
}

Result<std::unique_ptr<XnnpackPartitionKernel>> XnnpackPartitionKernel::Create(
    const DelegatePartition& partition, std::shared_ptr<XnnpackPartitionStats> stats) {
  auto library = XnnpackLibrary::Get();
  if (!library.ok()) return library.status();
  std::unique_ptr<XnnpackPartitionKernel> kernel(
      new XnnpackPartitionKernel(partition, std::move(stats)));
  kernel->library_ = *library;
  XnnpackPartitionStats& out = *kernel->stats_;
  out.subgraph = partition.subgraph_index;
  out.nodes = partition.nodes;
  const Subgraph& graph = *partition.subgraph;
  auto is_output = [&](int32_t t) {
    return std::binary_search(partition.outputs.begin(), partition.outputs.end(), t);
  };
  // The tensors DEQUANTIZE and DENSIFY nodes make of constants, anywhere in the subgraph; those
  // this partition reads are unpacked into static weights, except its own outputs, which it must
  // write to the interpreter's buffers on every Invoke.
  for (size_t index = 0; index < graph.nodes.size(); ++index) {
    const Node& node = graph.nodes[index];
    if ((node.op != "DEQUANTIZE" && node.op != "DENSIFY") || node.inputs.empty() ||
        node.inputs[0] < 0 || node.outputs.size() != 1) {
      continue;
    }
    const int32_t source = node.inputs[0];
    if ((*partition.tensors)[static_cast<size_t>(source)].is_constant ||
        kernel->unpackable_.count(source)) {
      kernel->unpackable_[node.outputs[0]] = static_cast<int32_t>(index);
    }
  }
  for (int32_t index : partition.nodes) {
    for (int32_t t : graph.nodes[static_cast<size_t>(index)].inputs) {
      auto producer = kernel->unpackable_.find(t);
      if (producer == kernel->unpackable_.end() || is_output(t) || kernel->IsStatic(t)) continue;
      TFA_RETURN_IF_ERROR(kernel->UnpackStatic(producer->second));
    }
  }
  for (int32_t index : partition.nodes) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    for (int32_t t : node.inputs)
      if (t >= 0) kernel->Local(t);
    for (int32_t t : node.outputs) kernel->Local(t);
  }
  std::vector<int32_t> run;
  for (int32_t index : partition.nodes) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    if (node.outputs.size() == 1 && kernel->unpackable_.count(node.outputs[0])) {
      if (!is_output(node.outputs[0])) {
        ++out.unpacked_nodes;
        continue;
      }
      if (!run.empty()) TFA_RETURN_IF_ERROR(kernel->AddXnnpackRun(run));
      run.clear();
      out.cpu_nodes.push_back({index, node.op, "unpacks a constant for another partition"});
      TFA_RETURN_IF_ERROR(kernel->AddCpuStep(index));
      continue;
    }
    if (kernel->ComputedByKernel(index)) {
      if (!run.empty()) TFA_RETURN_IF_ERROR(kernel->AddXnnpackRun(run));
      run.clear();
      TFA_RETURN_IF_ERROR(kernel->AddKernelStep(index));
      continue;
    }
    auto reason = XnnpackCannotRun(node, KernelView(*kernel));
    if (!reason) reason = kernel->RefusedByLibrary(index);
    if (!reason) {
      run.push_back(index);
      continue;
    }
    if (!run.empty()) TFA_RETURN_IF_ERROR(kernel->AddXnnpackRun(run));
    run.clear();
    out.cpu_nodes.push_back({index, node.op, *reason});
    TFA_RETURN_IF_ERROR(kernel->AddCpuStep(index));
  }
  if (!run.empty()) TFA_RETURN_IF_ERROR(kernel->AddXnnpackRun(run));
  // Storage for every tensor a step reads or writes that neither the interpreter (boundary) nor
  // the model or an unpacking (static) provides: the tensors crossing between steps.
  std::set<int32_t> crossing;
  for (const auto& r : kernel->runs_) {
    for (const auto& [id, t] : r->externals) crossing.insert(t);
  }
  for (const auto& step : kernel->cpu_steps_) {
    crossing.insert(step->reads.begin(), step->reads.end());
    crossing.insert(step->writes.begin(), step->writes.end());
  }
  for (int32_t t : crossing) {
    const bool boundary = std::binary_search(partition.inputs.begin(), partition.inputs.end(), t) ||
                          std::binary_search(partition.outputs.begin(), partition.outputs.end(), t);
    RuntimeTensor& tensor = kernel->tensors_.at(t);
    if (boundary || kernel->IsStatic(t)) continue;
    // A resource handle between a VAR_HANDLE and its users holds the variable's id.
    if (tensor.type == TensorType::kResource) tensor.bytes = std::max<uint64_t>(tensor.bytes, 4);
    tensor.data = kernel->OwnedStorage(tensor.bytes);
  }
  kernel->ReleasePackedWeights();
  return kernel;
}

// libXNNPACK packs the filters and biases of its convolutions and FULLY_CONNECTED into buffers
// of its own as it creates a runtime (2022's create_convolution_operator and its siblings) and
// never reads the static data again: the float32 copies this kernel made of weights that nothing
// else reads are dropped, as upstream's delegate holds no such copies.
void XnnpackPartitionKernel::ReleasePackedWeights() {
  const Subgraph& graph = *partition_.subgraph;
  std::set<int32_t> in_runs;
  for (const auto& run : runs_) in_runs.insert(run->nodes.begin(), run->nodes.end());
  std::map<int32_t, bool> only_packed;  // weight copy -> every reader packs it (or unpacked it)
  for (int32_t index : partition_.nodes) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    const bool unpacked =
        node.outputs.size() == 1 && unpackable_.count(node.outputs[0]) && IsStatic(node.outputs[0]);
    const bool packs =
        in_runs.count(index) &&
        (node.op == "CONV_2D" || node.op == "DEPTHWISE_CONV_2D" || node.op == "FULLY_CONNECTED");
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      if (!weight_storage_.count(node.inputs[k])) continue;
      auto [reader, inserted] = only_packed.try_emplace(node.inputs[k], true);
      reader->second = reader->second && (unpacked || (packs && (k == 1 || k == 2)));
    }
  }
  for (const auto& [tensor, only] : only_packed) {
    if (!only) continue;
    RuntimeTensor& copy = tensors_.at(tensor);
    storage_[weight_storage_.at(tensor)].reset();
    stats_->kernel_owned_bytes -= std::min(stats_->kernel_owned_bytes, copy.bytes);
    copy.data = nullptr;
  }
}

// The interpreter passes the boundary tensors in the partition's order; static ones keep the
// kernel's view (an fp16 constant's float copy).
void XnnpackPartitionKernel::Bind(const KernelContext& context) {
  auto bind = [&](const std::vector<int32_t>& indices, const std::vector<RuntimeTensor*>& given) {
    for (size_t i = 0; i < indices.size() && i < given.size(); ++i) {
      auto it = tensors_.find(indices[i]);
      if (it != tensors_.end() && given[i] && !IsStatic(indices[i]))
        it->second.data = given[i]->data;
    }
  };
  bind(partition_.inputs, context.inputs);
  bind(partition_.outputs, context.outputs);
}

Status XnnpackPartitionKernel::Prepare(KernelContext& context) {
  Bind(context);
  for (auto& step : cpu_steps_) {
    TFA_RETURN_IF_ERROR(step->kernel->Prepare(step->context)
                            .WithContext(NodeName(*step->context.node, step->node)));
  }
  return Status::Ok();
}

// Sets the run up again only when a buffer moved (upstream: Subgraph::Invoke in
// tflite/delegates/xnnpack/xnnpack_delegate.cc), then runs it.
Status XnnpackPartitionKernel::InvokeRun(XnnpackRun& run) {
  std::vector<xnn_external_value> values;
  values.reserve(run.externals.size());
  for (const auto& [id, t] : run.externals) values.push_back({id, tensors_.at(t).data});
  const bool same = values.size() == run.bound.size() &&
                    std::equal(values.begin(), values.end(), run.bound.begin(),
                               [](const xnn_external_value& a, const xnn_external_value& b) {
                                 return a.id == b.id && a.data == b.data;
                               });
  const std::string nodes =
      "nodes " + std::to_string(run.nodes.front()) + ".." + std::to_string(run.nodes.back());
  if (!same) {
    const bool first = run.bound.empty();
    const uint64_t before = library_->counts().live_bytes;
    const xnn_status status = xnn_setup_runtime(run.runtime, values.size(), values.data());
    if (status != xnn_status_success)
      return Status::Error("xnn_setup_runtime failed for " + nodes + ": " +
                           XnnpackStatusName(status));
    const uint64_t after = library_->counts().live_bytes;
    if (first) stats_->setup_bytes += after - std::min(after, before);
    run.bound = std::move(values);
  }
  const xnn_status status = xnn_invoke_runtime(run.runtime);
  if (status != xnn_status_success)
    return Status::Error("xnn_invoke_runtime failed for " + nodes + ": " +
                         XnnpackStatusName(status));
  return Status::Ok();
}

Status XnnpackPartitionKernel::Eval(KernelContext& context) {
  Bind(context);
  for (const Step& step : steps_) {
    if (step.run) {
      TFA_RETURN_IF_ERROR(InvokeRun(*step.run));
      continue;
    }
    TFA_RETURN_IF_ERROR(step.cpu->kernel->Eval(step.cpu->context)
                            .WithContext(NodeName(*step.cpu->context.node, step.cpu->node)));
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
