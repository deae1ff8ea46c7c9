#include "runtime/kernels/cpu/quantized_kernels.h"

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/basic_lstm.h"
#include "runtime/kernels/cpu/concatenation.h"
#include "runtime/kernels/cpu/conv.h"
#include "runtime/kernels/cpu/depthwise_conv.h"
#include "runtime/kernels/cpu/elementwise.h"
#include "runtime/kernels/cpu/fully_connected.h"
#include "runtime/kernels/cpu/hybrid_conv.h"
#include "runtime/kernels/cpu/hybrid_fully_connected.h"
#include "runtime/kernels/cpu/int16_activations.h"
#include "runtime/kernels/cpu/int16_add.h"
#include "runtime/kernels/cpu/int16_softmax.h"
#include "runtime/kernels/cpu/int16x8_conv.h"
#include "runtime/kernels/cpu/int32_arithmetic.h"
#include "runtime/kernels/cpu/int4_conv.h"
#include "runtime/kernels/cpu/int4_fully_connected.h"
#include "runtime/kernels/cpu/integer_lstm.h"
#include "runtime/kernels/cpu/integer_maximum_minimum.h"
#include "runtime/kernels/cpu/log_softmax.h"
#include "runtime/kernels/cpu/pooling.h"
#include "runtime/kernels/cpu/quantize.h"
#include "runtime/kernels/cpu/quantized_activations.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_concatenation.h"
#include "runtime/kernels/cpu/quantized_conv.h"
#include "runtime/kernels/cpu/quantized_elementwise.h"
#include "runtime/kernels/cpu/quantized_hard_swish.h"
#include "runtime/kernels/cpu/quantized_pooling.h"
#include "runtime/kernels/cpu/quantized_reduce.h"
#include "runtime/kernels/cpu/quantized_resize.h"
#include "runtime/kernels/cpu/quantized_softmax.h"
#include "runtime/kernels/cpu/quantized_transpose_conv.h"
#include "runtime/kernels/cpu/reduce.h"
#include "runtime/kernels/cpu/resize.h"
#include "runtime/kernels/cpu/softmax.h"
#include "runtime/kernels/cpu/transpose_conv.h"
#include "runtime/kernels/cpu/unary_math.h"
#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

namespace tfa::runtime {
namespace {

template <KernelFunction kFloatPrepare, KernelFunction kFloatEval, KernelFunction kQuantizedPrepare,
          KernelFunction kQuantizedEval>
constexpr KernelRegistration Dispatched() {
  return {ByInputType<kFloatPrepare, kQuantizedPrepare>, ByInputType<kFloatEval, kQuantizedEval>};
}

// A float32 binary kernel that also runs int32 and int64 inputs (the quantized ones are
// dispatched apart).
template <KernelFunction kFloatEval, KernelFunction kIntegerEval>
struct FloatOrInt32Or64 {
  static constexpr KernelFunction kPrepare =
      ByInt32Or64Input<PrepareBinary, PrepareInt32Or64Binary>;
  static constexpr KernelFunction kEval = ByInt32Or64Input<kFloatEval, kIntegerEval>;
};

// FULLY_CONNECTED and CONV_2D with float input and integer weights take upstream's hybrid path;
// int4 weights their int4 paths.
template <bool (*kIsHybrid)(const KernelContext&), KernelFunction kHybrid, KernelFunction kOther>
Status ByHybridWeights(KernelContext& context) {
  return kIsHybrid(context) ? kHybrid(context) : kOther(context);
}

// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL and EXP with int16 input take the
// int16 kernels.
template <KernelFunction kInt16, KernelFunction kOther>
Status ByInt16Input(KernelContext& context) {
  return HasInt16Input(context) ? kInt16(context) : kOther(context);
}

// Dispatched, with an int16-input kernel in front.
template <KernelFunction kInt16Prepare, KernelFunction kInt16Eval, KernelFunction kFloatPrepare,
          KernelFunction kFloatEval, KernelFunction kQuantizedPrepare,
          KernelFunction kQuantizedEval>
constexpr KernelRegistration Int16Or() {
  return {ByInt16Input<kInt16Prepare, ByInputType<kFloatPrepare, kQuantizedPrepare>>,
          ByInt16Input<kInt16Eval, ByInputType<kFloatEval, kQuantizedEval>>};
}

// MEAN, SUM and RESIZE_* take their integer kernels on int8, uint8 and int16 input.
template <KernelFunction kOther, KernelFunction kInteger>
Status ByQuantizedOrInt16Input(KernelContext& context) {
  const bool integer = !context.inputs.empty() && context.inputs[0] &&
                       (IsQuantizedType(context.inputs[0]->type) || HasInt16Input(context));
  return integer ? kInteger(context) : kOther(context);
}

// LSTM's basic kernel (LSTMOptions kernel_type BASIC) is a kernel of its own, float32 or uint8;
// the full one goes by its input type.
template <KernelFunction kBasic, KernelFunction kFull>
Status ByLstmKernelType(KernelContext& context) {
  return IsBasicLstm(context) ? kBasic(context) : kFull(context);
}

}  // namespace

const std::map<std::string, KernelRegistration>& TypeDispatchedKernels() {
  static const auto* table = new std::map<std::string, KernelRegistration>{
      // int4 filters on int8/int16 input are unpacked first, as upstream does.
      {"CONV_2D",
       {ByHybridWeights<
            HasInt4FilterOnIntegerInput, PrepareInt4Conv2D,
            ByInt16Input<PrepareInt16x8Conv2D,
                         ByHybridWeights<IsHybridConv2D, PrepareHybridConv2D,
                                         ByInputType<PrepareConv2D, PrepareQuantizedConv2D>>>>,
        ByHybridWeights<
            HasInt4FilterOnIntegerInput, EvalInt4Conv2D,
            ByInt16Input<EvalInt16x8Conv2D,
                         ByHybridWeights<IsHybridConv2D, EvalHybridConv2D,
                                         ByInputType<EvalConv2D, EvalQuantizedConv2D>>>>}},
      {"DEPTHWISE_CONV_2D",
       {ByHybridWeights<
            HasInt4FilterOnIntegerInput, PrepareInt4DepthwiseConv2D,
            ByInt16Input<PrepareInt16x8DepthwiseConv2D,
                         ByInputType<PrepareDepthwiseConv2D, PrepareQuantizedDepthwiseConv2D>>>,
        ByHybridWeights<
            HasInt4FilterOnIntegerInput, EvalInt4DepthwiseConv2D,
            ByInt16Input<EvalInt16x8DepthwiseConv2D,
                         ByInputType<EvalDepthwiseConv2D, EvalQuantizedDepthwiseConv2D>>>}},
      {"FULLY_CONNECTED",
       {ByHybridWeights<
            HasInt4Weights, PrepareInt4FullyConnected,
            ByInt16Input<PrepareInt16x8FullyConnected,
                         ByHybridWeights<
                             IsHybridFullyConnected, PrepareHybridFullyConnected,
                             ByInputType<PrepareFullyConnected, PrepareQuantizedFullyConnected>>>>,
        ByHybridWeights<
            HasInt4Weights, EvalInt4FullyConnected,
            ByInt16Input<
                EvalInt16x8FullyConnected,
                ByHybridWeights<IsHybridFullyConnected, EvalHybridFullyConnected,
                                ByInputType<EvalFullyConnected, EvalQuantizedFullyConnected>>>>}},
      // int16 input takes upstream's 16x8 (or plain int16) ADD and SUB, and 16x8 MUL.
      {"ADD",
       {ByInt16Input<PrepareInt16Add,
                     ByInputType<FloatOrInt32Or64<EvalAdd, EvalInt32Or64Add>::kPrepare,
                                 PrepareQuantizedBinary>>,
        ByInt16Input<EvalInt16Add, ByInputType<FloatOrInt32Or64<EvalAdd, EvalInt32Or64Add>::kEval,
                                               EvalQuantizedAdd>>}},
      {"SUB",
       {ByInt16Input<PrepareInt16Sub,
                     ByInputType<FloatOrInt32Or64<EvalSub, EvalInt32Or64Sub>::kPrepare,
                                 PrepareQuantizedBinary>>,
        ByInt16Input<EvalInt16Sub, ByInputType<FloatOrInt32Or64<EvalSub, EvalInt32Or64Sub>::kEval,
                                               EvalQuantizedSub>>}},
      {"MUL",
       {ByInt16Input<PrepareInt16Mul,
                     ByInputType<FloatOrInt32Or64<EvalMul, EvalInt32Or64Mul>::kPrepare,
                                 PrepareQuantizedBinary>>,
        ByInt16Input<EvalInt16Mul, ByInputType<FloatOrInt32Or64<EvalMul, EvalInt32Or64Mul>::kEval,
                                               EvalQuantizedMul>>}},
      {"DIV",
       {ByInt32Or64Input<PrepareBinary, PrepareInt32Binary>,
        ByInt32Or64Input<EvalDiv, EvalInt32Div>}},
      // int8 takes squared_difference.cc's quantized path (uint8 is refused there).
      {"SQUARED_DIFFERENCE",
       {ByInputType<ByInt32Or64Input<PrepareBinary, PrepareInt32Binary>,
                    PrepareQuantizedSquaredDifference>,
        ByInputType<ByInt32Or64Input<EvalSquaredDifference, EvalInt32SquaredDifference>,
                    EvalQuantizedSquaredDifference>}},
      // int16 input takes the int16 activations (RELU, RELU6, LOGISTIC, TANH, LEAKY_RELU,
      // SOFTMAX, the pools); upstream refuses int16 RELU_N1_TO_1, RELU_0_TO_1, ELU, GELU, PRELU,
      // HARD_SWISH and LOG_SOFTMAX, as their float kernels here do.
      {"RELU", Int16Or<PrepareInt16Relu, EvalInt16Relu, PrepareUnaryFloat, EvalRelu,
                       PrepareQuantizedUnary, EvalQuantizedRelu>()},
      {"RELU6", Int16Or<PrepareInt16Relu, EvalInt16Relu6, PrepareUnaryFloat, EvalRelu6,
                        PrepareQuantizedUnary, EvalQuantizedRelu6>()},
      {"RELU_N1_TO_1", Dispatched<PrepareUnaryFloat, EvalReluN1To1, PrepareQuantizedUnary,
                                  EvalQuantizedReluN1To1>()},
      {"RELU_0_TO_1",
       Dispatched<PrepareUnaryFloat, EvalRelu0To1, PrepareQuantizedUnary, EvalQuantizedRelu0To1>()},
      {"LOGISTIC", Int16Or<PrepareInt16Logistic, EvalInt16Logistic, PrepareUnaryFloat, EvalLogistic,
                           PrepareQuantizedLogistic, EvalQuantizedLogistic>()},
      {"TANH", Int16Or<PrepareInt16Tanh, EvalInt16Tanh, PrepareUnaryFloat, EvalTanh,
                       PrepareQuantizedUnary, EvalQuantizedTanh>()},
      {"ELU", Dispatched<PrepareUnaryFloat, EvalElu, PrepareQuantizedElu, EvalQuantizedElu>()},
      {"GELU", Dispatched<PrepareUnaryFloat, EvalGelu, PrepareQuantizedUnary, EvalQuantizedGelu>()},
      // int16 EXP takes upstream's interpolated int16 table.
      {"EXP",
       {ByInt16Input<PrepareQuantizedExp, ByInputType<PrepareUnaryFloat, PrepareQuantizedExp>>,
        ByInt16Input<EvalQuantizedExp, ByInputType<EvalExp, EvalQuantizedExp>>}},
      // int8 RSQRT takes elementwise.cc's fixed-point path (uint8 is refused there).
      {"RSQRT",
       Dispatched<PrepareUnaryFloat, EvalRsqrt, PrepareQuantizedRsqrt, EvalQuantizedRsqrt>()},
      {"LEAKY_RELU", Int16Or<PrepareInt16LeakyRelu, EvalInt16LeakyRelu, PrepareUnaryFloat,
                             EvalLeakyRelu, PrepareQuantizedUnary, EvalQuantizedLeakyRelu>()},
      {"PRELU", Dispatched<PreparePrelu, EvalPrelu, PrepareQuantizedPrelu, EvalQuantizedPrelu>()},
      {"MAX_POOL_2D", Int16Or<PrepareQuantizedPool2D, EvalQuantizedMaxPool2D, PreparePool2D,
                              EvalMaxPool2D, PrepareQuantizedPool2D, EvalQuantizedMaxPool2D>()},
      {"AVERAGE_POOL_2D",
       Int16Or<PrepareQuantizedPool2D, EvalQuantizedAveragePool2D, PreparePool2D, EvalAveragePool2D,
               PrepareQuantizedPool2D, EvalQuantizedAveragePool2D>()},
      {"RESIZE_BILINEAR",
       {ByQuantizedOrInt16Input<PrepareResize, PrepareQuantizedResize>,
        ByQuantizedOrInt16Input<EvalResizeBilinear, EvalQuantizedResizeBilinear>}},
      {"RESIZE_NEAREST_NEIGHBOR",
       {ByQuantizedOrInt16Input<PrepareResize, PrepareQuantizedResize>,
        ByQuantizedOrInt16Input<EvalResizeNearestNeighbor, EvalQuantizedResizeNearestNeighbor>}},
      {"MEAN",
       {ByQuantizedOrInt16Input<PrepareReduce, PrepareQuantizedMean>,
        ByQuantizedOrInt16Input<EvalMean, EvalQuantizedMean>}},
      {"SUM",
       {ByQuantizedOrInt16Input<PrepareReduce, PrepareQuantizedMean>,
        ByQuantizedOrInt16Input<EvalSum, EvalQuantizedSum>}},
      {"CONCATENATION", Dispatched<PrepareConcatenation, EvalConcatenation,
                                   PrepareQuantizedConcatenation, EvalQuantizedConcatenation>()},
      {"SOFTMAX", Int16Or<PrepareInt16Softmax, EvalInt16Softmax, PrepareSoftmax, EvalSoftmax,
                          PrepareQuantizedSoftmax, EvalQuantizedSoftmax>()},
      {"LOG_SOFTMAX", Dispatched<PrepareLogSoftmax, EvalLogSoftmax, PrepareQuantizedLogSoftmax,
                                 EvalQuantizedLogSoftmax>()},
      {"QUANTIZE", {PrepareQuantize, EvalQuantize}},
      {"TRANSPOSE_CONV",
       {ByTransposeConvInputType<PrepareTransposeConv, PrepareQuantizedTransposeConv>,
        ByTransposeConvInputType<EvalTransposeConv, EvalQuantizedTransposeConv>}},
      {"HARD_SWISH", Dispatched<PrepareUnaryFloat, EvalHardSwish, PrepareQuantizedHardSwish,
                                EvalQuantizedHardSwish>()},
      // int8 input takes upstream's 8x8->16 integer kernel.
      {"UNIDIRECTIONAL_SEQUENCE_LSTM",
       Dispatched<PrepareUnidirectionalSequenceLstm, EvalUnidirectionalSequenceLstm,
                  PrepareIntegerLstm, EvalIntegerLstm>()},
      {"LSTM",
       {ByLstmKernelType<PrepareBasicLstm,
                         ByInputType<PrepareUnidirectionalSequenceLstm, PrepareIntegerLstm>>,
        ByLstmKernelType<EvalBasicLstm,
                         ByInputType<EvalUnidirectionalSequenceLstm, EvalIntegerLstm>>}},
      {"MAXIMUM",
       {ByIntegerInput<PrepareBinary, PrepareIntegerMaximumMinimum>,
        ByIntegerInput<EvalMaximum, EvalIntegerMaximum>}},
      {"MINIMUM",
       {ByIntegerInput<PrepareBinary, PrepareIntegerMaximumMinimum>,
        ByIntegerInput<EvalMinimum, EvalIntegerMinimum>}},
  };
  return *table;
}

}  // namespace tfa::runtime
