// A generated model written as a .tflite file, for the tests that run the CLI on it.
#ifndef TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_
#define TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_

#include <string>

#include "corpus/generator/model_builder.h"

namespace tfa::testing {

// The model `builder` describes, written under the test's temporary directory as `name`; returns
// its path.
std::string WriteSyntheticModel(ModelBuilder&& builder, const std::string& name);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_SYNTHETIC_MODEL_FILE_H_
