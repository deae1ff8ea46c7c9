// How one TFLite node becomes one libXNNPACK 0.0~git20220216 subgraph node, after upstream's
// TFLite XNNPACK delegate (google-ai-edge/LiteRT tflite/delegates/xnnpack/xnnpack_delegate.cc,
// its Visit*Node functions): the fused activation becomes the node's output_min/output_max,
// SAME padding becomes XNN_FLAG_TENSORFLOW_SAME_PADDING, FULLY_CONNECTED without keep_num_dims
// becomes XNN_FLAG_TENSORFLOW_RESHAPE_2D, 1x1 pooling with stride 1 becomes a clamp, MEAN over
// height and width becomes global average pooling, RELU/RELU6/RELU_N1_TO_1 become clamps.
//
// Float32, and 8-bit quantized (QS8, QU8) for the convolutions, FULLY_CONNECTED, ADD, SUB, MUL,
// MAX_POOL_2D, PAD, RESHAPE, MEAN and LOGISTIC, where the 2022 library defines them. What the 2022
// library has no node for (CONCATENATION, TRANSPOSE, SLICE,
// BATCH_MATMUL, TANH, ...) and the library's nodes this mapping does not use (deconvolution,
// argmax pooling, unpooling, convert) are refused with the reason, and run elsewhere.
#ifndef RUNTIME_DELEGATES_XNNPACK_XNNPACK_NODE_MAPPING_H_
#define RUNTIME_DELEGATES_XNNPACK_XNNPACK_NODE_MAPPING_H_

#include <xnnpack.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// The tensors of a partition, as the mapping reads them.
class XnnpackTensorView {
 public:
  virtual ~XnnpackTensorView() = default;
  // The tensor as the kernel holds it: static weights are float32 there (fp16 constants and the
  // outputs of DEQUANTIZE nodes unpacked at creation are converted copies).
  virtual const RuntimeTensor& Tensor(int32_t tensor) const = 0;
  // Whether the tensor's data is known when the runtime is created (weights, biases, paddings).
  virtual bool IsStatic(int32_t tensor) const = 0;
};

// The tensors of the subgraph under construction, as the mapping defines them.
class XnnpackTensors : public XnnpackTensorView {
 public:
  // The XNNPACK value of `tensor` with its own shape, or with `dims` (same element count) where
  // XNNPACK names the layout differently; defined on first use.
  [[nodiscard]] virtual Result<uint32_t> Value(int32_t tensor) = 0;
  [[nodiscard]] virtual Result<uint32_t> ValueWithDims(int32_t tensor,
                                                       const std::vector<size_t>& dims) = 0;
};

// Why the node cannot become an XNNPACK node of this library version, or nullopt when it can.
std::optional<std::string> XnnpackCannotRun(const Node& node, const XnnpackTensorView& tensors);

// Adds the node to `subgraph`; XnnpackCannotRun must have accepted it.
[[nodiscard]] Status DefineXnnpackNode(xnn_subgraph_t subgraph, const Node& node,
                                       XnnpackTensors& tensors);

// Defines the XNNPACK value of `tensor` with `dims`: fp32, or qint8 / quint8 / qint32 with the
// tensor's scale and zero point, or qcint8 / qcint32 for per-channel quantization.
xnn_status DefineXnnpackValue(xnn_subgraph_t subgraph, const RuntimeTensor& tensor,
                              const std::vector<size_t>& dims, const void* data,
                              uint32_t external_id, uint32_t flags, uint32_t* id);

// libXNNPACK's status as its enumerator's name ("xnn_status_invalid_parameter").
std::string XnnpackStatusName(xnn_status status);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_XNNPACK_NODE_MAPPING_H_
