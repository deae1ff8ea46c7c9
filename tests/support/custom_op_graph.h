// A one-node graph of a custom op with its flexbuffer options, as the TFLM replay's custom-op
// tests (the Signal library, CIRCULAR_BUFFER, detection post-processing) build them.
#ifndef TESTS_SUPPORT_CUSTOM_OP_GRAPH_H_
#define TESTS_SUPPORT_CUSTOM_OP_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa::testing {

// `tensors`, then one CUSTOM node `op` reading `inputs` and writing `outputs`, whose custom
// options are `options` (read from the graph, as a .tflite's are).
Subgraph CustomOpGraph(const std::string& op, std::vector<Tensor> tensors,
                       std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                       std::vector<uint8_t> options);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_CUSTOM_OP_GRAPH_H_
