// What `tflite-analyze info` shows: per subgraph, node and tensor counts, the op histogram
// (upstream builtin names, custom ops under their custom code), inputs and outputs with shapes,
// types and quantization, constant bytes, the metadata entries and, on request, every node with
// its tensors and multiply-accumulates (`info --ops`).
#ifndef LIBANALYSIS_REPORT_MODEL_SUMMARY_H_
#define LIBANALYSIS_REPORT_MODEL_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/model/model_metadata.h"
#include "libanalysis/model/runtime_version.h"

namespace tfa {

struct TensorSummary {
  int32_t index = 0;
  std::string name;
  std::string type;
  std::vector<int32_t> shape;
  std::vector<int32_t> shape_signature;
  std::optional<uint64_t> bytes;
  // Affine quantization as the model states it (empty when the tensor is not quantized).
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;  // the channel dimension of per-channel quantization
};

// One node for `info --ops`.
struct NodeSummary {
  int32_t node = 0;
  std::string op;
  std::vector<TensorSummary> inputs;  // index -1: an absent optional input
  std::vector<TensorSummary> outputs;
  std::optional<uint64_t> macs;  // node_macs.h
};

// A tensor with blockwise quantization (INT4 LLM weights): its scales and zero points are tensors
// of the subgraph, one per block of `block_size` values along `quantized_dimension`.
struct BlockwiseTensorSummary {
  int32_t index = 0;
  std::string name;
  std::string type;
  std::vector<int32_t> shape;
  int32_t block_size = 0;
  int32_t quantized_dimension = 0;
  int32_t scales = -1;       // tensor index
  int32_t zero_points = -1;  // tensor index, -1 = all zero
};

struct SubgraphSummary {
  int32_t index = 0;
  std::string name;
  size_t nodes = 0;
  size_t tensors = 0;
  std::map<std::string, size_t> op_histogram;  // sorted by name
  std::vector<TensorSummary> inputs;
  std::vector<TensorSummary> outputs;
  uint64_t constant_bytes = 0;
  size_t variable_tensors = 0;
  size_t dynamic_tensors = 0;  // tensors with a -1 in shape_signature, or sized at run time
  std::vector<BlockwiseTensorSummary> blockwise_tensors;
  std::vector<NodeSummary> node_table;  // with SummaryOptions::node_table, in node order
};

struct ModelSummary {
  std::string model;
  std::string format;
  uint32_t schema_version = 0;
  std::string description;
  std::vector<std::string> metadata_names;
  // With their buffers' sizes and text (model_metadata.h); the caller reads them from the file.
  std::vector<MetadataEntry> metadata;
  std::vector<std::string> signature_keys;
  uint64_t constant_bytes = 0;
  bool has_sparse_tensors = false;
  std::vector<SubgraphSummary> subgraphs;
  RuntimeVersionRequirement runtime_version;  // the oldest runtime whose ops can run it
};

struct SummaryOptions {
  bool node_table = false;
};

ModelSummary SummarizeModel(const Model& model, const SummaryOptions& options = {});
std::string ModelSummaryToJson(const ModelSummary& summary, int indent = 2);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_MODEL_SUMMARY_H_
