// `--input-shape NAME_OR_INDEX=D1,D2,...`: what ResizeInputTensorStrict followed by
// AllocateTensors does to a model's shapes. The input takes the new shape, every node on its path
// recomputes its outputs as its kernel's Prepare would (prepare/shape_inference.h), and the plan
// made afterwards (temporaries, arenas) sees the new shapes.
//
// And the other side: an input dimension the model leaves open (shape_signature -1) that nobody
// gave is planned with the file's `shape`; AssumedDimensions names each one.
#ifndef LIBANALYSIS_PLAN_INPUT_SHAPES_H_
#define LIBANALYSIS_PLAN_INPUT_SHAPES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// One --input-shape: the input (its tensor name, its signature key with a signature, or its
// position among the subgraph's inputs) and the shape it takes (empty: a scalar).
struct InputShapeRequest {
  std::string input;
  std::vector<int32_t> shape;
};

// "NAME_OR_INDEX=D1,D2,..." ("NAME=" for a scalar); errors quote the text.
[[nodiscard]] Result<InputShapeRequest> ParseInputShapeRequest(std::string_view text);

// An input dimension planned with the file's value because the model leaves it open.
struct AssumedDimension {
  int32_t subgraph = 0;
  int32_t tensor = 0;
  std::string input;  // the signature key where a signature names it, else the tensor's name
  int32_t dimension = 0;
  int32_t value = 0;
};

struct ResizedInputs {
  int32_t subgraph = 0;                   // the subgraph whose inputs were resized
  std::vector<int32_t> tensors;           // the inputs resized, in request order
  std::vector<std::string> names;         // their names (signature keys with a signature)
  std::vector<int32_t> eval_sized_nodes;  // nodes whose outputs now wait for Eval (dynamic)
};

// Resizes the inputs of `signature_key`'s subgraph (its keys name the inputs), or of subgraph 0
// when the key is empty, and propagates the shapes through that subgraph. Errors (one line,
// naming the model): an unknown input (with the closest name), a repeated one, a rank other than
// the input's, a dimension below 1 or one the model fixes (shape_signature not -1:
// ResizeInputTensorStrict refuses it), a shape a node on the path rejects, a node on the path
// without a shape rule.
[[nodiscard]] Result<ResizedInputs> ResizeInputs(Model& model,
                                                 const std::vector<InputShapeRequest>& requests,
                                                 const std::string& signature_key = "");

// The open input dimensions of the entry subgraphs (`signature_key`'s, or subgraph 0 and every
// signature's) that `resized` does not cover, with the values the file's shapes give them.
std::vector<AssumedDimension> AssumedDimensions(const Model& model,
                                                const std::vector<int32_t>& resized = {},
                                                const std::string& signature_key = "");

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_INPUT_SHAPES_H_
