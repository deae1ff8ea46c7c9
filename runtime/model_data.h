// The bytes of a .tflite file that the Graph IR leaves out: constant tensor data, sparsity
// metadata of sparse constants, custom op options and the few builtin options kernels need that
// OpOptions does not carry. The file is mapped read-only; constant tensors point into the
// mapping, as upstream's kTfLiteMmapRo tensors do.
#ifndef RUNTIME_MODEL_DATA_H_
#define RUNTIME_MODEL_DATA_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

// One dimension of a sparse tensor's storage (TfLite's DimensionMetadata): dense with
// `dense_size` entries, or CSR with `segments` and `indices`.
struct SparseDimension {
  bool dense = true;
  int32_t dense_size = 0;
  std::vector<int32_t> segments;
  std::vector<int32_t> indices;
};

// TfLite's SparsityParameters: the storage order of the (possibly blocked) dimensions.
struct Sparsity {
  std::vector<int32_t> traversal_order;
  std::vector<int32_t> block_map;
  std::vector<SparseDimension> dimensions;
};

// What a kernel may need from its operator beyond OpOptions.
struct NodeData {
  std::span<const uint8_t> custom_options;
  int32_t block_size = 0;  // DEPTH_TO_SPACE / SPACE_TO_DEPTH
  bool gelu_approximate = false;
};

class ModelData {
 public:
  // Maps `path` and reads the tables the runtime needs. The file must already have passed the
  // loader's checks (LoadModelFile); this only re-verifies the flatbuffer before reading it.
  [[nodiscard]] static Result<std::unique_ptr<ModelData>> Open(const std::string& path);
  ~ModelData();
  ModelData(const ModelData&) = delete;
  ModelData& operator=(const ModelData&) = delete;

  // The constant bytes of tensor `tensor` of subgraph `subgraph` (empty when it has none).
  std::span<const uint8_t> TensorData(int32_t subgraph, int32_t tensor) const;
  // Sparsity of a sparse constant, or nullptr.
  const Sparsity* TensorSparsity(int32_t subgraph, int32_t tensor) const;
  const NodeData& Node(int32_t subgraph, int32_t node) const;

 private:
  ModelData() = default;
  Status Read(const std::string& path);

  const uint8_t* file_ = nullptr;
  size_t file_size_ = 0;
  std::vector<std::vector<std::span<const uint8_t>>> tensor_data_;
  std::vector<std::vector<std::unique_ptr<Sparsity>>> sparsity_;
  std::vector<std::vector<NodeData>> nodes_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_MODEL_DATA_H_
