// The XNNPACK delegate's per-node rules, as checks for libanalysis/profiles/builtin/xnnpack.json.
//
// Transcribes upstream's node selection (google-ai-edge/LiteRT
// tflite/delegates/xnnpack/xnnpack_delegate.cc): Delegate::PrepareOpsToDelegate asks
// Subgraph::VisitNode, with no XNNPACK subgraph, about every node of the execution plan, and
// VisitNode dispatches to one Visit*Node function per op. Each named check below is one of those
// functions, running its checks in upstream's order and rejecting with the line upstream logs
// when XNNPACK_DELEGATE_ENABLE_LOGGING is on (tensor and node numbers included). The delegate
// flags the checks read are profile options named after upstream's
// TFLITE_XNNPACK_DELEGATE_FLAG_* flags: qs8, qu8, dynamic_fully_connected,
// enable_latest_operators (force_fp16 changes precision only, not the choice of nodes).
//
// The checks live by op family in xnnpack_rules_*.cc, on the building blocks of xnnpack_visit.h;
// kXnnpackChecks (xnnpack_rules.cc) names them.
//
// Named checks (docs/xnnpack.md maps each to its upstream function and its test):
//   xnnpack_static_unpack           PrepareOpsToDelegate: DEQUANTIZE of static fp16/int8 data and
//                                   DENSIFY of static sparse data are taken without a Visit
//   xnnpack_unary                   VisitUnaryNode
//   xnnpack_binary                  VisitBinaryNode
//   xnnpack_average_pool_2d         VisitAveragePool2DNode
//   xnnpack_max_pool_2d             VisitMaxPool2DNode
//   xnnpack_batch_matmul            VisitBatchMatMulNode
//   xnnpack_concatenation           VisitConcatenationNode
//   xnnpack_conv_2d                 VisitConv2DNode
//   xnnpack_depthwise_conv_2d       VisitDepthwiseConv2DNode
//   xnnpack_depth_to_space          VisitDepthToSpaceNode
//   xnnpack_expand_dims             VisitExpandDimsNode
//   xnnpack_fully_connected         VisitFullyConnectedNode (and VisitNode's version-8 test)
//   xnnpack_reduce                  VisitReduceNode (MEAN, SUM, REDUCE_MAX, REDUCE_MIN)
//   xnnpack_pad                     VisitPadNode
//   xnnpack_reshape                 VisitReshapeNode
//   xnnpack_resize_bilinear         VisitResizeBilinearNode
//   xnnpack_slice                   VisitSliceNode
//   xnnpack_softmax                 VisitSoftmaxNode
//   xnnpack_space_to_depth          VisitSpaceToDepthNode
//   xnnpack_split                   VisitSplitNode
//   xnnpack_strided_slice           VisitStridedSliceNode
//   xnnpack_transpose               VisitTransposeNode
//   xnnpack_transpose_conv          VisitTransposeConvNode
//   xnnpack_var_handle              VisitVarHandleNode
//   xnnpack_read_variable           VisitReadVariableNode
//   xnnpack_assign_variable         VisitAssignVariableNode
//   xnnpack_mediapipe_deconvolution VisitMediaPipeDeconvolutionNode
//   xnnpack_mediapipe_max_pooling   VisitMediaPipeMaxPoolingNode
//   xnnpack_mediapipe_unpooling     VisitMediaPipeUnpoolingNode
//   xnnpack_scaled_dot_attention    VisitScaledDotAttentionCompositeNode (custom op form)
//   xnnpack_stablehlo_composite     VisitNode's STABLEHLO_COMPOSITE case: the SDPA composite by
//                                   name, through VisitScaledDotAttentionCompositeNode
//
// Constant values the visits read when choosing nodes (PAD paddings, RESIZE_BILINEAR's output
// height, SLICE sizes, STRIDED_SLICE strides and crops) come from Tensor::int_values; a model
// without them (Graph JSON) passes those checks, as a valid model would.
// Not reproduced: TRANSPOSE_CONV's output-shape values (the output tensor's shape stands in for
// them); the MediaPipe custom ops' parameter bytes (strides, filter and padding are assumed
// valid); DEPTH_TO_SPACE / SPACE_TO_DEPTH block sizes are derived from the input and output
// shapes.
#ifndef LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
#define LIBANALYSIS_PROFILES_XNNPACK_RULES_H_

#include <span>
#include <vector>

#include "libanalysis/profiles/node_support.h"
#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> XnnpackRuleChecks();

// PrepareOpsToDelegate's test for a node that unpacks static data (it takes such a node without
// visiting it): a DEQUANTIZE of non-sparse fp16 or affine-quantized int8 data that is constant or
// quasi-static, producing float32; or a DENSIFY of a sparse fp16/int8/float32 constant keeping
// its type.
bool IsXnnpackStaticUnpackNode(const Subgraph& subgraph, const Node& node);

// What PrepareOpsToDelegate decides once every node has been visited, applied to the verdicts
// (in plan order) and `supported` (by node index):
//   - a static-unpack node stays on the CPU when a node reading its output failed its Visit;
//   - a VAR_HANDLE, refused by its Visit, is taken when a READ_VARIABLE or ASSIGN_VARIABLE of its
//     resource was taken (the resource then has a proxy value).
void ApplyXnnpackPrepareOpsToDelegate(const Subgraph& subgraph, std::vector<NodeSupport>& verdicts,
                                      std::vector<bool>& supported);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
