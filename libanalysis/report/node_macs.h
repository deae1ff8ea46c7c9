// Multiply-accumulates of the nodes whose cost is mostly a matrix product: CONV_2D,
// DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL and TRANSPOSE_CONV, from their tensors' shapes
// as the model states them (`info --ops`). One MAC per weight applied to one input value; bias
// additions and activations are not counted. Nothing for other ops, for a tensor of unknown size
// (a -1 dimension, a missing input) or for a count past 2^64.
#ifndef LIBANALYSIS_REPORT_NODE_MACS_H_
#define LIBANALYSIS_REPORT_NODE_MACS_H_

#include <cstdint>
#include <optional>

#include "libanalysis/model/graph.h"

namespace tfa {

std::optional<uint64_t> NodeMacs(const Subgraph& subgraph, const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_NODE_MACS_H_
