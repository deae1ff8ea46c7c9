// Random valid float models of a given size, for benchmarks and fuzz seeds.
//
// NHWC activations of one spatial size flow through CONV_2D, DEPTHWISE_CONV_2D, pooling (SAME,
// stride 1), element-wise and activation ops and CONCATENATION; nodes read recent tensors more
// often than old ones, so that long chains, fan-outs and fan-ins all occur. Every activation that
// no node reads is a graph output. Shapes are consistent, so the runtime can execute the result.
#ifndef CORPUS_GENERATOR_RANDOM_MODEL_H_
#define CORPUS_GENERATOR_RANDOM_MODEL_H_

#include <cstdint>

#include "corpus/generator/model_builder.h"

namespace tfa {

// Exactly `node_count` nodes (at least 1); the same seed and count always give the same model.
SyntheticModel BuildRandomModel(uint64_t seed, int node_count);

}  // namespace tfa

#endif  // CORPUS_GENERATOR_RANDOM_MODEL_H_
