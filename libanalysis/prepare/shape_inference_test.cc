#include "libanalysis/prepare/shape_inference.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

// The while_dynamic body: the loop state grows by concatenation, and the shapes flow on.
TEST(ShapeInferenceTest, PropagatesAGrowingConcatenationThroughBroadcasts) {
  Subgraph g;
  const int32_t acc = AddTensor(g, TensorType::kFloat32, {4, 256});
  const int32_t row = AddConstant(g, TensorType::kFloat32, {1, 256});
  const int32_t cat = AddTensor(g, TensorType::kFloat32, {5, 256});
  const int32_t half = AddConstant(g, TensorType::kFloat32, {});
  const int32_t scaled = AddTensor(g, TensorType::kFloat32, {5, 256});
  AddNode(g, "CONCATENATION", {acc, row}, {cat}).options.Mutable().axis = -2;
  AddNode(g, "MUL", {cat, half}, {scaled});
  g.tensors[static_cast<size_t>(acc)].shape = {9, 256};
  ASSERT_TRUE(PropagateShapes(g).ok());
  EXPECT_EQ(g.tensors[static_cast<size_t>(cat)].shape, (Shape{10, 256}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(scaled)].shape, (Shape{10, 256}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(scaled)].bytes, 10u * 256u * 4u);
}

TEST(ShapeInferenceTest, BroadcastAlignsTheLastDimensions) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {2, 1, 3});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4, 1});
  const int32_t c = AddTensor(g, TensorType::kBool, {});
  AddNode(g, "LESS", {a, b}, {c});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{2, 4, 3}));
}

TEST(ShapeInferenceTest, IncompatibleShapesAndUnknownOpsAreErrorsNamingTheNode) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {2, 3});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t c = AddTensor(g, TensorType::kFloat32, {2, 3});
  AddNode(g, "ADD", {a, b}, {c});
  AddNode(g, "MY_CUSTOM_THING", {a}, {c});
  const Status broadcast = PropagateShapes(g);
  EXPECT_EQ(broadcast.message(), "node 0: ADD: shapes [2,3] and [4] do not broadcast");
  EXPECT_EQ(InferOutputShapes(g, g.nodes[1]).status().message(), "MY_CUSTOM_THING: no shape rule");
}

// reshape.cc: a shape input Prepare cannot read leaves the output to Eval, and with it every node
// that reads it.
TEST(ShapeInferenceTest, AShapeKnownOnlyAtEvalIsDynamicNotAnError) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {2, 6});
  const int32_t shape = AddTensor(g, TensorType::kInt32, {2});
  const int32_t reshaped = AddTensor(g, TensorType::kFloat32, {3, 4});
  const int32_t relu = AddTensor(g, TensorType::kFloat32, {3, 4});
  AddNode(g, "RESHAPE", {x, shape}, {reshaped});
  AddNode(g, "RELU", {reshaped}, {relu});
  auto inferred = InferOutputShapesOrDynamic(g, g.nodes[0]);
  ASSERT_TRUE(inferred.ok());
  EXPECT_TRUE(inferred->dynamic);
  auto dynamic = PropagateShapesAllowingDynamic(g);
  ASSERT_TRUE(dynamic.ok()) << dynamic.status().message();
  EXPECT_EQ(*dynamic, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(PropagateShapes(g).message(),
            "node 0: RESHAPE: its output shape depends on values unknown at Prepare");
  // The runtime knows the value.
  auto known = InferOutputShapes(g, g.nodes[0], [](int32_t) {
    return std::optional<std::vector<int64_t>>(std::vector<int64_t>{-1, 3});
  });
  ASSERT_TRUE(known.ok()) << known.status().message();
  EXPECT_EQ(known->at(0), (Shape{4, 3}));
}

// strided_slice.cc: begin_mask, shrink_axis_mask and a negative stride.
TEST(ShapeInferenceTest, StridedSliceAppliesMasksAndStrides) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {1, 10, 16});
  const int32_t begin = AddConstant(g, TensorType::kInt32, {3});
  const int32_t end = AddConstant(g, TensorType::kInt32, {3});
  const int32_t strides = AddConstant(g, TensorType::kInt32, {3});
  g.tensors[static_cast<size_t>(begin)].int_values = {0, -1, 9};
  g.tensors[static_cast<size_t>(end)].int_values = {1, 0, 0};
  g.tensors[static_cast<size_t>(strides)].int_values = {1, 1, -2};
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  Node& node = AddNode(g, "STRIDED_SLICE", {x, begin, end, strides}, {out});
  node.options.Mutable().begin_mask = 1;
  node.options.Mutable().shrink_axis_mask = 2;
  auto shapes = InferOutputShapes(g, node);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  // Axis 0: [0, 1) -> 1; axis 1 shrinks; axis 2: 9 down to (not including) 0 by 2 -> 9,7,5,3,1.
  EXPECT_EQ(shapes->at(0), (Shape{1, 5}));
}

// range.cc: ceil(|limit - start| / |delta|) values; a zero delta is an error; bounds computed
// at Eval leave the output to Eval.
TEST(ShapeInferenceTest, RangeCountsItsValues) {
  Subgraph g;
  const int32_t start = AddConstant(g, TensorType::kInt32, {});
  const int32_t limit = AddConstant(g, TensorType::kInt32, {});
  const int32_t delta = AddConstant(g, TensorType::kInt32, {});
  g.tensors[static_cast<size_t>(start)].int_values = {10};
  g.tensors[static_cast<size_t>(limit)].int_values = {3};
  g.tensors[static_cast<size_t>(delta)].int_values = {-3};
  const int32_t out = AddTensor(g, TensorType::kInt32, {});
  AddNode(g, "RANGE", {start, limit, delta}, {out});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{3}));
  g.tensors[static_cast<size_t>(delta)].int_values = {0};
  EXPECT_EQ(InferOutputShapes(g, g.nodes[0]).status().message(), "RANGE: delta is 0");
  const int32_t computed = AddTensor(g, TensorType::kInt32, {});
  AddNode(g, "RANGE", {start, computed, delta}, {out});
  auto later = InferOutputShapesOrDynamic(g, g.nodes[1]);
  ASSERT_TRUE(later.ok());
  EXPECT_TRUE(later->dynamic);
}

// embedding_lookup_sparse.cc: dense_shape[:k-1] + params[1:], from dense_shape's values.
TEST(ShapeInferenceTest, EmbeddingLookupSparseTakesTheDenseShape) {
  Subgraph g;
  const int32_t ids = AddTensor(g, TensorType::kInt32, {3});
  const int32_t indices = AddTensor(g, TensorType::kInt32, {3, 3});
  const int32_t dense_shape = AddConstant(g, TensorType::kInt32, {3});
  const int32_t weights = AddTensor(g, TensorType::kFloat32, {3});
  const int32_t params = AddTensor(g, TensorType::kFloat32, {4, 3, 2});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1});
  AddNode(g, "EMBEDDING_LOOKUP_SPARSE", {ids, indices, dense_shape, weights, params}, {out});
  auto unknown = InferOutputShapesOrDynamic(g, g.nodes[0]);
  ASSERT_TRUE(unknown.ok()) << unknown.status().message();
  EXPECT_TRUE(unknown->dynamic);
  g.tensors[static_cast<size_t>(dense_shape)].int_values = {3, 2, 2};
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{3, 2, 3, 2}));
  const int32_t two_columns = AddTensor(g, TensorType::kInt32, {3, 2});
  AddNode(g, "EMBEDDING_LOOKUP_SPARSE", {ids, two_columns, dense_shape, weights, params}, {out});
  EXPECT_EQ(InferOutputShapes(g, g.nodes[1]).status().message(),
            "EMBEDDING_LOOKUP_SPARSE: dense_shape has 3 entries where indices has 2 columns");
}

// hashtable_lookup.cc: [lookup] + values[1:] and the hits [lookup]; string values are sized at
// Eval.
TEST(ShapeInferenceTest, HashtableLookupTakesTheLookupCount) {
  Subgraph g;
  const int32_t lookup = AddTensor(g, TensorType::kInt32, {4});
  const int32_t keys = AddTensor(g, TensorType::kInt32, {3});
  const int32_t values = AddTensor(g, TensorType::kFloat32, {3, 2});
  const int32_t strings = AddTensor(g, TensorType::kString, {3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1});
  const int32_t hits = AddTensor(g, TensorType::kUInt8, {1});
  AddNode(g, "HASHTABLE_LOOKUP", {lookup, keys, values}, {out, hits});
  AddNode(g, "HASHTABLE_LOOKUP", {lookup, keys, strings}, {out, hits});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(*shapes, (std::vector<Shape>{{4, 2}, {4}}));
  auto string_shapes = InferOutputShapesOrDynamic(g, g.nodes[1]);
  ASSERT_TRUE(string_shapes.ok()) << string_shapes.status().message();
  EXPECT_TRUE(string_shapes->IsDynamicOutput(0));
  EXPECT_FALSE(string_shapes->IsDynamicOutput(1));
}

// dilate.cc: (d - 1) * dilation + 1 per dimension, from the dilations' values.
TEST(ShapeInferenceTest, DilateSpreadsEachDimension) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {4, 2, 3});
  const int32_t dilations = AddConstant(g, TensorType::kInt32, {3});
  const int32_t padding = AddConstant(g, TensorType::kFloat32, {1});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1});
  AddNode(g, "DILATE", {x, dilations, padding}, {out});
  auto unknown = InferOutputShapesOrDynamic(g, g.nodes[0]);
  ASSERT_TRUE(unknown.ok()) << unknown.status().message();
  EXPECT_TRUE(unknown->dynamic);
  g.tensors[static_cast<size_t>(dilations)].int_values = {2, 3, 4};
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{7, 4, 9}));
  g.tensors[static_cast<size_t>(dilations)].int_values = {2, 0, 4};
  EXPECT_EQ(InferOutputShapes(g, g.nodes[0]).status().message(), "DILATE: dilation 0 is below 1");
}

// rank.cc: an int32 scalar whatever the input.
TEST(ShapeInferenceTest, RankIsAScalar) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {1, 3, 1, 3, 5});
  const int32_t out = AddTensor(g, TensorType::kInt32, {7});
  AddNode(g, "RANK", {x}, {out});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{}));
}

// one_hot.cc: the depth goes in at the axis, -1 meaning last.
TEST(ShapeInferenceTest, OneHotInsertsTheDepth) {
  Subgraph g;
  const int32_t indices = AddTensor(g, TensorType::kInt32, {2, 5});
  const int32_t depth = AddConstant(g, TensorType::kInt32, {});
  g.tensors[static_cast<size_t>(depth)].int_values = {7};
  const int32_t on = AddConstant(g, TensorType::kFloat32, {});
  const int32_t off = AddConstant(g, TensorType::kFloat32, {});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  Node& last = AddNode(g, "ONE_HOT", {indices, depth, on, off}, {out});
  last.options.Mutable().axis = -1;
  Node& first = AddNode(g, "ONE_HOT", {indices, depth, on, off}, {out});
  first.options.Mutable().axis = 0;
  auto at_end = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(at_end.ok()) << at_end.status().message();
  EXPECT_EQ(at_end->at(0), (Shape{2, 5, 7}));
  auto at_front = InferOutputShapes(g, g.nodes[1]);
  ASSERT_TRUE(at_front.ok()) << at_front.status().message();
  EXPECT_EQ(at_front->at(0), (Shape{7, 2, 5}));
}

// unsorted_segment.cc: [num_segments] then the data's dimensions past the ids' rank; ids that
// are not constant leave the output to Eval.
TEST(ShapeInferenceTest, UnsortedSegmentTakesNumSegments) {
  Subgraph g;
  const int32_t data = AddTensor(g, TensorType::kFloat32, {3, 2, 4});
  const int32_t ids = AddConstant(g, TensorType::kInt32, {3, 2});
  g.tensors[static_cast<size_t>(ids)].int_values = {0, 1, 0, 4, -1, 2};
  const int32_t count = AddConstant(g, TensorType::kInt32, {1});
  g.tensors[static_cast<size_t>(count)].int_values = {5};
  const int32_t runtime_ids = AddTensor(g, TensorType::kInt32, {3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  AddNode(g, "UNSORTED_SEGMENT_MAX", {data, ids, count}, {out});
  AddNode(g, "UNSORTED_SEGMENT_SUM", {data, runtime_ids, count}, {out});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{5, 4}));
  auto at_eval = InferOutputShapesOrDynamic(g, g.nodes[1]);
  ASSERT_TRUE(at_eval.ok());
  EXPECT_TRUE(at_eval->dynamic);
  g.tensors[static_cast<size_t>(count)].int_values = {4};
  EXPECT_EQ(InferOutputShapes(g, g.nodes[0]).status().message(),
            "UNSORTED_SEGMENT_MAX: segment id 4 is not below num_segments 4");
}

TEST(ShapeInferenceTest, Atan2MatrixDiagBucketizeReverseSequence) {
  Subgraph g;
  const int32_t y = AddTensor(g, TensorType::kFloat32, {2, 3});
  const int32_t x = AddTensor(g, TensorType::kFloat32, {2, 3});
  const int32_t row = AddTensor(g, TensorType::kFloat32, {3});
  const int32_t lengths = AddTensor(g, TensorType::kInt32, {2});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  AddNode(g, "ATAN2", {y, x}, {out});
  AddNode(g, "ATAN2", {y, row}, {out});
  AddNode(g, "MATRIX_DIAG", {y}, {out});
  AddNode(g, "BUCKETIZE", {y}, {out});
  AddNode(g, "REVERSE_SEQUENCE", {y, lengths}, {out});
  const std::vector<Shape> expected = {{2, 3}, {}, {2, 3, 3}, {2, 3}, {2, 3}};
  for (size_t n : {0u, 2u, 3u, 4u}) {
    auto shapes = InferOutputShapes(g, g.nodes[n]);
    ASSERT_TRUE(shapes.ok()) << shapes.status().message();
    EXPECT_EQ(shapes->at(0), expected[n]) << n;
  }
  // atan2.cc takes no broadcast; its Prepare compares the ranks.
  EXPECT_EQ(InferOutputShapes(g, g.nodes[1]).status().message(),
            "ATAN2: inputs [2,3] and [3] differ in rank");
}

// stablehlo_elementwise.cc takes no broadcast and one type; stablehlo_shift_left.cc reads the
// shifts up to the values' count, whatever their shape.
TEST(ShapeInferenceTest, StablehloElementwiseOpsTakeOneShapeAndOneType) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kInt32, {2, 3});
  const int32_t b = AddTensor(g, TensorType::kInt32, {2, 3});
  const int32_t flat = AddTensor(g, TensorType::kInt32, {6});
  const int32_t row = AddTensor(g, TensorType::kInt32, {3});
  const int32_t f = AddTensor(g, TensorType::kFloat32, {2, 3});
  const int32_t out = AddTensor(g, TensorType::kInt32, {});
  AddNode(g, "STABLEHLO_ADD", {a, b}, {out});
  AddNode(g, "STABLEHLO_SHIFT_LEFT", {a, flat}, {out});
  AddNode(g, "STABLEHLO_MAXIMUM", {a, row}, {out});
  AddNode(g, "STABLEHLO_AND", {a, f}, {out});
  AddNode(g, "STABLEHLO_SHIFT_LEFT", {a, row}, {out});
  for (size_t n : {0u, 1u}) {
    auto shapes = InferOutputShapes(g, g.nodes[n]);
    ASSERT_TRUE(shapes.ok()) << shapes.status().message();
    EXPECT_EQ(shapes->at(0), (Shape{2, 3})) << n;
  }
  EXPECT_EQ(InferOutputShapes(g, g.nodes[2]).status().message(),
            "STABLEHLO_MAXIMUM: inputs [2,3] and [3] differ in shape");
  EXPECT_EQ(InferOutputShapes(g, g.nodes[3]).status().message(),
            "STABLEHLO_AND: inputs of types int32 and float32");
  EXPECT_EQ(InferOutputShapes(g, g.nodes[4]).status().message(),
            "STABLEHLO_SHIFT_LEFT: the shifts [3] are fewer than the values [2,3] (upstream reads "
            "past them)");
}

// space_to_batch_nd.cc / batch_to_space_nd.cc: a dilated convolution's wrapper pair.
TEST(ShapeInferenceTest, SpaceToBatchAndBackUndoEachOther) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {1, 10, 10, 3});
  const int32_t block = AddConstant(g, TensorType::kInt32, {2});
  const int32_t paddings = AddConstant(g, TensorType::kInt32, {2, 2});
  const int32_t crops = AddConstant(g, TensorType::kInt32, {2, 2});
  g.tensors[static_cast<size_t>(block)].int_values = {2, 2};
  g.tensors[static_cast<size_t>(paddings)].int_values = {1, 1, 1, 1};
  g.tensors[static_cast<size_t>(crops)].int_values = {1, 1, 1, 1};
  const int32_t batched = AddTensor(g, TensorType::kFloat32, {});
  const int32_t back = AddTensor(g, TensorType::kFloat32, {});
  AddNode(g, "SPACE_TO_BATCH_ND", {x, block, paddings}, {batched});
  AddNode(g, "BATCH_TO_SPACE_ND", {batched, block, crops}, {back});
  ASSERT_TRUE(PropagateShapes(g).ok());
  // (10 + 1 + 1) / 2 = 6 per spatial dimension, batch 1 x 2 x 2.
  EXPECT_EQ(g.tensors[static_cast<size_t>(batched)].shape, (Shape{4, 6, 6, 3}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(back)].shape, (Shape{1, 10, 10, 3}));
}

// depth_to_space.cc / space_to_depth.cc: block_size 2 moves a factor 4 of the depth into height
// and width, and back.
TEST(ShapeInferenceTest, DepthToSpaceAndBackUndoEachOther) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {1, 3, 5, 8});
  const int32_t spread = AddTensor(g, TensorType::kFloat32, {});
  const int32_t back = AddTensor(g, TensorType::kFloat32, {});
  AddNode(g, "DEPTH_TO_SPACE", {x}, {spread}).options.Mutable().block_size = 2;
  AddNode(g, "SPACE_TO_DEPTH", {spread}, {back}).options.Mutable().block_size = 2;
  ASSERT_TRUE(PropagateShapes(g).ok());
  EXPECT_EQ(g.tensors[static_cast<size_t>(spread)].shape, (Shape{1, 6, 10, 2}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(back)].shape, (Shape{1, 3, 5, 8}));
  g.nodes[0].options.Mutable().block_size = 3;
  EXPECT_EQ(PropagateShapes(g).message(),
            "node 0: DEPTH_TO_SPACE: depth 8 is not a multiple of block_size^2");
}

// gather.cc with batch_dims: the leading batch dimensions of params and positions are shared, so
// the output keeps them once: params[:axis] + positions[batch_dims:] + params[axis + 1:].
TEST(ShapeInferenceTest, GatherKeepsSharedBatchDimensionsOnce) {
  Subgraph g;
  const int32_t params = AddTensor(g, TensorType::kFloat32, {2, 7, 5});
  const int32_t positions = AddTensor(g, TensorType::kInt32, {2, 3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  Node& node = AddNode(g, "GATHER", {params, positions}, {out});
  node.options.Mutable().axis = 1;
  node.options.Mutable().batch_dims = -1;
  auto shapes = InferOutputShapes(g, node);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{2, 3, 5}));
  node.options.Mutable().batch_dims = 2;
  EXPECT_FALSE(InferOutputShapes(g, node).ok());
}

// lstm.cc basic::Prepare: the activation and state take the previous ones' shapes, the
// concatenation [batch, input + depth], the gates [batch, 4 x depth], whatever the file says (a
// TOCO model stores the intermediates' shapes as the activation's).
TEST(ShapeInferenceTest, BasicLstmSizesItsFourOutputs) {
  Subgraph g;
  const int32_t input = AddTensor(g, TensorType::kUInt8, {3, 2});
  const int32_t activation = AddTensor(g, TensorType::kUInt8, {3, 5});
  const int32_t weights = AddConstant(g, TensorType::kUInt8, {20, 7});
  const int32_t bias = AddConstant(g, TensorType::kInt32, {20});
  const int32_t state = AddTensor(g, TensorType::kInt16, {3, 5});
  std::vector<int32_t> outputs;
  for (TensorType type :
       {TensorType::kUInt8, TensorType::kInt16, TensorType::kUInt8, TensorType::kInt16}) {
    outputs.push_back(AddTensor(g, type, {3, 5}));
  }
  AddNode(g, "LSTM", {input, activation, weights, bias, state}, outputs)
      .options.Mutable()
      .lstm_basic_kernel = true;
  ASSERT_TRUE(PropagateShapes(g).ok());
  const std::vector<Shape> expected = {{3, 5}, {3, 5}, {3, 7}, {3, 20}};
  for (size_t i = 0; i < outputs.size(); ++i)
    EXPECT_EQ(g.tensors[static_cast<size_t>(outputs[i])].shape, expected[i]);
  EXPECT_EQ(g.tensors[static_cast<size_t>(outputs[3])].bytes, 3u * 20u * 2u);
  g.tensors[static_cast<size_t>(input)].shape = {3, 2, 1};
  EXPECT_EQ(PropagateShapes(g).message(), "node 0: LSTM: input [3,2,1] is not of rank 2");
}

// bidirectional_sequence_rnn.cc Prepare: the input's first two dimensions, then the forward
// (input 1) and backward (input 5) weights' units; both in one output with merge_outputs.
TEST(ShapeInferenceTest, BidirectionalRnnSizesItsOutputsFromBothDirectionsWeights) {
  Subgraph g;
  const int32_t input = AddTensor(g, TensorType::kFloat32, {2, 3, 5});
  std::vector<int32_t> inputs = {input};
  for (int32_t units : {4, 6}) {
    inputs.push_back(AddConstant(g, TensorType::kFloat32, {units, 5}));
    inputs.push_back(AddConstant(g, TensorType::kFloat32, {units, units}));
    inputs.push_back(AddConstant(g, TensorType::kFloat32, {units}));
    inputs.push_back(AddTensor(g, TensorType::kFloat32, {2, units}));
  }
  inputs.insert(inputs.end(), {-1, -1, -1});
  const int32_t fw = AddTensor(g, TensorType::kFloat32, {1});
  const int32_t bw = AddTensor(g, TensorType::kFloat32, {1});
  AddNode(g, "BIDIRECTIONAL_SEQUENCE_RNN", inputs, {fw, bw});
  ASSERT_TRUE(PropagateShapes(g).ok());
  EXPECT_EQ(g.tensors[static_cast<size_t>(fw)].shape, (Shape{2, 3, 4}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(bw)].shape, (Shape{2, 3, 6}));
  Node& merged = AddNode(g, "BIDIRECTIONAL_SEQUENCE_RNN", inputs, {fw});
  merged.options.Mutable().merge_outputs = true;
  auto shapes = InferOutputShapes(g, merged);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{2, 3, 10}));
  g.tensors[static_cast<size_t>(input)].shape = {6, 5};
  EXPECT_EQ(InferOutputShapes(g, merged).status().message(),
            "BIDIRECTIONAL_SEQUENCE_RNN: input [6,5] is not of rank 3");
}

}  // namespace
}  // namespace tfa
