#include "runtime/kernels/cpu/cpu_kernels.h"

#include <algorithm>
#include <map>

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/add_n.h"
#include "runtime/kernels/cpu/arg_min_max.h"
#include "runtime/kernels/cpu/audio_spectrogram.h"
#include "runtime/kernels/cpu/batch_matmul.h"
#include "runtime/kernels/cpu/bidirectional_sequence_lstm.h"
#include "runtime/kernels/cpu/bidirectional_sequence_rnn.h"
#include "runtime/kernels/cpu/binary_math.h"
#include "runtime/kernels/cpu/bitcast.h"
#include "runtime/kernels/cpu/bitwise.h"
#include "runtime/kernels/cpu/broadcast_args.h"
#include "runtime/kernels/cpu/broadcast_to.h"
#include "runtime/kernels/cpu/bucketize.h"
#include "runtime/kernels/cpu/cast.h"
#include "runtime/kernels/cpu/comparison.h"
#include "runtime/kernels/cpu/complex_parts.h"
#include "runtime/kernels/cpu/concatenation.h"
#include "runtime/kernels/cpu/conv.h"
#include "runtime/kernels/cpu/conv3d.h"
#include "runtime/kernels/cpu/cumsum.h"
#include "runtime/kernels/cpu/densify.h"
#include "runtime/kernels/cpu/depth_to_space.h"
#include "runtime/kernels/cpu/depthwise_conv.h"
#include "runtime/kernels/cpu/dequantize.h"
#include "runtime/kernels/cpu/detection_postprocess.h"
#include "runtime/kernels/cpu/dilate.h"
#include "runtime/kernels/cpu/dynamic_update_slice.h"
#include "runtime/kernels/cpu/elementwise.h"
#include "runtime/kernels/cpu/embedding_lookup.h"
#include "runtime/kernels/cpu/embedding_lookup_sparse.h"
#include "runtime/kernels/cpu/fake_quant.h"
#include "runtime/kernels/cpu/fill.h"
#include "runtime/kernels/cpu/fully_connected.h"
#include "runtime/kernels/cpu/gather.h"
#include "runtime/kernels/cpu/gather_nd.h"
#include "runtime/kernels/cpu/hashtable_lookup.h"
#include "runtime/kernels/cpu/l2_normalization.h"
#include "runtime/kernels/cpu/landmarks_to_transform_matrix.h"
#include "runtime/kernels/cpu/local_response_norm.h"
#include "runtime/kernels/cpu/logical.h"
#include "runtime/kernels/cpu/matrix_diag.h"
#include "runtime/kernels/cpu/matrix_set_diag.h"
#include "runtime/kernels/cpu/max_pool_argmax.h"
#include "runtime/kernels/cpu/mfcc.h"
#include "runtime/kernels/cpu/non_max_suppression.h"
#include "runtime/kernels/cpu/one_hot.h"
#include "runtime/kernels/cpu/pack.h"
#include "runtime/kernels/cpu/pad.h"
#include "runtime/kernels/cpu/pooling.h"
#include "runtime/kernels/cpu/quantized_kernels.h"
#include "runtime/kernels/cpu/random_ops.h"
#include "runtime/kernels/cpu/range.h"
#include "runtime/kernels/cpu/reduce.h"
#include "runtime/kernels/cpu/reduce_generic.h"
#include "runtime/kernels/cpu/reshape.h"
#include "runtime/kernels/cpu/resize.h"
#include "runtime/kernels/cpu/reverse.h"
#include "runtime/kernels/cpu/reverse_sequence.h"
#include "runtime/kernels/cpu/rfft2d.h"
#include "runtime/kernels/cpu/rnn.h"
#include "runtime/kernels/cpu/rounding.h"
#include "runtime/kernels/cpu/scatter_nd.h"
#include "runtime/kernels/cpu/segment_sum.h"
#include "runtime/kernels/cpu/select.h"
#include "runtime/kernels/cpu/shape_of.h"
#include "runtime/kernels/cpu/slice.h"
#include "runtime/kernels/cpu/softmax.h"
#include "runtime/kernels/cpu/space_batch.h"
#include "runtime/kernels/cpu/sparse_to_dense.h"
#include "runtime/kernels/cpu/split.h"
#include "runtime/kernels/cpu/stablehlo_elementwise.h"
#include "runtime/kernels/cpu/svdf.h"
#include "runtime/kernels/cpu/tile.h"
#include "runtime/kernels/cpu/topk.h"
#include "runtime/kernels/cpu/transform_landmarks.h"
#include "runtime/kernels/cpu/transform_tensor_bilinear.h"
#include "runtime/kernels/cpu/transpose.h"
#include "runtime/kernels/cpu/transpose_conv.h"
#include "runtime/kernels/cpu/trigonometry.h"
#include "runtime/kernels/cpu/unary_math.h"
#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"
#include "runtime/kernels/cpu/unique.h"
#include "runtime/kernels/cpu/unsorted_segment.h"
#include "runtime/kernels/cpu/where.h"

namespace tfa::runtime {
namespace {

const std::map<std::string, KernelRegistration>& Table() {
  static const auto* table = new std::map<std::string, KernelRegistration>{
      {"ADD", {PrepareBinary, EvalAdd}},
      {"SUB", {PrepareBinary, EvalSub}},
      {"MUL", {PrepareBinary, EvalMul}},
      {"DIV", {PrepareBinary, EvalDiv}},
      {"MAXIMUM", {PrepareBinary, EvalMaximum}},
      {"MINIMUM", {PrepareBinary, EvalMinimum}},
      {"SQUARED_DIFFERENCE", {PrepareBinary, EvalSquaredDifference}},
      {"RELU", {PrepareUnaryFloat, EvalRelu}},
      {"RELU6", {PrepareUnaryFloat, EvalRelu6}},
      {"RELU_N1_TO_1", {PrepareUnaryFloat, EvalReluN1To1}},
      {"RELU_0_TO_1", {PrepareUnaryFloat, EvalRelu0To1}},
      {"LOGISTIC", {PrepareUnaryFloat, EvalLogistic}},
      {"TANH", {PrepareUnaryFloat, EvalTanh}},
      {"HARD_SWISH", {PrepareUnaryFloat, EvalHardSwish}},
      {"LEAKY_RELU", {PrepareUnaryFloat, EvalLeakyRelu}},
      {"ELU", {PrepareUnaryFloat, EvalElu}},
      {"PRELU", {PreparePrelu, EvalPrelu}},
      {"CEIL", {PrepareUnaryFloat, EvalCeil}},
      {"ROUND", {PrepareUnaryFloat, EvalRound}},
      {"CAST", {PrepareCast, EvalCast}},
      {"RSQRT", {PrepareUnaryFloat, EvalRsqrt}},
      {"LOG", {PrepareUnaryFloat, EvalLog}},
      {"GELU", {PrepareUnaryFloat, EvalGelu}},
      {"COMPLEX_ABS", {PrepareComplexPart, EvalComplexAbs}},
      {"REAL", {PrepareComplexPart, EvalReal}},
      {"IMAG", {PrepareComplexPart, EvalImag}},
      {"BATCH_MATMUL", {PrepareBatchMatMul, EvalBatchMatMul}},
      {"DYNAMIC_UPDATE_SLICE", {PrepareDynamicUpdateSlice, EvalDynamicUpdateSlice}},
      {"RFFT2D", {PrepareRfft2D, EvalRfft2D}},
      {"CONV_3D", {PrepareConv3D, EvalConv3D}},
      {"CONV_3D_TRANSPOSE", {PrepareConv3DTranspose, EvalConv3DTranspose}},
      {"UNIDIRECTIONAL_SEQUENCE_LSTM",
       {PrepareUnidirectionalSequenceLstm, EvalUnidirectionalSequenceLstm}},
      {"BIDIRECTIONAL_SEQUENCE_LSTM",
       {PrepareBidirectionalSequenceLstm, EvalBidirectionalSequenceLstm}},
      {"SVDF", {PrepareSvdf, EvalSvdf}},
      {"RNN", {PrepareRnn, EvalRnn}},
      {"UNIDIRECTIONAL_SEQUENCE_RNN",
       {PrepareUnidirectionalSequenceRnn, EvalUnidirectionalSequenceRnn}},
      {"BIDIRECTIONAL_SEQUENCE_RNN",
       {PrepareBidirectionalSequenceRnn, EvalBidirectionalSequenceRnn}},
      {"LSTM", {PrepareUnidirectionalSequenceLstm, EvalUnidirectionalSequenceLstm}},
      {"LESS", {PrepareComparison, EvalLess}},
      {"LESS_EQUAL", {PrepareComparison, EvalLessEqual}},
      {"GREATER", {PrepareComparison, EvalGreater}},
      {"GREATER_EQUAL", {PrepareComparison, EvalGreaterEqual}},
      {"EQUAL", {PrepareComparison, EvalEqual}},
      {"NOT_EQUAL", {PrepareComparison, EvalNotEqual}},
      {"FILL", {PrepareFill, EvalFill}},
      {"CONV_2D", {PrepareConv2D, EvalConv2D}},
      {"DEPTHWISE_CONV_2D", {PrepareDepthwiseConv2D, EvalDepthwiseConv2D}},
      {"TRANSPOSE_CONV", {PrepareTransposeConv, EvalTransposeConv}},
      {"Convolution2DTransposeBias", {PrepareTransposeConvBias, EvalTransposeConvBias}},
      {"FULLY_CONNECTED", {PrepareFullyConnected, EvalFullyConnected}},
      {"AVERAGE_POOL_2D", {PreparePool2D, EvalAveragePool2D}},
      {"MAX_POOL_2D", {PreparePool2D, EvalMaxPool2D}},
      {"L2_POOL_2D", {PreparePool2D, EvalL2Pool2D}},
      {"RESHAPE", {PrepareReshape, EvalReshape}},
      {"SQUEEZE", {PrepareReshape, EvalReshape}},
      {"EXPAND_DIMS", {PrepareReshape, EvalReshape}},
      {"CONCATENATION", {PrepareConcatenation, EvalConcatenation}},
      {"PAD", {PreparePad, EvalPad}},
      {"PADV2", {PreparePad, EvalPad}},
      {"MIRROR_PAD", {PrepareMirrorPad, EvalMirrorPad}},
      {"MEAN", {PrepareReduce, EvalMean}},
      {"SUM", {PrepareReduce, EvalSum}},
      {"RESIZE_BILINEAR", {PrepareResize, EvalResizeBilinear}},
      {"RESIZE_NEAREST_NEIGHBOR", {PrepareResize, EvalResizeNearestNeighbor}},
      {"SOFTMAX", {PrepareSoftmax, EvalSoftmax}},
      {"DEQUANTIZE", {PrepareDequantize, EvalDequantize}},
      {"DENSIFY", {PrepareDensify, EvalDensify}},
      {"DEPTH_TO_SPACE", {PrepareDepthToSpace, EvalDepthToSpace}},
      {"SPACE_TO_DEPTH", {PrepareSpaceToDepth, EvalSpaceToDepth}},
      {"SLICE", {PrepareSlice, EvalSlice}},
      {"STRIDED_SLICE", {PrepareStridedSlice, EvalStridedSlice}},
      {"TRANSPOSE", {PrepareTranspose, EvalTranspose}},
      {"SPLIT", {PrepareSplit, EvalSplit}},
      {"SPLIT_V", {PrepareSplitV, EvalSplitV}},
      {"GATHER", {PrepareGather, EvalGather}},
      {"SIN", {PrepareUnaryFloat, EvalSin}},
      {"COS", {PrepareUnaryFloat, EvalCos}},
      {"ATAN2", {PrepareAtan2, EvalAtan2}},
      {"ARG_MAX", {PrepareArgMinMax, EvalArgMax}},
      {"ARG_MIN", {PrepareArgMinMax, EvalArgMin}},
      {"PACK", {PreparePack, EvalPack}},
      {"UNPACK", {PrepareUnpack, EvalUnpack}},
      {"TOPK_V2", {PrepareTopKV2, EvalTopKV2}},
      {"SELECT", {PrepareSelect, EvalSelect}},
      {"SELECT_V2", {PrepareSelectV2, EvalSelectV2}},
      {"WHERE", {PrepareWhere, EvalWhere}},
      {"SCATTER_ND", {PrepareScatterNd, EvalScatterNd}},
      {"SEGMENT_SUM", {PrepareSegmentSum, EvalSegmentSum}},
      {"TILE", {PrepareTile, EvalTile}},
      {"BROADCAST_TO", {PrepareBroadcastTo, EvalBroadcastTo}},
      {"MaxPoolingWithArgmax2D", {PrepareMaxPoolingWithArgmax, EvalMaxPoolingWithArgmax}},
      {"MaxUnpooling2D", {PrepareMaxUnpooling, EvalMaxUnpooling}},
      {"SHAPE", {PrepareShapeOf, EvalShapeOf}},
      {"L2_NORMALIZATION", {PrepareL2Normalization, EvalL2Normalization}},
      {"Landmarks2TransformMatrix",
       {PrepareLandmarksToTransformMatrix, EvalLandmarksToTransformMatrix}},
      {"TFLite_Detection_PostProcess", {PrepareDetectionPostProcess, EvalDetectionPostProcess}},
      {"AudioSpectrogram", {PrepareAudioSpectrogram, EvalAudioSpectrogram}},
      {"Mfcc", {PrepareMfcc, EvalMfcc}},
      {"TransformLandmarks", {PrepareTransformLandmarks, EvalTransformLandmarks}},
      {"TransformTensorBilinear", {PrepareTransformTensorBilinear, EvalTransformTensorBilinear}},
      {"SQRT", {PrepareUnaryFloat, EvalSqrt}},
      {"SQUARE", {PrepareUnaryFloat, EvalSquare}},
      {"FLOOR", {PrepareUnaryFloat, EvalFloor}},
      {"NEG", {PrepareNeg, EvalNeg}},
      {"ABS", {PrepareAbs, EvalAbs}},
      {"SIGN", {PrepareSign, EvalSign}},
      {"POW", {PreparePow, EvalPow}},
      {"FLOOR_DIV", {PrepareFloorDiv, EvalFloorDiv}},
      {"FLOOR_MOD", {PrepareFloorMod, EvalFloorMod}},
      {"LOGICAL_AND", {PrepareLogicalBinary, EvalLogicalAnd}},
      {"LOGICAL_OR", {PrepareLogicalBinary, EvalLogicalOr}},
      {"LOGICAL_NOT", {PrepareLogicalNot, EvalLogicalNot}},
      {"REDUCE_MAX", {PrepareReduceExtremum, EvalReduceMax}},
      {"REDUCE_MIN", {PrepareReduceExtremum, EvalReduceMin}},
      {"REDUCE_PROD", {PrepareReduceProd, EvalReduceProd}},
      {"REDUCE_ANY", {PrepareReduceLogical, EvalReduceAny}},
      {"REDUCE_ALL", {PrepareReduceLogical, EvalReduceAll}},
      {"GATHER_ND", {PrepareGatherNd, EvalGatherNd}},
      {"RANGE", {PrepareRange, EvalRange}},
      {"ZEROS_LIKE", {PrepareZerosLike, EvalZerosLike}},
      {"SPACE_TO_BATCH_ND", {PrepareSpaceToBatchNd, EvalSpaceToBatchNd}},
      {"BATCH_TO_SPACE_ND", {PrepareBatchToSpaceNd, EvalBatchToSpaceNd}},
      {"ONE_HOT", {PrepareOneHot, EvalOneHot}},
      {"ADD_N", {PrepareAddN, EvalAddN}},
      {"REVERSE_V2", {PrepareReverseV2, EvalReverseV2}},
      {"RANK", {PrepareRank, EvalRank}},
      {"CUMSUM", {PrepareCumsum, EvalCumsum}},
      {"EMBEDDING_LOOKUP", {PrepareEmbeddingLookup, EvalEmbeddingLookup}},
      {"UNSORTED_SEGMENT_SUM", {PrepareUnsortedSegment, EvalUnsortedSegmentSum}},
      {"UNSORTED_SEGMENT_PROD", {PrepareUnsortedSegment, EvalUnsortedSegmentProd}},
      {"UNSORTED_SEGMENT_MAX", {PrepareUnsortedSegment, EvalUnsortedSegmentMax}},
      {"UNSORTED_SEGMENT_MIN", {PrepareUnsortedSegment, EvalUnsortedSegmentMin}},
      {"LOCAL_RESPONSE_NORMALIZATION", {PrepareLocalResponseNorm, EvalLocalResponseNorm}},
      {"BUCKETIZE", {PrepareBucketize, EvalBucketize}},
      {"REVERSE_SEQUENCE", {PrepareReverseSequence, EvalReverseSequence}},
      {"MATRIX_DIAG", {PrepareMatrixDiag, EvalMatrixDiag}},
      {"NON_MAX_SUPPRESSION_V4", {PrepareNonMaxSuppression, EvalNonMaxSuppression}},
      {"NON_MAX_SUPPRESSION_V5", {PrepareNonMaxSuppression, EvalNonMaxSuppression}},
      {"UNIQUE", {PrepareUnique, EvalUnique}},
      {"BITWISE_XOR", {PrepareBitwiseBinary, EvalBitwiseXor}},
      {"RIGHT_SHIFT", {PrepareBitwiseBinary, EvalRightShift}},
      {"STABLEHLO_ADD", {PrepareStablehloElementwise, EvalStablehloAdd}},
      {"STABLEHLO_MULTIPLY", {PrepareStablehloElementwise, EvalStablehloMultiply}},
      {"STABLEHLO_MAXIMUM", {PrepareStablehloElementwise, EvalStablehloMaximum}},
      {"STABLEHLO_MINIMUM", {PrepareStablehloElementwise, EvalStablehloMinimum}},
      {"STABLEHLO_AND", {PrepareStablehloAnd, EvalStablehloAnd}},
      {"STABLEHLO_SHIFT_LEFT", {PrepareStablehloShiftLeft, EvalStablehloShiftLeft}},
      {"BITCAST", {PrepareBitcast, EvalBitcast}},
      {"MATRIX_SET_DIAG", {PrepareMatrixSetDiag, EvalMatrixSetDiag}},
      {"BROADCAST_ARGS", {PrepareBroadcastArgs, EvalBroadcastArgs}},
      {"SPARSE_TO_DENSE", {PrepareSparseToDense, EvalSparseToDense}},
      {"FAKE_QUANT", {PrepareFakeQuant, EvalFakeQuant}},
      {"EMBEDDING_LOOKUP_SPARSE", {PrepareEmbeddingLookupSparse, EvalEmbeddingLookupSparse}},
      {"RANDOM_UNIFORM", {PrepareRandom, EvalRandomUniform}},
      {"RANDOM_STANDARD_NORMAL", {PrepareRandom, EvalRandomStandardNormal}},
      {"MULTINOMIAL", {PrepareMultinomial, EvalMultinomial}},
      {"HASHTABLE_LOOKUP", {PrepareHashtableLookup, EvalHashtableLookup}},
      {"DILATE", {PrepareDilate, EvalDilate}},
  };
  return *table;
}

// The float entries above, with the ops that also run on int8/uint8 dispatching on type.
const std::map<std::string, KernelRegistration>& AllKernels() {
  static const auto* all = [] {
    auto* merged = new std::map<std::string, KernelRegistration>(Table());
    for (const auto& [op, registration] : TypeDispatchedKernels()) (*merged)[op] = registration;
    return merged;
  }();
  return *all;
}

}  // namespace

const KernelRegistration* FindCpuKernel(const std::string& op) {
  const auto& table = AllKernels();
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

std::vector<std::string> CpuKernelOps() {
  std::vector<std::string> ops;
  for (const auto& [name, registration] : AllKernels()) ops.push_back(name);
  return ops;
}

}  // namespace tfa::runtime
