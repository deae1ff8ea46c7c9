// Miniatures of the model families LiteRT users ship today, for the synthetic catalogue: a
// transformer block (BATCH_MATMUL with adj_y, SOFTMAX, layer norm as MEAN/SUB/MUL/RSQRT, GELU),
// a U-Net step (strided CONV_2D down, TRANSPOSE_CONV up, CONCATENATION skip), a 3-D convolution
// pair (CONV_3D, CONV_3D_TRANSPOSE), a float UNIDIRECTIONAL_SEQUENCE_LSTM with variable state
// tensors, an audio front end (RFFT2D to complex64, COMPLEX_ABS, LOG), hybrid kernels (float
// activations, int8 weights: FULLY_CONNECTED, BATCH_MATMUL, UNIDIRECTIONAL_SEQUENCE_LSTM, and
// sparse FULLY_CONNECTED and LSTM), 16x8 CONV_2D and FULLY_CONNECTED (int16 activations, int8
// weights), an SSD head ending in TFLite_Detection_PostProcess with its flexbuffer options, and a
// MEAN over a run-time axis (an output Prepare makes dynamic).
// Weights come from a seeded LCG, small enough that a runtime produces finite values.
#ifndef CORPUS_GENERATOR_FAMILY_MODELS_H_
#define CORPUS_GENERATOR_FAMILY_MODELS_H_

#include "corpus/generator/model_builder.h"

namespace tfa {

SyntheticModel TransformerBlockFloat();
SyntheticModel UnetTransposeConvFloat();
SyntheticModel Conv3DFloat();
SyntheticModel LstmFloat();
SyntheticModel AudioRfftFloat();
SyntheticModel SparseHybridFullyConnected();
SyntheticModel SparseHybridLstm();
SyntheticModel Int16x8ConvFullyConnected();
SyntheticModel HybridFullyConnectedBatchMatMul();
SyntheticModel HybridLstm();
SyntheticModel SsdPostProcessFloat();
SyntheticModel RuntimeAxisMeanFloat();

}  // namespace tfa

#endif  // CORPUS_GENERATOR_FAMILY_MODELS_H_
