// A generated model written as a .tflite file, for the tests that run the CLI on it.
#ifndef TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_
#define TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"

namespace tfa::testing {

// The model `builder` describes, written under the test's temporary directory as `name`; returns
// its path.
std::string WriteSyntheticModel(ModelBuilder&& builder, const std::string& name);

// `n` small deterministic values in [-magnitude, magnitude], the same for the same `seed`: the
// constants and inputs of generated models.
std::vector<float> SmallValues(size_t n, float magnitude, uint32_t seed);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_
