// Miniatures of the model families LiteRT users ship today, for the synthetic catalogue: a
// transformer block (BATCH_MATMUL with adj_y, SOFTMAX, layer norm as MEAN/SUB/MUL/RSQRT, GELU),
// a U-Net step (strided CONV_2D down, TRANSPOSE_CONV up, CONCATENATION skip), a 3-D convolution
// pair (CONV_3D, CONV_3D_TRANSPOSE), a float UNIDIRECTIONAL_SEQUENCE_LSTM with variable state
// tensors, and an audio front end (RFFT2D to complex64, COMPLEX_ABS, LOG). Weights come from a
// seeded LCG, small enough that a runtime produces finite values.
#ifndef CORPUS_GENERATOR_FAMILY_MODELS_H_
#define CORPUS_GENERATOR_FAMILY_MODELS_H_

#include "corpus/generator/model_builder.h"

namespace tfa {

SyntheticModel TransformerBlockFloat();
SyntheticModel UnetTransposeConvFloat();
SyntheticModel Conv3DFloat();
SyntheticModel LstmFloat();
SyntheticModel AudioRfftFloat();

}  // namespace tfa

#endif  // CORPUS_GENERATOR_FAMILY_MODELS_H_
