// Builds Graph IR models the way the .tflite loader would read them back: tensor byte sizes and
// allocation types, node op names, in-place flags and side effects, variable lists and execution
// plans are derived with the loader's rules, so that ParseTflite(WriteTflite(m)) equals m.
// Constant tensors get one buffer each, numbered from 1, with their contents kept in ModelData.
//
// The builder checks what it is told only with asserts: it is a tool for writing models, the
// loader is where untrusted input is checked.
#ifndef CORPUS_GENERATOR_MODEL_BUILDER_H_
#define CORPUS_GENERATOR_MODEL_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// A model and the constant contents that go with it.
struct SyntheticModel {
  Model model;
  ModelData data;
};

class ModelBuilder {
 public:
  // `name` becomes Model::path (the name errors and reports use).
  explicit ModelBuilder(std::string name, std::string description = {});

  // Appends a subgraph and returns its index; subgraph 0 is the main graph.
  int32_t AddSubgraph(std::string name);

  // An activation tensor. `shape_signature` is empty for a static shape; -1 marks a dynamic dim.
  int32_t AddTensor(int32_t subgraph, std::string name, TensorType type, Dims shape,
                    Quantization quantization = {}, std::vector<int32_t> shape_signature = {});
  // A stateful tensor (is_variable): lives in the persistent arena.
  int32_t AddVariable(int32_t subgraph, std::string name, TensorType type,
                      std::vector<int32_t> shape);
  // A constant with its contents (non-empty); it gets the next buffer index.
  int32_t AddConstant(int32_t subgraph, std::string name, TensorType type,
                      std::vector<int32_t> shape, std::vector<uint8_t> contents,
                      Quantization quantization = {});

  // A sparse constant: `contents` is its compressed data, `ledger_bytes` the ledger size its
  // sparsity metadata gives the sparse hybrid kernels (Tensor::sparse_ledger_bytes).
  int32_t AddSparseConstant(int32_t subgraph, std::string name, TensorType type,
                            std::vector<int32_t> shape, std::vector<uint8_t> contents,
                            uint64_t ledger_bytes, Quantization quantization = {});

  // A builtin node, by upstream name ("CONV_2D"); returns the node index.
  int32_t AddNode(int32_t subgraph, std::string_view op, std::vector<int32_t> inputs,
                  std::vector<int32_t> outputs, OpOptions options = {}, int32_t version = 1);
  int32_t AddCustomNode(int32_t subgraph, std::string custom_code, std::vector<int32_t> inputs,
                        std::vector<int32_t> outputs, uint64_t custom_options_size);
  // A custom node with its custom_options bytes (e.g. a flexbuffer map).
  int32_t AddCustomNode(int32_t subgraph, std::string custom_code, std::vector<int32_t> inputs,
                        std::vector<int32_t> outputs, std::vector<uint8_t> custom_options);

  void SetInputs(int32_t subgraph, std::vector<int32_t> inputs);
  void SetOutputs(int32_t subgraph, std::vector<int32_t> outputs);
  void AddSignature(SignatureDef signature);
  // Metadata entry with its contents, e.g. {"min_runtime_version", "1.14.0"}.
  void AddMetadata(std::string name, std::vector<uint8_t> contents);

  const Tensor& tensor(int32_t subgraph, int32_t index) const;

  // Fills in the execution plans, variable lists and model totals.
  SyntheticModel Finish() &&;

 private:
  Subgraph& subgraph(int32_t index);
  int32_t Append(int32_t subgraph, Tensor tensor);
  // A constant tensor with the next buffer, its contents kept in the result's data.
  Tensor Constant(std::string name, TensorType type, std::vector<int32_t> shape,
                  std::vector<uint8_t> contents, Quantization quantization);

  SyntheticModel result_;
  int32_t next_buffer_ = 1;  // buffer 0 is the empty sentinel
};

// What upstream's converter attaches to every model: the runtime version metadata and the
// serving signature of the main subgraph.
void AddConverterExtras(ModelBuilder& b, const std::vector<std::pair<std::string, int32_t>>& inputs,
                        const std::vector<std::pair<std::string, int32_t>>& outputs);

// Byte helpers for constant contents.
std::vector<uint8_t> FloatBytes(const std::vector<float>& values);
std::vector<uint8_t> Int32Bytes(const std::vector<int32_t>& values);
std::vector<uint8_t> Int8Bytes(const std::vector<int8_t>& values);
std::vector<uint8_t> Float16Bytes(
    const std::vector<float>& values);  // IEEE binary16, round to nearest

}  // namespace tfa

#endif  // CORPUS_GENERATOR_MODEL_BUILDER_H_
