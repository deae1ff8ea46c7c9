// Any text given to the gate's baseline parser yields a Baseline or a one-line error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libanalysis/gate/baseline_gate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto baseline =
      tfa::ParseBaseline(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  (void)baseline.ok();
  return 0;
}
