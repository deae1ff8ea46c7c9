// TFLite Micro's Prepare checks for the tensor kernels: CEIL, ROUND, EXP, CUMSUM,
// DEPTH_TO_SPACE, SPACE_TO_DEPTH, ELU, FILL, L2_POOL_2D, REVERSE_V2, SELECT_V2, BROADCAST_TO and
// BROADCAST_ARGS (each cites its file under tensorflow/lite/micro/kernels/). PrepareFailure
// (kernel_prepare_checks.h) dispatches to them.
#ifndef LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_TENSOR_OPS_H_
#define LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_TENSOR_OPS_H_

#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/model/graph.h"

namespace tfa::tflm::prepare_checks {

std::optional<std::string> FloatUnaryFailure(const Subgraph& g, const Node& node,
                                             std::string_view file);
std::optional<std::string> CumsumFailure(const Subgraph& g, const Node& node);
std::optional<std::string> DepthSpaceFailure(const Subgraph& g, const Node& node);
std::optional<std::string> EluFailure(const Subgraph& g, const Node& node);
std::optional<std::string> FillFailure(const Subgraph& g, const Node& node);
std::optional<std::string> L2PoolFailure(const Subgraph& g, const Node& node);
std::optional<std::string> ReverseFailure(const Subgraph& g, const Node& node);
std::optional<std::string> SelectFailure(const Subgraph& g, const Node& node);
std::optional<std::string> BroadcastToFailure(const Subgraph& g, const Node& node);
std::optional<std::string> BroadcastArgsFailure(const Subgraph& g, const Node& node);

}  // namespace tfa::tflm::prepare_checks

#endif  // LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_TENSOR_OPS_H_
