#include "corpus/generator/model_builder.h"

#include <bit>
#include <cassert>
#include <cstring>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/builtin_kernel_flags.h"
#include "libanalysis/model/builtin_ops.h"

namespace tfa {
namespace {

template <typename T>
std::vector<uint8_t> RawBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// IEEE binary32 -> binary16 with round-to-nearest-even; overflow gives infinity.
uint16_t ToHalf(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u)
    return static_cast<uint16_t>(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds above 65504
  if (abs < 0x38800000u) {
    // Subnormal half: shift the implicit-one mantissa into place, rounding to nearest even.
    if (abs < 0x33000000u) return sign;
    const uint32_t exponent = abs >> 23;
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exponent;  // 14..24
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

// Bytes and allocation as tflite_loader.cc ReadTensor derives them.
void DeriveSizes(Tensor& t) {
  std::optional<uint64_t> elements = 1;
  for (int32_t d : t.shape) {
    if (d < 0) {
      elements.reset();
      break;
    }
    elements = CheckedMul(*elements, static_cast<uint64_t>(d));
    assert(elements && "shape overflows 64 bits");
  }
  const auto element_size = ElementSize(t.type);
  t.bytes.reset();
  // DataBytes packs INT4 two to a byte and INT2 four, as the loader sizes them.
  if (elements && element_size) t.bytes = DataBytes(t.type, *elements);
  if (t.constant_bytes > 0) {
    t.allocation = AllocationType::kMmapRo;
    if (!element_size || t.is_sparse) t.bytes = t.constant_bytes;
    assert(t.bytes == t.constant_bytes && "constant contents do not match the shape");
  } else if (!element_size) {
    t.allocation = AllocationType::kDynamic;
    t.bytes.reset();
  } else if (t.is_variable) {
    t.allocation = AllocationType::kArenaRwPersistent;
  } else {
    t.allocation = AllocationType::kArenaRw;
  }
}

}  // namespace

ModelBuilder::ModelBuilder(std::string name, std::string description) {
  result_.model.path = std::move(name);
  result_.model.format = "tflite";
  result_.model.schema_version = 3;  // the .tflite schema version every current writer emits
  result_.model.description = std::move(description);
}

int32_t ModelBuilder::AddSubgraph(std::string name) {
  result_.model.subgraphs.emplace_back().name = std::move(name);
  return static_cast<int32_t>(result_.model.subgraphs.size() - 1);
}

Subgraph& ModelBuilder::subgraph(int32_t index) {
  assert(index >= 0 && static_cast<size_t>(index) < result_.model.subgraphs.size() &&
         "subgraph out of range");
  return result_.model.subgraphs[static_cast<size_t>(index)];
}

const Tensor& ModelBuilder::tensor(int32_t subgraph, int32_t index) const {
  return result_.model.subgraphs.at(static_cast<size_t>(subgraph))
      .tensors.at(static_cast<size_t>(index));
}

int32_t ModelBuilder::Append(int32_t sg, Tensor tensor) {
  DeriveSizes(tensor);
  SharedList<Tensor>& tensors = subgraph(sg).tensors;
  tensors.push_back(std::move(tensor));
  return static_cast<int32_t>(tensors.size() - 1);
}

int32_t ModelBuilder::AddTensor(int32_t sg, std::string name, TensorType type, Dims shape,
                                Quantization quantization, std::vector<int32_t> shape_signature) {
  Tensor t;
  t.name = std::move(name);
  t.type = type;
  t.shape = std::move(shape);
  t.shape_signature = std::move(shape_signature);
  t.quantization = std::move(quantization);
  return Append(sg, std::move(t));
}

int32_t ModelBuilder::AddVariable(int32_t sg, std::string name, TensorType type,
                                  std::vector<int32_t> shape) {
  Tensor t;
  t.name = std::move(name);
  t.type = type;
  t.shape = std::move(shape);
  t.is_variable = true;
  return Append(sg, std::move(t));
}

Tensor ModelBuilder::Constant(std::string name, TensorType type, std::vector<int32_t> shape,
                              std::vector<uint8_t> contents, Quantization quantization) {
  assert(!contents.empty() && "a constant without contents reads back as an activation");
  Tensor t;
  t.name = std::move(name);
  t.type = type;
  t.shape = std::move(shape);
  t.quantization = std::move(quantization);
  t.buffer = next_buffer_++;
  t.constant_bytes = contents.size();
  result_.data.buffers[t.buffer] = std::move(contents);
  return t;
}

int32_t ModelBuilder::AddConstant(int32_t sg, std::string name, TensorType type,
                                  std::vector<int32_t> shape, std::vector<uint8_t> contents,
                                  Quantization quantization) {
  return Append(sg, Constant(std::move(name), type, std::move(shape), std::move(contents),
                             std::move(quantization)));
}

int32_t ModelBuilder::AddSparseConstant(int32_t sg, std::string name, TensorType type,
                                        std::vector<int32_t> shape, std::vector<uint8_t> contents,
                                        uint64_t ledger_bytes, Quantization quantization) {
  Tensor t = Constant(std::move(name), type, std::move(shape), std::move(contents),
                      std::move(quantization));
  t.is_sparse = true;
  t.sparse_ledger_bytes = ledger_bytes;
  return Append(sg, std::move(t));
}

int32_t ModelBuilder::AddNode(int32_t sg, std::string_view op, std::vector<int32_t> inputs,
                              std::vector<int32_t> outputs, OpOptions options, int32_t version) {
  const std::optional<int32_t> code = BuiltinCodeFromName(op);
  assert(code && "unknown builtin op name");
  Node node;
  node.op = std::string(op);
  node.builtin_code = *code;
  node.version = version;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.options = std::move(options);
  node.inplace = BuiltinInplaceFlags(*code);
  node.side_effect = BuiltinHasSideEffect(*code);
  SharedList<Node>& nodes = subgraph(sg).nodes;
  nodes.push_back(std::move(node));
  return static_cast<int32_t>(nodes.size() - 1);
}

int32_t ModelBuilder::AddCustomNode(int32_t sg, std::string custom_code,
                                    std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                                    uint64_t custom_options_size) {
  Node node;
  node.kind = NodeKind::kCustom;
  node.op = std::move(custom_code);
  node.builtin_code = kBuiltinCustom;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.options.Mutable().custom_options_size = custom_options_size;
  // The writer writes that many zero bytes, which the loader reads back.
  node.options.Mutable().custom_options.assign(static_cast<size_t>(custom_options_size), 0);
  SharedList<Node>& nodes = subgraph(sg).nodes;
  nodes.push_back(std::move(node));
  return static_cast<int32_t>(nodes.size() - 1);
}

int32_t ModelBuilder::AddCustomNode(int32_t sg, std::string custom_code,
                                    std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                                    std::vector<uint8_t> custom_options) {
  const int32_t index = AddCustomNode(sg, std::move(custom_code), std::move(inputs),
                                      std::move(outputs), custom_options.size());
  subgraph(sg).nodes[static_cast<size_t>(index)].options.Mutable().custom_options =
      std::move(custom_options);
  return index;
}

void ModelBuilder::SetInputs(int32_t sg, std::vector<int32_t> inputs) {
  subgraph(sg).inputs = std::move(inputs);
}

void ModelBuilder::SetOutputs(int32_t sg, std::vector<int32_t> outputs) {
  subgraph(sg).outputs = std::move(outputs);
}

void ModelBuilder::AddSignature(SignatureDef signature) {
  result_.model.signatures.push_back(std::move(signature));
}

void ModelBuilder::AddMetadata(std::string name, std::vector<uint8_t> contents) {
  result_.data.metadata[name] = std::move(contents);
  result_.model.metadata_names.push_back(std::move(name));
}

SyntheticModel ModelBuilder::Finish() && {
  Model& model = result_.model;
  model.constant_bytes = 0;
  model.has_sparse_tensors = false;
  for (Subgraph& sg : model.subgraphs) {
    sg.execution_plan = IdentityExecutionPlan(sg);
    sg.variables.clear();
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const Tensor& tensor = sg.tensors[t];
      if (tensor.is_variable) sg.variables.push_back(static_cast<int32_t>(t));
      model.constant_bytes += tensor.constant_bytes;
      model.has_sparse_tensors |= tensor.is_sparse;
    }
  }
  return std::move(result_);
}

std::vector<uint8_t> FloatBytes(const std::vector<float>& values) { return RawBytes(values); }
std::vector<uint8_t> Int32Bytes(const std::vector<int32_t>& values) { return RawBytes(values); }
std::vector<uint8_t> Int8Bytes(const std::vector<int8_t>& values) { return RawBytes(values); }

std::vector<uint8_t> Float16Bytes(const std::vector<float>& values) {
  std::vector<uint16_t> halves;
  halves.reserve(values.size());
  for (float v : values) halves.push_back(ToHalf(v));
  return RawBytes(halves);
}

void AddConverterExtras(ModelBuilder& b, const std::vector<std::pair<std::string, int32_t>>& inputs,
                        const std::vector<std::pair<std::string, int32_t>>& outputs) {
  const std::string version = "1.14.0";
  std::vector<uint8_t> contents(version.begin(), version.end());
  contents.resize(16, 0);  // upstream pads the version string to 16 bytes
  b.AddMetadata("min_runtime_version", std::move(contents));
  b.AddSignature({"serving_default", 0, inputs, outputs});
}

}  // namespace tfa
