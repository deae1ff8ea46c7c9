// The values a folding kernel computes in Prepare (see constant_folding.h), for the int32 / int64
// shape arithmetic that TF1-converted models carry: SHAPE -> STRIDED_SLICE -> MUL -> RESHAPE. The
// Prepare replay gives them to the shape rules of the nodes after, as upstream's kernels read a
// kTfLitePersistentRo input as they read a constant.
//
// What it covers: SHAPE, RANK, SIZE, GATHER of a 1-D tensor, MUL, CONCATENATION and REDUCE_PROD of
// 1-D tensors, RESHAPE (same values), RANGE, and STRIDED_SLICE of a 1-D tensor with one slice
// entry. Anything else yields nullopt, and the caller then cannot say what upstream computed.
#ifndef LIBANALYSIS_PREPARE_FOLDED_VALUES_H_
#define LIBANALYSIS_PREPARE_FOLDED_VALUES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/shape_inference.h"

namespace tfa {

// The values of `node`'s output 0 when its inputs' values are known: model constants from
// Tensor::int_values, the rest from `values`. nullopt when some value is unknown, the op is not
// covered, or the output would hold more than kMaxConstantIntValues elements.
std::optional<std::vector<int64_t>> FoldedOutputValues(const Subgraph& subgraph, const Node& node,
                                                       const IntValuesOf& values);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_FOLDED_VALUES_H_
