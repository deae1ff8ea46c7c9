// What `tflite-analyze info` shows: per subgraph, node and tensor counts, the op histogram
// (upstream builtin names, custom ops under their custom code), inputs and outputs with shapes
// and types, and constant bytes.
#ifndef LIBANALYSIS_REPORT_MODEL_SUMMARY_H_
#define LIBANALYSIS_REPORT_MODEL_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
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
};

struct ModelSummary {
  std::string model;
  std::string format;
  uint32_t schema_version = 0;
  std::string description;
  std::vector<std::string> metadata_names;
  std::vector<std::string> signature_keys;
  uint64_t constant_bytes = 0;
  bool has_sparse_tensors = false;
  std::vector<SubgraphSummary> subgraphs;
  RuntimeVersionRequirement runtime_version;  // the oldest runtime whose ops can run it
};

ModelSummary SummarizeModel(const Model& model);
std::string ModelSummaryToJson(const ModelSummary& summary, int indent = 2);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_MODEL_SUMMARY_H_
