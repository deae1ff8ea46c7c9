#include "libanalysis/model/var_handle_names.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "libanalysis/model/tflite_schema_generated.h"

namespace tfa {

Result<VarHandleNames> VarHandleNamesOfFile(const std::string& model_path) {
  constexpr size_t kMaxFlatbufferBytes = (size_t{1} << 31) - 1;
  std::ifstream in(model_path, std::ios::binary);
  if (!in) return Status::Error(model_path + ": cannot open the file");
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(file.data(), std::min(file.size(), kMaxFlatbufferBytes), 64,
                                 50'000'000);
  if (!tflite::VerifyModelBuffer(verifier))
    return Status::Error(model_path + ": flatbuffer verification failed");
  const tflite::Model* model = tflite::GetModel(file.data());
  VarHandleNames names;
  if (!model->subgraphs()) return names;
  for (uint32_t s = 0; s < model->subgraphs()->size(); ++s) {
    const auto* operators = model->subgraphs()->Get(s)->operators();
    if (!operators) continue;
    for (uint32_t n = 0; n < operators->size(); ++n) {
      const auto* options = operators->Get(n)->builtin_options_as_VarHandleOptions();
      if (!options) continue;
      names[{static_cast<int32_t>(s), static_cast<int32_t>(n)}] = {
          options->container() ? options->container()->str() : "",
          options->shared_name() ? options->shared_name()->str() : ""};
    }
  }
  return names;
}

}  // namespace tfa
