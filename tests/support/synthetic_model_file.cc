#include "tests/support/synthetic_model_file.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "corpus/generator/tflite_writer.h"
#include "tests/support/tool_runner.h"

namespace tfa::testing {

std::string WriteSyntheticModel(ModelBuilder&& builder, const std::string& name) {
  SyntheticModel model = std::move(builder).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(model.model, model.data);
  return WriteTempFile(name, std::string(bytes.begin(), bytes.end()));
}

std::vector<float> SmallValues(size_t n, float magnitude, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t state = seed;
  for (float& x : v) {
    state = state * 1664525u + 1013904223u;
    x = magnitude * (static_cast<float>(state >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f);
  }
  return v;
}

}  // namespace tfa::testing
