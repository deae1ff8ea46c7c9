// TFLite Micro's Prepare checks for UNIDIRECTIONAL_SEQUENCE_LSTM: the tensor status TFLM needs
// (both states variables, every gate weight and bias present, none of the CIFG, peephole,
// projection or layer-norm variants' tensors) and the shapes it validates. PrepareFailure
// (kernel_prepare_checks.h) dispatches to it.
#ifndef LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_LSTM_H_
#define LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_LSTM_H_

#include <optional>
#include <string>

#include "libanalysis/model/graph.h"

namespace tfa::tflm::prepare_checks {

std::optional<std::string> SequenceLstmFailure(const Subgraph& g, const Node& node);

}  // namespace tfa::tflm::prepare_checks

#endif  // LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_LSTM_H_
