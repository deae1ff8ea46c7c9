// The builtin kernels' output-shape rules, one function per rule, defined by op family in
// shape_rules_*.cc as upstream keeps one kernel per tflite/kernels/*.cc file; shape_inference.cc
// lists which op uses which (kShapeRules). Internal to libanalysis/prepare.
#ifndef LIBANALYSIS_PREPARE_SHAPE_RULES_H_
#define LIBANALYSIS_PREPARE_SHAPE_RULES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/shape_inference.h"

namespace tfa::shape_rules {

using Values = std::vector<int64_t>;

// What a rule reads: the node, the subgraph's current shapes and the values the caller knows.
struct RuleInput {
  const Subgraph& subgraph;
  const Node& node;
  const IntValuesOf& values;
};

using Outcome = Result<InferredShapes>;
using ShapeRule = Outcome (*)(const RuleInput&);

// Building blocks (shape_rules.cc).
std::string ShapeText(const Shape& shape);
Outcome Shapes(std::vector<Shape> shapes);
Outcome OneShape(Shape shape);
Outcome Dynamic();  // sized at Eval
// Some outputs sized at Prepare (a shape), the others at Eval (nullopt).
Outcome PartlyDynamic(std::vector<std::optional<Shape>> outputs);
Status Fail(const RuleInput& in, const std::string& reason);
Result<const Tensor*> Input(const RuleInput& in, size_t position);
Result<Shape> InputShape(const RuleInput& in, size_t position);
std::optional<Values> KnownValues(const RuleInput& in, size_t position);
Result<int32_t> ResolveAxis(const RuleInput& in, int64_t axis, size_t rank);
Result<int32_t> ToDimension(const RuleInput& in, int64_t value);
Status RequireRank(const RuleInput& in, const Shape& shape, size_t rank, const char* what);
Result<Shape> BroadcastShapes(const RuleInput& in, const std::vector<Shape>& shapes);
Outcome ShapeFromValuesRule(const RuleInput& in, size_t position);

// Rules many ops share (shape_rules.cc).
Outcome SameAsInputRule(const RuleInput& in);
Outcome NoOutputsRule(const RuleInput& in);
Outcome AlwaysDynamicRule(const RuleInput& in);
Outcome ScalarRule(const RuleInput& in);
Outcome ShapeFromInput0Rule(const RuleInput& in);

// Elementwise ops whose inputs broadcast (shape_rules_elementwise.cc).
Outcome BroadcastRule(const RuleInput& in);
Outcome SelectRule(const RuleInput& in);
Outcome Atan2Rule(const RuleInput& in);
Outcome StablehloElementwiseRule(const RuleInput& in);
Outcome StablehloShiftLeftRule(const RuleInput& in);

// Convolutions, pools, matrix products, image resizes (shape_rules_conv_pool.cc).
Outcome Conv2DRule(const RuleInput& in);
Outcome Conv3DRule(const RuleInput& in);
Outcome PoolRule(const RuleInput& in);
Outcome FullyConnectedRule(const RuleInput& in);
Outcome BatchMatMulRule(const RuleInput& in);
Outcome ResizeRule(const RuleInput& in);

// Reshapes, transposes, concatenation, packing, tiling, padding, space / depth / batch moves
// (shape_rules_reshape.cc).
Outcome ConcatenationRule(const RuleInput& in);
Outcome ReshapeRule(const RuleInput& in);
Outcome TransposeRule(const RuleInput& in);
Outcome SqueezeRule(const RuleInput& in);
Outcome ExpandDimsRule(const RuleInput& in);
Outcome PackRule(const RuleInput& in);
Outcome UnpackRule(const RuleInput& in);
Outcome TileRule(const RuleInput& in);
Outcome BroadcastToRule(const RuleInput& in);
Outcome BroadcastArgsRule(const RuleInput& in);
Outcome ShapeOpRule(const RuleInput& in);
Outcome BitcastRule(const RuleInput& in);
Outcome PadRule(const RuleInput& in);
Outcome DilateRule(const RuleInput& in);
Outcome SpaceBatchRule(const RuleInput& in);
Outcome DepthSpaceRule(const RuleInput& in);

// Gathers, slices, splits, top-k (shape_rules_gather_slice.cc).
Outcome GatherRule(const RuleInput& in);
Outcome GatherNdRule(const RuleInput& in);
Outcome EmbeddingLookupRule(const RuleInput& in);
Outcome EmbeddingLookupSparseRule(const RuleInput& in);
Outcome HashtableLookupRule(const RuleInput& in);
Outcome StridedSliceRule(const RuleInput& in);
Outcome SliceRule(const RuleInput& in);
Outcome SplitRule(const RuleInput& in);
Outcome SplitVRule(const RuleInput& in);
Outcome TopKRule(const RuleInput& in);

// Reductions, segment ops, and outputs an index or count input sizes
// (shape_rules_reduce_index.cc).
Outcome ReduceRule(const RuleInput& in);
Outcome ArgMinMaxRule(const RuleInput& in);
Outcome SegmentSumRule(const RuleInput& in);
Outcome UnsortedSegmentRule(const RuleInput& in);
Outcome WhereRule(const RuleInput& in);
Outcome ScatterNdRule(const RuleInput& in);
Outcome OneHotRule(const RuleInput& in);
Outcome RangeRule(const RuleInput& in);
Outcome MatrixDiagRule(const RuleInput& in);
Outcome MatrixSetDiagRule(const RuleInput& in);
Outcome SparseToDenseRule(const RuleInput& in);
Outcome Rfft2dRule(const RuleInput& in);
Outcome MultinomialRule(const RuleInput& in);

// Ops that select some of their input's elements, how many known only from the values
// (shape_rules_selection.cc).
Outcome NonMaxSuppressionRule(const RuleInput& in);
Outcome UniqueRule(const RuleInput& in);

// Recurrent ops (shape_rules_recurrent.cc).
Outcome LstmRule(const RuleInput& in);
Outcome BidirectionalLstmRule(const RuleInput& in);
Outcome RnnRule(const RuleInput& in);
Outcome BidirectionalRnnRule(const RuleInput& in);
Outcome SvdfRule(const RuleInput& in);

}  // namespace tfa::shape_rules

#endif  // LIBANALYSIS_PREPARE_SHAPE_RULES_H_
