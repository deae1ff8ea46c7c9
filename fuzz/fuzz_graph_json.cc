// Any text given to the Graph JSON reader yields a Model or an error, never a crash or a hang; a
// Model it yields is written back as Graph JSON that reads back as the same model. The reading in
// parts (on several threads, any list split) either declines the text or reads the same model, and
// the layout scan 64 bytes at a time finds what the byte-by-byte one finds, error for error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/graph_json_layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto layout = tfa::ScanGraphJsonLayout(text, 24, 2);
  const auto reference_layout = tfa::ScanGraphJsonLayoutReference(text, 24, 2);
  if (layout.ok() != reference_layout.ok()) __builtin_trap();
  if (layout.ok() ? !(*layout == *reference_layout)
                  : layout.status().message() != reference_layout.status().message()) {
    __builtin_trap();
  }
  tfa::GraphJsonReading reference;
  reference.threads = 1;
  auto model = tfa::ParseGraphJson(text, "fuzz.json", reference);
  tfa::GraphJsonReading in_parts;
  in_parts.threads = 2;
  in_parts.split_bytes = 0;
  in_parts.part_step = 1;
  auto parts = tfa::ReadGraphJsonInParts(text, "fuzz.json", in_parts);
  if (!model.ok()) {
    if (parts.has_value()) __builtin_trap();
    return 0;
  }
  (void)tfa::SubgraphToGraphJson(model->subgraphs[0]);
  auto written = tfa::ModelToGraphJson(*model);
  if (!written.ok()) __builtin_trap();
  if (parts.has_value() && tfa::ModelToGraphJson(*parts).value() != *written) __builtin_trap();
  return 0;
}
