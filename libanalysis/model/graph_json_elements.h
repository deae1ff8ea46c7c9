// One tensor, node or signature of Graph JSON from its members, and the member keys the reader
// looks at. Internal to libanalysis/model.
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_ELEMENTS_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_ELEMENTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/graph_json_values.h"

namespace tfa::graph_json {

Status ReadMetadataNames(const json& v, std::vector<std::string>& names);

Status ReadSignatures(const json& v, Model& model);

// The members of one tensor object, kept until its end because checks run in a fixed order
// whatever the key order (a repeated key keeps its last value, as a JSON object does).
struct TensorMembers {
  Value name, bytes, alloc, type, variable, buffer, constant_bytes, sparse, sparse_ledger_bytes;
  IntListValue shape, shape_signature;
  CollectedValue quantization, int_values;

  // Every member absent again, the lists keeping their room: one TensorMembers reads every
  // tensor of a list, and fresh lists cost a million-tensor graph an allocation per list
  // (issue 46). A member added above is cleared there too.
  void Clear();
};

// Fills `t` (a default Tensor) from the members; built in place, as a Tensor is not small.
Status ReadTensor(TensorMembers& m, const std::string& path, Tensor& t);

struct NodeMembers {
  Value op, inplace, version, side_effect, builtin_code;
  IntListValue inputs, outputs, temporaries, intermediates;
  CollectedValue options;

  // As TensorMembers::Clear.
  void Clear();
};

// Fills `n` (a default Node) from the members; built in place, as a Node is not small.
Status ReadNode(NodeMembers& m, const std::string& path, int64_t tensors, Node& n);

// The fewest bytes of JSON a tensor or node of a real graph takes ({"name":"t0","bytes":4,...},
// {"op":"ADD","inputs":[0],"outputs":[1]}): the bound of a list's reservation.
constexpr size_t kMinTensorJsonBytes = 40;
constexpr size_t kMinNodeJsonBytes = 30;

// Members this reader looks at; every other key is skipped with its value.
enum class Member : uint8_t {
  kOther,
  kFormat,
  kKernelPrepare,
  kSchemaVersion,
  kDescription,
  kMetadataNames,
  kSignatures,
  kSubgraphs,
  kTensors,
  kNodes,
  kInputs,
  kOutputs,
  kVariables,
  kName,
  kBytes,
  kAlloc,
  kType,
  kShape,
  kShapeSignature,
  kVariable,
  kBuffer,
  kConstantBytes,
  kSparse,
  kSparseLedgerBytes,
  kQuantization,
  kIntValues,
  kOp,
  kBuiltinCode,
  kInplace,
  kVersion,
  kSideEffect,
  kTemporaries,
  kIntermediates,
  kOptions,
};

// Members of the top-level object (a subgraph object takes the subgraph ones among them), of a
// tensor and of a node.
Member TopMember(std::string_view key);
Member TensorMember(std::string_view key);
Member NodeMember(std::string_view key);

}  // namespace tfa::graph_json

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_ELEMENTS_H_
