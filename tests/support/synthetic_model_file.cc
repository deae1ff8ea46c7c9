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

}  // namespace tfa::testing
