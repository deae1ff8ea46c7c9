// Any byte string given to the .tflite loader yields a Model or an error, never a crash,
// a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <span>

#include "libanalysis/model/model_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto model = tfa::ParseTflite(std::span<const uint8_t>(data, size), "fuzz.tflite");
  if (model.ok()) {
    // Touch what the analyses read: every index must be in range after validation.
    for (const tfa::Subgraph& sg : model->subgraphs) {
      for (const tfa::Node& node : sg.nodes) {
        for (int32_t t : node.inputs) {
          if (t >= 0 && sg.tensors[static_cast<size_t>(t)].bytes_or_zero() == UINT64_MAX) return 0;
        }
      }
    }
  }
  return 0;
}
