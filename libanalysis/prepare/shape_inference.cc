// Each builtin op's output-shape rule, listed once in kShapeRules; the rules themselves live in
// shape_rules_*.cc by op family (shape_rules.h).
#include "libanalysis/prepare/shape_inference.h"

#include <array>
#include <string>
#include <string_view>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa {
namespace shape_rules {
namespace {

struct NamedShapeRule {
  std::string_view op;
  ShapeRule rule;
};

constexpr std::array kShapeRules = {
    NamedShapeRule{"ADD", BroadcastRule},
    NamedShapeRule{"SUB", BroadcastRule},
    NamedShapeRule{"MUL", BroadcastRule},
    NamedShapeRule{"DIV", BroadcastRule},
    NamedShapeRule{"POW", BroadcastRule},
    NamedShapeRule{"MAXIMUM", BroadcastRule},
    NamedShapeRule{"MINIMUM", BroadcastRule},
    NamedShapeRule{"SQUARED_DIFFERENCE", BroadcastRule},
    NamedShapeRule{"FLOOR_DIV", BroadcastRule},
    NamedShapeRule{"FLOOR_MOD", BroadcastRule},
    NamedShapeRule{"LESS", BroadcastRule},
    NamedShapeRule{"LESS_EQUAL", BroadcastRule},
    NamedShapeRule{"GREATER", BroadcastRule},
    NamedShapeRule{"GREATER_EQUAL", BroadcastRule},
    NamedShapeRule{"EQUAL", BroadcastRule},
    NamedShapeRule{"NOT_EQUAL", BroadcastRule},
    NamedShapeRule{"LOGICAL_AND", BroadcastRule},
    NamedShapeRule{"LOGICAL_OR", BroadcastRule},
    NamedShapeRule{"PRELU", BroadcastRule},  // prelu.cc broadcasts input and alpha
    NamedShapeRule{"SELECT_V2", BroadcastRule},
    NamedShapeRule{"SELECT", SelectRule},
    NamedShapeRule{"CONCATENATION", ConcatenationRule},
    NamedShapeRule{"RELU", SameAsInputRule},
    NamedShapeRule{"RELU6", SameAsInputRule},
    NamedShapeRule{"RELU_N1_TO_1", SameAsInputRule},
    NamedShapeRule{"RELU_0_TO_1", SameAsInputRule},
    NamedShapeRule{"LEAKY_RELU", SameAsInputRule},
    NamedShapeRule{"ELU", SameAsInputRule},
    NamedShapeRule{"GELU", SameAsInputRule},
    NamedShapeRule{"HARD_SWISH", SameAsInputRule},
    NamedShapeRule{"LOGISTIC", SameAsInputRule},
    NamedShapeRule{"TANH", SameAsInputRule},
    NamedShapeRule{"ABS", SameAsInputRule},
    NamedShapeRule{"NEG", SameAsInputRule},
    NamedShapeRule{"SIGN", SameAsInputRule},
    NamedShapeRule{"EXP", SameAsInputRule},
    NamedShapeRule{"LOG", SameAsInputRule},
    NamedShapeRule{"SIN", SameAsInputRule},
    NamedShapeRule{"COS", SameAsInputRule},
    NamedShapeRule{"SQRT", SameAsInputRule},
    NamedShapeRule{"RSQRT", SameAsInputRule},
    NamedShapeRule{"SQUARE", SameAsInputRule},
    NamedShapeRule{"FLOOR", SameAsInputRule},
    NamedShapeRule{"CEIL", SameAsInputRule},
    NamedShapeRule{"ROUND", SameAsInputRule},
    NamedShapeRule{"CAST", SameAsInputRule},
    NamedShapeRule{"QUANTIZE", SameAsInputRule},
    NamedShapeRule{"DEQUANTIZE", SameAsInputRule},
    NamedShapeRule{"DENSIFY", SameAsInputRule},
    NamedShapeRule{"LOGICAL_NOT", SameAsInputRule},
    NamedShapeRule{"ZEROS_LIKE", SameAsInputRule},
    NamedShapeRule{"SOFTMAX", SameAsInputRule},
    NamedShapeRule{"LOG_SOFTMAX", SameAsInputRule},
    NamedShapeRule{"L2_NORMALIZATION", SameAsInputRule},
    NamedShapeRule{"LOCAL_RESPONSE_NORMALIZATION", SameAsInputRule},
    NamedShapeRule{"REVERSE_V2", SameAsInputRule},
    NamedShapeRule{"CUMSUM", SameAsInputRule},
    NamedShapeRule{"BUCKETIZE", SameAsInputRule},
    NamedShapeRule{"FAKE_QUANT", SameAsInputRule},
    NamedShapeRule{"RANDOM_UNIFORM", ShapeFromInput0Rule},
    NamedShapeRule{"RANDOM_STANDARD_NORMAL", ShapeFromInput0Rule},
    NamedShapeRule{"MULTINOMIAL", MultinomialRule},
    NamedShapeRule{"REVERSE_SEQUENCE", SameAsInputRule},
    NamedShapeRule{"ADD_N", SameAsInputRule},
    NamedShapeRule{"COMPLEX_ABS", SameAsInputRule},
    NamedShapeRule{"REAL", SameAsInputRule},
    NamedShapeRule{"IMAG", SameAsInputRule},
    NamedShapeRule{"DYNAMIC_UPDATE_SLICE", SameAsInputRule},
    NamedShapeRule{"CONV_2D", Conv2DRule},
    NamedShapeRule{"DEPTHWISE_CONV_2D", Conv2DRule},
    NamedShapeRule{"CONV_3D", Conv3DRule},
    NamedShapeRule{"TRANSPOSE_CONV", ShapeFromInput0Rule},
    NamedShapeRule{"CONV_3D_TRANSPOSE", ShapeFromInput0Rule},
    NamedShapeRule{"FILL", ShapeFromInput0Rule},
    NamedShapeRule{"AVERAGE_POOL_2D", PoolRule},
    NamedShapeRule{"MAX_POOL_2D", PoolRule},
    NamedShapeRule{"L2_POOL_2D", PoolRule},
    NamedShapeRule{"FULLY_CONNECTED", FullyConnectedRule},
    NamedShapeRule{"BATCH_MATMUL", BatchMatMulRule},
    NamedShapeRule{"RESHAPE", ReshapeRule},
    NamedShapeRule{"TRANSPOSE", TransposeRule},
    NamedShapeRule{"GATHER", GatherRule},
    NamedShapeRule{"GATHER_ND", GatherNdRule},
    NamedShapeRule{"MEAN", ReduceRule},
    NamedShapeRule{"SUM", ReduceRule},
    NamedShapeRule{"REDUCE_PROD", ReduceRule},
    NamedShapeRule{"REDUCE_MAX", ReduceRule},
    NamedShapeRule{"REDUCE_MIN", ReduceRule},
    NamedShapeRule{"REDUCE_ANY", ReduceRule},
    NamedShapeRule{"REDUCE_ALL", ReduceRule},
    NamedShapeRule{"STRIDED_SLICE", StridedSliceRule},
    NamedShapeRule{"SLICE", SliceRule},
    NamedShapeRule{"PAD", PadRule},
    NamedShapeRule{"PADV2", PadRule},
    NamedShapeRule{"MIRROR_PAD", PadRule},
    NamedShapeRule{"SPLIT", SplitRule},
    NamedShapeRule{"SPLIT_V", SplitVRule},
    NamedShapeRule{"SQUEEZE", SqueezeRule},
    NamedShapeRule{"EXPAND_DIMS", ExpandDimsRule},
    NamedShapeRule{"PACK", PackRule},
    NamedShapeRule{"UNPACK", UnpackRule},
    NamedShapeRule{"TILE", TileRule},
    NamedShapeRule{"BROADCAST_TO", BroadcastToRule},
    NamedShapeRule{"SHAPE", ShapeOpRule},
    NamedShapeRule{"RANK", ScalarRule},  // rank.cc: an int32 scalar
    NamedShapeRule{"RESIZE_BILINEAR", ResizeRule},
    NamedShapeRule{"RESIZE_NEAREST_NEIGHBOR", ResizeRule},
    NamedShapeRule{"SPACE_TO_BATCH_ND", SpaceBatchRule},
    NamedShapeRule{"DEPTH_TO_SPACE", DepthSpaceRule},
    NamedShapeRule{"SPACE_TO_DEPTH", DepthSpaceRule},
    NamedShapeRule{"BATCH_TO_SPACE_ND", SpaceBatchRule},
    NamedShapeRule{"ARG_MAX", ArgMinMaxRule},
    NamedShapeRule{"ARG_MIN", ArgMinMaxRule},
    NamedShapeRule{"LSTM", LstmRule},
    NamedShapeRule{"UNIDIRECTIONAL_SEQUENCE_LSTM", LstmRule},
    NamedShapeRule{"BIDIRECTIONAL_SEQUENCE_LSTM", BidirectionalLstmRule},
    NamedShapeRule{"RNN", RnnRule},
    NamedShapeRule{"UNIDIRECTIONAL_SEQUENCE_RNN", RnnRule},
    NamedShapeRule{"BIDIRECTIONAL_SEQUENCE_RNN", BidirectionalRnnRule},
    NamedShapeRule{"SVDF", SvdfRule},
    NamedShapeRule{"RFFT2D", Rfft2dRule},
    NamedShapeRule{"EMBEDDING_LOOKUP", EmbeddingLookupRule},
    NamedShapeRule{"EMBEDDING_LOOKUP_SPARSE", EmbeddingLookupSparseRule},
    NamedShapeRule{"HASHTABLE_LOOKUP", HashtableLookupRule},
    NamedShapeRule{"DILATE", DilateRule},
    NamedShapeRule{"TOPK_V2", TopKRule},
    NamedShapeRule{"WHERE", WhereRule},
    NamedShapeRule{"NON_MAX_SUPPRESSION_V4", NonMaxSuppressionRule},
    NamedShapeRule{"NON_MAX_SUPPRESSION_V5", NonMaxSuppressionRule},
    NamedShapeRule{"UNIQUE", UniqueRule},
    NamedShapeRule{"SCATTER_ND", ScatterNdRule},
    NamedShapeRule{"SEGMENT_SUM", SegmentSumRule},
    NamedShapeRule{"UNSORTED_SEGMENT_SUM", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_PROD", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_MAX", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_MIN", UnsortedSegmentRule},
    NamedShapeRule{"ATAN2", Atan2Rule},
    NamedShapeRule{"BITWISE_XOR", BroadcastRule},
    NamedShapeRule{"RIGHT_SHIFT", BroadcastRule},
    NamedShapeRule{"STABLEHLO_ADD", StablehloElementwiseRule},
    NamedShapeRule{"STABLEHLO_MULTIPLY", StablehloElementwiseRule},
    NamedShapeRule{"STABLEHLO_MAXIMUM", StablehloElementwiseRule},
    NamedShapeRule{"STABLEHLO_MINIMUM", StablehloElementwiseRule},
    NamedShapeRule{"STABLEHLO_AND", StablehloElementwiseRule},
    NamedShapeRule{"STABLEHLO_SHIFT_LEFT", StablehloShiftLeftRule},
    NamedShapeRule{"MATRIX_DIAG", MatrixDiagRule},
    NamedShapeRule{"MATRIX_SET_DIAG", MatrixSetDiagRule},
    NamedShapeRule{"BITCAST", BitcastRule},
    NamedShapeRule{"BROADCAST_ARGS", BroadcastArgsRule},
    NamedShapeRule{"SPARSE_TO_DENSE", SparseToDenseRule},
    NamedShapeRule{"RANGE", RangeRule},
    NamedShapeRule{"ONE_HOT", OneHotRule},
    NamedShapeRule{"VAR_HANDLE", ScalarRule},
    NamedShapeRule{"READ_VARIABLE", AlwaysDynamicRule},
    NamedShapeRule{"ASSIGN_VARIABLE", NoOutputsRule},
};

const NamedShapeRule* FindRule(const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return nullptr;
  for (const NamedShapeRule& rule : kShapeRules) {
    if (rule.op == node.op) return &rule;
  }
  return nullptr;
}

}  // namespace
}  // namespace shape_rules

namespace {

using prepare_internal::NodeError;
using shape_rules::FindRule;
using shape_rules::NamedShapeRule;
using shape_rules::RuleInput;

}  // namespace

bool HasShapeRule(const std::string& op) {
  Node node;
  node.op = op;
  return FindRule(node) != nullptr;
}

Result<InferredShapes> InferOutputShapesOrDynamic(const Subgraph& subgraph, const Node& node,
                                                  const IntValuesOf& values) {
  const NamedShapeRule* rule = FindRule(node);
  if (rule == nullptr) return NodeError(node, "no shape rule");
  return rule->rule(RuleInput{subgraph, node, values});
}

Result<std::vector<Shape>> InferOutputShapes(const Subgraph& subgraph, const Node& node,
                                             const IntValuesOf& values) {
  auto inferred = InferOutputShapesOrDynamic(subgraph, node, values);
  if (!inferred.ok()) return inferred.status();
  if (inferred->dynamic) {
    return NodeError(node, "its output shape depends on values unknown at Prepare");
  }
  return std::move(inferred->shapes);
}

namespace {

// `changed`: when given, the tensors whose shape changed so far; nodes reading none of them are
// left as they are.
Result<std::vector<int32_t>> Propagate(Subgraph& subgraph, const IntValuesOf& values,
                                       bool allow_dynamic, std::vector<bool>* changed) {
  std::vector<bool> sized_at_eval(subgraph.tensors.size(), false);
  std::vector<int32_t> dynamic_nodes;
  for (int32_t n : subgraph.execution_plan.empty() ? IdentityExecutionPlan(subgraph)
                                                   : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[static_cast<size_t>(n)];
    const std::string where = "node " + std::to_string(n);
    const auto reads = [&node](const std::vector<bool>& marked) {
      for (int32_t input : node.inputs) {
        if (input >= 0 && static_cast<size_t>(input) < marked.size() &&
            marked[static_cast<size_t>(input)]) {
          return true;
        }
      }
      return false;
    };
    if (changed != nullptr && !reads(*changed)) continue;
    // A node reading a tensor sized at Eval is prepared at Eval: all its outputs wait too.
    InferredShapes inferred{{}, true, {}};
    if (!reads(sized_at_eval)) {
      auto rule = InferOutputShapesOrDynamic(subgraph, node, values);
      if (!rule.ok()) return rule.status().WithContext(where);
      inferred = std::move(rule).value();
    }
    if (inferred.dynamic && !allow_dynamic) {
      return NodeError(node, "its output shape depends on values unknown at Prepare")
          .WithContext(where);
    }
    if (inferred.dynamic) dynamic_nodes.push_back(n);
    if (inferred.shapes.size() != node.outputs.size() &&
        (!inferred.dynamic || !inferred.sized.empty())) {
      return Status::Error(where + ": " + node.op + ": its shape rule gives " +
                           std::to_string(inferred.shapes.size()) + " outputs where the node has " +
                           std::to_string(node.outputs.size()));
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      const int32_t output = node.outputs[i];
      if (output < 0) continue;
      if (inferred.IsDynamicOutput(i)) {
        sized_at_eval[static_cast<size_t>(output)] = true;
        if (changed != nullptr) (*changed)[static_cast<size_t>(output)] = true;
        continue;
      }
      Tensor& tensor = subgraph.tensors[static_cast<size_t>(output)];
      if (changed != nullptr && tensor.shape != inferred.shapes[i]) {
        (*changed)[static_cast<size_t>(output)] = true;
      }
      tensor.bytes = ShapeBytes(tensor.type, inferred.shapes[i]);
      tensor.shape = inferred.shapes[i];
    }
  }
  return dynamic_nodes;
}

}  // namespace

Status PropagateShapes(Subgraph& subgraph, const IntValuesOf& values) {
  auto propagated = Propagate(subgraph, values, false, nullptr);
  return propagated.ok() ? Status::Ok() : propagated.status();
}

Result<std::vector<int32_t>> PropagateShapesAllowingDynamic(Subgraph& subgraph,
                                                            const IntValuesOf& values) {
  return Propagate(subgraph, values, true, nullptr);
}

Result<std::vector<int32_t>> PropagateResizedShapes(Subgraph& subgraph,
                                                    const std::vector<int32_t>& resized,
                                                    const IntValuesOf& values) {
  std::vector<bool> changed(subgraph.tensors.size(), false);
  for (int32_t t : resized) {
    if (t >= 0 && static_cast<size_t>(t) < changed.size()) changed[static_cast<size_t>(t)] = true;
  }
  return Propagate(subgraph, values, true, &changed);
}

}  // namespace tfa
