#include "runtime/delegates/opencl/opencl_partition_kernel.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "libanalysis/report/gpu_device_memory.h"
#include "runtime/delegates/opencl/opencl_quantization.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {
namespace {

std::string NodeLabel(const Subgraph& graph, int32_t node) {
  return "node " + std::to_string(node) + " (" + graph.nodes[static_cast<size_t>(node)].op + ")";
}

}  // namespace

Status OpenClPartitionKernel::Upload(cl_mem buffer, const void* data, size_t bytes, bool blocking) {
  return CheckCl(clEnqueueWriteBuffer(device_.queue(), buffer, blocking ? CL_TRUE : CL_FALSE, 0,
                                      bytes, data, 0, nullptr, nullptr),
                 "clEnqueueWriteBuffer");
}

void OpenClPartitionKernel::AlignedFree::operator()(uint8_t* p) const { std::free(p); }

uint8_t* OpenClPartitionKernel::HostBuffer(uint64_t bytes, std::vector<HostMemory>& owner) {
  // 64-byte aligned as the interpreter's arena: CPU kernels may rely on it.
  const size_t rounded = static_cast<size_t>((std::max<uint64_t>(bytes, 1) + 63) / 64 * 64);
  owner.emplace_back(static_cast<uint8_t*>(std::aligned_alloc(64, rounded)));
  return owner.back().get();
}

Status OpenClPartitionKernel::FoldNode(KernelContext& context) {
  const KernelRegistration* cpu = FindCpuKernel(context.node->op);
  if (!cpu) return Status::Error("no CPU kernel to fold its constant inputs with");
  for (RuntimeTensor* out : context.outputs) {
    if (out) out->data = HostBuffer(out->bytes, constant_host_buffers_);
  }
  TFA_RETURN_IF_ERROR(cpu->prepare(context));
  context.scratch = context.scratch_bytes > 0
                        ? HostBuffer(context.scratch_bytes, constant_host_buffers_)
                        : nullptr;
  TFA_RETURN_IF_ERROR(cpu->eval(context));
  for (RuntimeTensor* out : context.outputs) {
    if (out) out->is_constant = true;
  }
  return Status::Ok();
}

Status OpenClPartitionKernel::DequantizeFp16Constant(RuntimeTensor& tensor) {
  const KernelRegistration* dequantize = FindCpuKernel("DEQUANTIZE");
  if (!dequantize) return Status::Error("no CPU DEQUANTIZE kernel to read fp16 constants with");
  RuntimeTensor output = tensor;
  output.type = TensorType::kFloat32;
  output.quantization = nullptr;
  output.is_constant = false;
  output.bytes = static_cast<uint64_t>(tensor.NumElements()) * sizeof(float);
  output.data = HostBuffer(output.bytes, constant_host_buffers_);
  Node node;
  node.op = "DEQUANTIZE";
  KernelContext context;
  context.node = &node;
  context.inputs = {&tensor};
  context.outputs = {&output};
  TFA_RETURN_IF_ERROR(dequantize->prepare(context));
  if (context.scratch_bytes > 0) return Status::Error("DEQUANTIZE asked for scratch");
  TFA_RETURN_IF_ERROR(dequantize->eval(context));
  output.is_constant = true;
  tensor = output;
  return Status::Ok();
}

Status OpenClPartitionKernel::DequantizeQuantizedConstant(RuntimeTensor& tensor) {
  auto values = DequantizeConstant(tensor);
  if (!values.ok()) return values.status();
  RuntimeTensor output = tensor;
  output.type = TensorType::kFloat32;
  output.quantization = nullptr;
  output.bytes = values->size() * sizeof(float);
  output.data = HostBuffer(output.bytes, constant_host_buffers_);
  std::copy(values->begin(), values->end(), output.Data<float>());
  tensor = output;
  return Status::Ok();
}

float* OpenClPartitionKernel::Staging(const KernelContext& context, const BoundaryTwin& twin,
                                      uint64_t bytes) const {
  if (twin.own_buffer) return reinterpret_cast<float*>(twin.own_buffer);
  RuntimeTensor* temporary = context.temporary(twin.temporary, bytes);
  return temporary ? temporary->Data<float>() : nullptr;
}

std::vector<std::vector<int32_t>> OpenClPartitionKernel::TensorShapes() const {
  std::vector<std::vector<int32_t>> shapes;
  for (int32_t node : partition_.nodes) {
    const Node& n = partition_.subgraph->nodes[static_cast<size_t>(node)];
    for (const auto* list : {&n.inputs, &n.outputs}) {
      for (int32_t t : *list) {
        if (t >= 0) shapes.push_back((*partition_.tensors)[static_cast<size_t>(t)].shape);
      }
    }
  }
  return shapes;
}

Status OpenClPartitionKernel::Prepare(KernelContext& context) {
  std::vector<std::vector<int32_t>> shapes = TensorShapes();
  if (built_shapes_ == shapes) return Status::Ok();
  // A build for other shapes replaces the last one: its device memory and uploads are gone.
  transfers_->shared_tensor_bytes -= built_.shared_tensor_bytes;
  transfers_->staging_bytes -= built_.staging_bytes;
  transfers_->constant_bytes -= built_.constant_bytes;
  transfers_->other_bytes -= built_.other_bytes;
  transfers_->init_upload_bytes -= built_.init_upload_bytes;
  built_shapes_.reset();
  const DeviceTransfers before = *transfers_;
  TFA_RETURN_IF_ERROR(Build(context));
  built_.shared_tensor_bytes = transfers_->shared_tensor_bytes - before.shared_tensor_bytes;
  built_.staging_bytes = transfers_->staging_bytes - before.staging_bytes;
  built_.constant_bytes = transfers_->constant_bytes - before.constant_bytes;
  built_.other_bytes = transfers_->other_bytes - before.other_bytes;
  built_.init_upload_bytes = transfers_->init_upload_bytes - before.init_upload_bytes;
  built_shapes_ = std::move(shapes);
  return Status::Ok();
}

Status OpenClPartitionKernel::Build(KernelContext& context) {
  auto program = programs_.Get();
  if (!program.ok()) return program.status();
  const Subgraph& graph = *partition_.subgraph;
  // A Prepare after a resize starts again from the interpreter's tensors: the host values of the
  // last one's constants are gone.
  tensors_.clear();
  steps_.clear();
  input_twins_.clear();
  output_twins_.clear();
  twin_buffers_.clear();
  auto local = [&](int32_t t) -> RuntimeTensor* {
    if (t < 0) return nullptr;
    auto [it, inserted] = tensors_.try_emplace(t);
    if (inserted) it->second = (*partition_.tensors)[static_cast<size_t>(t)];
    return &it->second;
  };
  // Nodes whose inputs are all constants (DEQUANTIZE of fp16 weights, DENSIFY of sparse weights,
  // chains of them) run once here with their CPU kernels, as the GPU delegate turns them into
  // constants when it builds its model; their outputs are constants from then on. One whose
  // outputs nothing reads is dropped unrun: the FP16 helper points the DEQUANTIZE nodes'
  // consumers at their fp16 inputs, so their float32 outputs would be a second copy of the
  // weights on the host.
  std::set<int32_t> read(partition_.outputs.begin(), partition_.outputs.end());
  for (int32_t node : partition_.nodes) {
    for (int32_t t : graph.nodes[static_cast<size_t>(node)].inputs) read.insert(t);
  }
  std::vector<KernelContext> contexts;
  std::vector<bool> folded;
  for (int32_t node : partition_.nodes) {
    const Node& n = graph.nodes[static_cast<size_t>(node)];
    KernelContext c;
    c.node = &n;
    c.node_data = &partition_.model_data->Node(partition_.subgraph_index, node);
    bool constant_inputs = !n.inputs.empty();
    for (int32_t t : n.inputs) {
      c.inputs.push_back(local(t));
      if (t >= 0 && !c.inputs.back()->is_constant) constant_inputs = false;
    }
    for (int32_t t : n.outputs) c.outputs.push_back(local(t));
    const bool outputs_read = std::any_of(n.outputs.begin(), n.outputs.end(),
                                          [&](int32_t t) { return read.count(t) > 0; });
    if (constant_inputs && outputs_read)
      TFA_RETURN_IF_ERROR(FoldNode(c).WithContext(NodeLabel(graph, node)));
    folded.push_back(constant_inputs);
    contexts.push_back(std::move(c));
  }
  // Quantized tensors are float on the device (opencl_quantization.h); the boundary ones are
  // converted at every Eval, through the float temporaries the plan gave the kernel (upstream's
  // GetRequiredTemporaries: inputs first, then outputs).
  for (auto& [t, tensor] : tensors_) {
    if (HasFloatTwin(tensor)) tensor = FloatTwin(tensor);
  }
  size_t temporary = 0;
  for (const auto* list : {&partition_.inputs, &partition_.outputs}) {
    std::vector<BoundaryTwin>& twins = list == &partition_.inputs ? input_twins_ : output_twins_;
    for (size_t position = 0; position < list->size(); ++position) {
      const int32_t t = (*list)[position];
      if (t < 0 || !HasFloatTwin((*partition_.tensors)[static_cast<size_t>(t)])) continue;
      BoundaryTwin twin{position, temporary++, nullptr};
      const uint64_t bytes = tensors_.at(t).bytes;
      if (!context.temporary(twin.temporary, bytes))
        twin.own_buffer = HostBuffer(bytes, twin_buffers_);
      twins.push_back(twin);
    }
  }
  // The FP16 helper points the nodes it delegates at fp16 constants (the DEQUANTIZE nodes stay
  // on the CPU); the GPU delegate reads them as float32 weights; quantized weights and biases it
  // dequantizes as it reads them (upstream's CreateVectorCopyData<float>).
  std::set<int32_t> device_inputs;
  for (size_t i = 0; i < contexts.size(); ++i) {
    if (folded[i]) continue;
    const Node& n = *contexts[i].node;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      RuntimeTensor* tensor = contexts[i].inputs[k];
      if (!tensor) continue;
      const std::string input_label =
          NodeLabel(graph, partition_.nodes[i]) + ": input tensor " + std::to_string(n.inputs[k]);
      if (tensor->is_constant && tensor->type == TensorType::kFloat16)
        TFA_RETURN_IF_ERROR(DequantizeFp16Constant(*tensor).WithContext(input_label));
      if (IsQuantizedConstant(*tensor))
        TFA_RETURN_IF_ERROR(DequantizeQuantizedConstant(*tensor).WithContext(input_label));
      // Upstream's open-source delegate reads weights as floats from float32, float16, int8,
      // uint8 and int32 only (model_builder_helper.cc, CreateVectorCopyData<float>): its model
      // build fails on int4 weights.
      if (tensor->is_constant && tensor->type == TensorType::kInt4)
        return Status::Error(input_label +
                             ": int4 weights, which upstream's GPU delegate cannot read as "
                             "floats (its model build fails on them)");
      if (!tensor->is_constant || tensor->type == TensorType::kFloat32)
        device_inputs.insert(n.inputs[k]);
    }
    for (int32_t t : n.outputs) {
      if (t >= 0) buffers_[t];
    }
  }
  for (int32_t t : device_inputs) buffers_[t];
  for (int32_t t : partition_.outputs) buffers_[t];
  const bool fp16_storage = programs_.precision() != ClPrecision::kF32;
  const std::set<int32_t> boundary_inputs(partition_.inputs.begin(), partition_.inputs.end());
  // The float32 device plan (this runtime stores floats as float32 at every precision).
  auto memory = PlanGpuPartitionMemory(
      graph, partition_.nodes, partition_.inputs, partition_.outputs,
      {.float_bytes = 4, .base_alignment = device_.info().base_alignment_bytes});
  if (!memory.ok()) return memory.status();
  std::map<int32_t, size_t> record_of;
  for (size_t i = 0; i < memory->runtime_tensors.size(); ++i)
    record_of[memory->runtime_tensors[i]] = i;
  if (!memory->records.empty()) {
    auto parent = CreateBuffer(device_, static_cast<size_t>(memory->shared.total_bytes));
    if (!parent.ok()) return parent.status();
    shared_parent_ = std::move(*parent);
    transfers_->shared_tensor_bytes += std::max<uint64_t>(memory->shared.total_bytes, 4);
  }
  for (auto& [t, buffer] : buffers_) {
    const RuntimeTensor& tensor = tensors_.at(t);
    const auto record = record_of.find(t);
    Result<ClMem> created = Status::Error("unplaced");
    if (record != record_of.end()) {
      const uint64_t planned = memory->records[record->second].bytes;
      if (tensor.bytes > planned) {
        return Status::Error("tensor " + std::to_string(t) + ": " + std::to_string(tensor.bytes) +
                             " bytes exceed the " + std::to_string(planned) +
                             " the device plan gives it");
      }
      created = CreateSubBuffer(shared_parent_.get(),
                                static_cast<size_t>(memory->shared.offsets[record->second]),
                                static_cast<size_t>(planned));
    } else {
      created = CreateBuffer(device_, static_cast<size_t>(tensor.bytes));
      (tensor.is_constant ? transfers_->constant_bytes : transfers_->other_bytes) +=
          std::max<uint64_t>(tensor.bytes, 4);
    }
    if (!created.ok()) return created.status().WithContext("tensor " + std::to_string(t));
    buffer = std::move(*created);
    const bool rounded = fp16_storage && tensor.type == TensorType::kFloat32;
    if (rounded && (tensor.is_constant || boundary_inputs.count(t))) {
      // Weights and inputs are fp16 on a device that stores fp16 (upstream converts them).
      auto rounding = EncodeStorageRounding(buffer.get(), tensor.NumElements(), **program);
      if (!rounding.ok()) return rounding.status();
      if (!tensor.is_constant) {
        input_rounding_[t] = std::move(*rounding);
      } else {
        TFA_RETURN_IF_ERROR(
            Upload(buffer.get(), tensor.data, static_cast<size_t>(tensor.bytes), true));
        TFA_RETURN_IF_ERROR(EnqueueStep(device_.queue(), *rounding));
        transfers_->init_upload_bytes += tensor.bytes;
      }
      continue;
    }
    if (!tensor.is_constant) continue;
    TFA_RETURN_IF_ERROR(Upload(buffer.get(), tensor.data, static_cast<size_t>(tensor.bytes), true));
    transfers_->init_upload_bytes += tensor.bytes;
  }
  const size_t staged_inputs = static_cast<size_t>(
      std::count_if(partition_.inputs.begin(), partition_.inputs.end(), [&](int32_t t) {
        return std::find(memory->staged.begin(), memory->staged.end(), t) != memory->staged.end();
      }));
  for (size_t i = 0; i < memory->staged.size(); ++i) {
    auto staging = CreateBuffer(device_, static_cast<size_t>(memory->staged_bytes[i]));
    if (!staging.ok()) return staging.status();
    transfers_->staging_bytes += std::max<uint64_t>(memory->staged_bytes[i], 4);
    (i < staged_inputs ? input_staging_ : output_staging_)[memory->staged[i]] = std::move(*staging);
  }
  auto empty = CreateBuffer(device_, 4);
  if (!empty.ok()) return empty.status();
  empty_ = std::move(*empty);
  transfers_->other_bytes += 4;
  for (size_t i = 0; i < partition_.nodes.size(); ++i) {
    if (folded[i]) continue;
    const int32_t node = partition_.nodes[i];
    KernelContext& c = contexts[i];
    const std::string label = NodeLabel(graph, node);
    // The CPU kernel's Prepare checks the node's types and shapes as a CPU run would; QUANTIZE
    // and DEQUANTIZE are float round trips here, which their CPU kernels do not compute.
    const bool fake_quant = c.node->op == "QUANTIZE" || c.node->op == "DEQUANTIZE";
    if (const KernelRegistration* cpu = fake_quant ? nullptr : FindCpuKernel(c.node->op)) {
      TFA_RETURN_IF_ERROR(cpu->prepare(c).WithContext(label));
    }
    const bool any_type = OpenClMovesAnyElementType(c.node->op);
    ClNodeBuffers node_buffers;
    node_buffers.empty = empty_.get();
    auto buffer_of = [&](const RuntimeTensor* tensor, int32_t t) -> cl_mem {
      if (!tensor || (!any_type && tensor->type != TensorType::kFloat32)) return nullptr;
      auto it = buffers_.find(t);
      return it == buffers_.end() ? nullptr : it->second.get();
    };
    for (size_t k = 0; k < c.inputs.size(); ++k)
      node_buffers.inputs.push_back(buffer_of(c.inputs[k], c.node->inputs[k]));
    for (size_t k = 0; k < c.outputs.size(); ++k)
      node_buffers.outputs.push_back(buffer_of(c.outputs[k], c.node->outputs[k]));
    // QUANTIZE and DEQUANTIZE read the quantized side's type and parameters, which its float
    // twin does not keep: they see the interpreter's tensors (the buffers stay the twins').
    KernelContext encoded = c;
    std::vector<RuntimeTensor> originals;
    if (fake_quant) {
      originals.reserve(c.inputs.size() + c.outputs.size());
      for (const auto& [list, indices] : {std::pair{&encoded.inputs, &c.node->inputs},
                                          std::pair{&encoded.outputs, &c.node->outputs}}) {
        for (size_t k = 0; k < list->size(); ++k) {
          const int32_t t = (*indices)[k];
          if (t < 0) continue;
          originals.push_back((*partition_.tensors)[static_cast<size_t>(t)]);
          (*list)[k] = &originals.back();
        }
      }
    }
    auto steps = EncodeNode(encoded, node_buffers, **program, device_);
    if (!steps.ok()) return steps.status().WithContext(label);
    for (ClStep& step : *steps) {
      transfers_->init_upload_bytes += step.uploaded_bytes;
      if (step.owned)
        transfers_->other_bytes += std::max<uint64_t>({step.owned_bytes, step.uploaded_bytes, 4});
      steps_.push_back(std::move(step));
    }
  }
  TFA_RETURN_IF_ERROR(CheckCl(clFinish(device_.queue()), "clFinish"));
  // The device holds every constant now and Eval never reads one on the host: the host values of
  // the folded and dequantized ones go, as upstream's delegate drops the graph it copied the
  // weights into once its inference context is built.
  for (auto& [t, tensor] : tensors_) {
    if (tensor.is_constant) tensor.data = nullptr;
  }
  constant_host_buffers_.clear();
  return Status::Ok();
}

Status OpenClPartitionKernel::Eval(KernelContext& context) {
  transfers_->bytes_to_device = 0;
  transfers_->bytes_from_device = 0;
  // The interpreter passes the boundary tensors in the partition's order. What crosses is the
  // host tensor, or for a quantized one its float values in the twin's host buffer.
  std::vector<const void*> sources(partition_.inputs.size());
  std::vector<uint64_t> source_bytes(partition_.inputs.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    sources[i] = context.inputs[i]->data;
    source_bytes[i] = context.inputs[i]->bytes;
  }
  for (const BoundaryTwin& twin : input_twins_) {
    const RuntimeTensor& host = *context.inputs[twin.position];
    const std::string label = "input tensor " + std::to_string(partition_.inputs[twin.position]);
    source_bytes[twin.position] = FloatTwin(host).bytes;
    float* values = Staging(context, twin, source_bytes[twin.position]);
    if (!values) return Status::Error(label + ": no host buffer for its float values");
    TFA_RETURN_IF_ERROR(DequantizeToFloat(host, values).WithContext(label));
    sources[twin.position] = values;
  }
  for (size_t i = 0; i < partition_.inputs.size(); ++i) {
    const int32_t t = partition_.inputs[i];
    auto buffer = buffers_.find(t);
    if (buffer == buffers_.end() || tensors_.at(t).is_constant) continue;
    const auto staging = input_staging_.find(t);
    const size_t bytes = static_cast<size_t>(source_bytes[i]);
    if (staging == input_staging_.end()) {
      TFA_RETURN_IF_ERROR(Upload(buffer->second.get(), sources[i], bytes, false));
    } else {
      TFA_RETURN_IF_ERROR(Upload(staging->second.get(), sources[i], bytes, false));
      TFA_RETURN_IF_ERROR(
          CheckCl(clEnqueueCopyBuffer(device_.queue(), staging->second.get(), buffer->second.get(),
                                      0, 0, bytes, 0, nullptr, nullptr),
                  "clEnqueueCopyBuffer"));
    }
    transfers_->bytes_to_device += source_bytes[i];
    if (const auto rounding = input_rounding_.find(t); rounding != input_rounding_.end())
      TFA_RETURN_IF_ERROR(EnqueueStep(device_.queue(), rounding->second));
  }
  const cl_command_queue queue = device_.queue();
  for (const ClStep& step : steps_) TFA_RETURN_IF_ERROR(EnqueueStep(queue, step));
  std::vector<void*> targets(partition_.outputs.size());
  std::vector<uint64_t> target_bytes(partition_.outputs.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    targets[i] = context.outputs[i]->data;
    target_bytes[i] = context.outputs[i]->bytes;
  }
  for (const BoundaryTwin& twin : output_twins_) {
    target_bytes[twin.position] = FloatTwin(*context.outputs[twin.position]).bytes;
    targets[twin.position] = Staging(context, twin, target_bytes[twin.position]);
    if (!targets[twin.position])
      return Status::Error("output tensor " + std::to_string(partition_.outputs[twin.position]) +
                           ": no host buffer for its float values");
  }
  for (size_t i = 0; i < partition_.outputs.size(); ++i) {
    const size_t bytes = static_cast<size_t>(target_bytes[i]);
    cl_mem source = buffers_.at(partition_.outputs[i]).get();
    if (const auto staging = output_staging_.find(partition_.outputs[i]);
        staging != output_staging_.end()) {
      TFA_RETURN_IF_ERROR(CheckCl(clEnqueueCopyBuffer(queue, source, staging->second.get(), 0, 0,
                                                      bytes, 0, nullptr, nullptr),
                                  "clEnqueueCopyBuffer"));
      source = staging->second.get();
    }
    TFA_RETURN_IF_ERROR(CheckCl(
        clEnqueueReadBuffer(queue, source, CL_FALSE, 0, bytes, targets[i], 0, nullptr, nullptr),
        "clEnqueueReadBuffer"));
    transfers_->bytes_from_device += target_bytes[i];
  }
  TFA_RETURN_IF_ERROR(CheckCl(clFinish(queue), "clFinish"));
  for (const BoundaryTwin& twin : output_twins_) {
    TFA_RETURN_IF_ERROR(
        QuantizeFromFloat(static_cast<const float*>(targets[twin.position]),
                          *context.outputs[twin.position])
            .WithContext("output tensor " + std::to_string(partition_.outputs[twin.position])));
  }
  ++transfers_->evals;
  return Status::Ok();
}

}  // namespace tfa::runtime
