// The small float models the delegate tests build case by case: seeded constant values, float
// and int32 tensors, the options of a windowed op (convolution, pooling), and one-node unary and
// binary cases over a [1, 6, 7, 4] input.
#ifndef RUNTIME_DELEGATES_TESTING_DELEGATE_TEST_GRAPHS_H_
#define RUNTIME_DELEGATES_TESTING_DELEGATE_TEST_GRAPHS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"

namespace tfa::runtime::testing {

// Adds a case's nodes after `input` and sets the model's outputs.
using GraphBuild = std::function<void(ModelBuilder&, int32_t input)>;

// `n` values in [-0.5, 0.5), the same for the same seed.
std::vector<float> Values(size_t n, uint32_t seed);
size_t Count(const std::vector<int32_t>& shape);

int32_t Constant(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape,
                 uint32_t seed);
int32_t Float(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape);
int32_t Ints(ModelBuilder& b, const std::string& name, std::vector<int32_t> shape,
             std::vector<int32_t> values);
OpOptions Window(Padding padding, int32_t stride, Activation activation = Activation::kNone);

// `op` on the input, a [1, 6, 7, 4] output.
GraphBuild Unary(const std::string& op);
// `op` of the input and a constant of `other_shape` (broadcast), a [1, 6, 7, 4] output.
GraphBuild Binary(const std::string& op, std::vector<int32_t> other_shape,
                  Activation activation = Activation::kNone);

}  // namespace tfa::runtime::testing

#endif  // RUNTIME_DELEGATES_TESTING_DELEGATE_TEST_GRAPHS_H_
